/**
 * What a teacher driving LockScope in front of a class needs (issue 14 §B and the layout items):
 * pasted links, keys after a pick or a click, pace, key moments, edits that can be undone and
 * reset, and a page that fits a laptop and a phone.
 */
import { expect, test, type Page } from '@playwright/test';
import LZString from 'lz-string';
import { builtin } from '../src/engine/scenario/builtins';

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 15_000 });
}

async function pick(page: Page, id: string) {
  await page.getByTestId('scenario-picker').selectOption(id);
  await expect(page.getByTestId('scenario-picker')).toHaveValue(id);
  await ready(page);
}

async function eventNo(page: Page): Promise<number> {
  const text = (await page.locator('.transport__event').textContent()) ?? '';
  return Number(text.split('/')[0].replace(/\D/g, ''));
}

/**
 * The share link once `ready` holds for it. It follows the state after a short debounce, so a
 * link read at a fixed delay after a change can still be the one before it.
 */
async function shareHref(page: Page, ready: (href: string) => boolean): Promise<string> {
  let href = '';
  await expect
    .poll(async () => ready((href = (await page.getByTestId('share-link').getAttribute('href')) ?? '')), {
      message: 'the share link never showed the state expected',
    })
    .toBe(true);
  return href;
}

/** Whether a link carries the built-in `id`'s scenario. */
const linksTo = (id: string) => (href: string) =>
  LZString.decompressFromEncodedURIComponent(/[#&]s=([^&]*)/.exec(href)?.[1] ?? '') ===
  JSON.stringify(builtin(id)!.scenario);

function viewOf(href: string): [number, number] | null {
  const m = /[#&]v=(\d+),(\d+)/.exec(href);
  return m ? [Number(m[1]), Number(m[2])] : null;
}

test('D6: a link pasted into an open tab loads', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'failover-lost-lock');
  const link = await shareHref(page, linksTo('failover-lost-lock'));
  await pick(page, 'basic-lock');
  // The address bar follows the page a moment later; paste only once it shows basic-lock.
  await expect.poll(() => page.evaluate(() => window.location.hash)).not.toBe(new URL(link).hash);
  await page.evaluate((h) => {
    window.location.hash = h;
  }, new URL(link).hash);
  await expect(page.getByTestId('scenario-picker')).toHaveValue('failover-lost-lock');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'unsafe');
});

test('D7: after picking a scenario, → steps the cursor instead of changing the scenario', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('scenario-picker')).toHaveValue('basic-lock');
  await expect.poll(() => eventNo(page)).toBe(1);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  // Even with the picker itself focused, ←/→ are the timeline's.
  const at = await eventNo(page);
  await page.getByTestId('scenario-picker').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('scenario-picker')).toHaveValue('basic-lock');
  await expect.poll(() => eventNo(page)).toBe(at + 1);
});

test('D30: Space toggles play after clicking a transport button, without clicking it again', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'watchdog-renewal');
  await page.keyboard.press('Home');
  await page.getByTestId('step-forward').click();
  await expect.poll(() => eventNo(page)).toBe(1);
  await page.keyboard.press(' ');
  // Had Space clicked Step on keyup, stepping would have stopped the playback again.
  await page.waitForTimeout(300);
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
});

test('D8: a short scenario plays for seconds, not a fraction of one', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  const speed = Number(await page.getByTestId('speed').inputValue());
  expect(speed).toBeLessThan(1);
  await page.keyboard.press('Home');
  await page.getByTestId('play').click();
  await page.waitForTimeout(2000);
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  const n = Number(((await page.locator('.transport__event').textContent()) ?? '').split('/')[1]);
  expect(await eventNo(page)).toBeLessThan(n);
});

test('D9: jumping to a violation or a key moment zooms to it; links keep the zoom', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await ready(page);
  await pick(page, 'gc-pause-lease-expiry');
  // the page's first link (the cursor before the first event), not yet zoomed
  expect(
    viewOf(await shareHref(page, (h) => linksTo('gc-pause-lease-expiry')(h) && /&c=-1\b/.test(h))),
  ).toBeNull();
  await page.locator('.violations__jump').first().click();
  const v1 = viewOf(await shareHref(page, (h) => viewOf(h) !== null));
  // V1 runs 30008-30108 ms in a 41 s run: the window holds it and is a few seconds wide at most.
  expect(v1![0]).toBeLessThanOrEqual(30_008);
  expect(v1![1]).toBeGreaterThanOrEqual(30_108);
  expect(v1![1] - v1![0]).toBeLessThan(8_000);
  // the band drawn at that zoom (a frame after the view it follows)
  await expect
    .poll(async () => (await page.getByTestId('violation').first().boundingBox())?.width ?? 0)
    .toBeGreaterThan(10);

  // A safe scenario has key moments too, and a chip moves the cursor and zooms.
  await pick(page, 'watchdog-renewal');
  const chips = page.getByTestId('key-moments').getByRole('button');
  await expect.poll(() => chips.count()).toBeGreaterThanOrEqual(3);
  const renew = chips.filter({ hasText: 'watchdog renews' });
  await renew.click();
  await expect(renew).toHaveAttribute('aria-current', 'step');
  await expect.poll(async () => Number(await page.getByTestId('clock').textContent())).toBe(10012);
  // the link of this scenario, zoomed, once it follows the chip's cursor
  const cursor = Number(/(\d+)\//.exec((await page.locator('.transport__event').textContent())!)![1]) - 1;
  const link = await shareHref(
    page,
    (h) => linksTo('watchdog-renewal')(h) && new RegExp(`&c=${cursor}\\b`).test(h) && viewOf(h) !== null,
  );
  const v2 = viewOf(link);
  expect(v2![0]).toBeLessThan(10_012);
  expect(v2![1]).toBeGreaterThan(10_012);

  // The link opens at the same zoom.
  const other = await context.newPage();
  await other.goto(link);
  await ready(other);
  // Same window, up to rounding (the new page may be a different width).
  const slack = (v2![1] - v2![0]) / 100;
  await shareHref(other, (h) => {
    const v = viewOf(h);
    return v !== null && Math.abs(v[0] - v2![0]) <= slack && Math.abs(v[1] - v2![1]) <= slack;
  });
  await expect(other.getByTestId('clock')).toHaveText('10012');
});

test('D11/D12/undo: edits keep the text, reset restores the scenario, undo and redo walk the edits', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'reentrant');
  const intro = page.getByTestId('intro');
  const text = await intro.locator('.intro__text').textContent();
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const handles = page.locator('.fault-handle');
  const before = await handles.count();
  await page.getByRole('button', { name: 'Actions for master' }).click();
  await page.getByRole('menuitem', { name: /Crash master here/ }).click();
  await expect(handles).toHaveCount(before + 1);
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  await expect(page.getByTestId('scenario-picker').locator('option').first()).toHaveText(/^Modified: /);
  await expect(page.getByTestId('modified-note')).toContainText('Modified from');
  await expect(intro.locator('.intro__text')).toHaveText(text!);

  await page.getByTestId('undo').click();
  await expect(handles).toHaveCount(before);
  await expect(page.getByTestId('scenario-picker')).toHaveValue('reentrant');
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+Shift+Z');
  await expect(handles).toHaveCount(before + 1);
  await page.keyboard.press('Control+z');
  await expect(handles).toHaveCount(before);
  await page.getByTestId('redo').click();
  await expect(handles).toHaveCount(before + 1);

  await page.getByTestId('reset').click();
  await expect(page.getByTestId('scenario-picker')).toHaveValue('reentrant');
  await expect(handles).toHaveCount(before);
  await expect(page.getByTestId('modified-note')).toHaveCount(0);
});

test('D12 in Chinese: the modified note and reset name the original', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.getByRole('button', { name: '中文' }).click();
  await page.getByRole('button', { name: 'master 的操作' }).click();
  await page.getByRole('menuitem', { name: /宕机/ }).click();
  await expect(page.getByTestId('modified-note')).toContainText('修改自');
  await expect(page.getByTestId('reset')).toContainText('恢复为');
  await page.getByRole('button', { name: 'EN', exact: true }).click();
});

test('D13: a console write is visible at the cursor where it was typed', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.keyboard.press('Home');
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  const input = page.getByRole('textbox', { name: 'Redis command' });
  await input.fill('SET greeting hello');
  await input.press('Enter');
  await expect(page.getByTestId('console')).toContainText('the cursor moved to its reply');
  await input.fill('GET greeting');
  await input.press('Enter');
  await expect(page.getByTestId('console')).toContainText('"hello"');
});

test('lane menu: pause and partition lengths are editable', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.keyboard.press('Home');
  await page.getByRole('button', { name: 'Actions for A:1' }).click();
  await page.getByTestId('length-pause').fill('12');
  await page.getByTestId('length-partition').fill('3');
  await expect(page.getByRole('menuitem', { name: /Cut A off from the others for 3 s/ })).toBeVisible();
  await page.getByRole('menuitem', { name: /Pause client A here for 12 s/ }).click();
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  await page.getByRole('button', { name: 'Edit JSON' }).click();
  await expect(page.locator('.json-editor__content')).toContainText('"ms": 12000');
});

test('D15: a tooltip near the bottom of the window flips up and stays inside it', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  const master = page.getByRole('button', { name: 'Actions for master' });
  // Put the bottom lane at the bottom edge of the window.
  await page.evaluate(() => window.scrollTo(0, 0));
  const lane = (await master.boundingBox())!;
  await page.evaluate((y) => window.scrollBy(0, y), lane.y + lane.height - 790);
  const box = (await master.boundingBox())!;
  const plot = (await page.locator('.timeline__hit').boundingBox())!;
  const tip = page.getByTestId('tooltip');
  for (let x = plot.x + 4; x < plot.x + plot.width; x += 6) {
    await page.mouse.move(x, box.y + box.height / 2);
    if (await tip.count()) break;
  }
  await expect(tip).toBeVisible();
  const r = (await tip.boundingBox())!;
  expect(r.y).toBeGreaterThanOrEqual(0);
  expect(r.y + r.height).toBeLessThanOrEqual(800);
  expect(r.x + r.width).toBeLessThanOrEqual(1280);
});

test('D18: a partition marker at 0 ms does not cover the nodes header', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'failover-wait-wrong-replica');
  const handle = page.locator('.fault-handle--partition').first();
  const firstNode = page.getByRole('button', { name: 'Actions for master' });
  const h = (await handle.boundingBox())!;
  const n = (await firstNode.boundingBox())!;
  // The header row is above the first node lane: the marker sits in the lane.
  expect(h.y).toBeGreaterThanOrEqual(n.y - 2);
});

test.describe('D28: phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  test('no sideways scroll, lane menus inside the screen, no keyboard hints', async ({ page }) => {
    await page.goto('./');
    await ready(page);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expect(page.locator('.transport__keys')).toBeHidden();
    await page.getByRole('button', { name: 'Actions for A:1' }).tap();
    const menu = page.getByTestId('lane-menu');
    await expect(menu).toBeVisible();
    const r = (await menu.boundingBox())!;
    expect(r.x).toBeGreaterThanOrEqual(0);
    expect(r.x + r.width).toBeLessThanOrEqual(390);
  });
});

test('D29: at 1024×768 the timeline and the event details are visible together', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('./');
  await ready(page);
  await pick(page, 'failover-lost-lock');
  await expect(page.getByTestId('timeline')).toBeInViewport();
  await expect(page.locator('.panel--threads h3').first()).toBeInViewport();
});

test('D32: the JSON editor scrolls to the error it reports', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'failover-lost-lock');
  await page.getByRole('button', { name: 'Edit JSON' }).click();
  const editor = page.locator('.json-editor__content');
  await expect(editor).toBeVisible();
  // Break the last lines of a long document, then scroll the editor back to the top.
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type(',,');
  await page.keyboard.press('Control+Home');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.locator('.issues')).toContainText(/Not valid JSON at line \d+, column \d+:/);
  await expect(page.locator('.json-editor__problem').first()).toBeInViewport();
});

test('minor: long picker titles have a title, Import is not hidden under Export', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await expect(page.getByTestId('scenario-picker')).toHaveAttribute('title', /.+/);
  await expect(page.getByTestId('import')).toBeVisible();
});

test('D9: a 10 ms double hold, jumped to, takes a readable share of the width (redlock, fencing)', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await ready(page);
  for (const id of ['redlock-pause-after-validity', 'fencing-saves-gc-pause']) {
    await pick(page, id);
    await page.locator('.violations__jump').first().click();
    const plot = await page.locator('.timeline__plot').boundingBox();
    // about a fifth of the plot, less its rounding (it was ~10 px: the window was ~1 s wide)
    await expect
      .poll(async () => (await page.getByTestId('violation').first().boundingBox())?.width ?? 0)
      .toBeGreaterThan(plot!.width / 6);
  }
});

// A lesson link pasted while the address bar is about to follow the page (its update waits
// 150 ms after a change): the update must not overwrite the pasted link before the page has read
// it. On a busy machine the hashchange can be handled after that update; here the page's
// hashchange handlers are held back 300 ms to make that order certain.
test('D6: a lesson link pasted just before the address bar follows the cursor opens the lesson', async ({
  page,
}) => {
  await page.addInitScript(() => {
    const add = window.addEventListener.bind(window);
    window.addEventListener = ((type: string, fn: EventListener, opts?: AddEventListenerOptions) =>
      type === 'hashchange'
        ? add(type, (e) => setTimeout(() => fn(e), 300), opts)
        : add(type, fn, opts)) as typeof window.addEventListener;
  });
  await page.goto('./');
  await ready(page);
  await expect.poll(() => page.evaluate(() => window.location.hash)).toMatch(/^#s=/);
  await page.keyboard.press('ArrowRight');
  await page.evaluate(() => {
    window.location.hash = '#lesson=why-lock&step=1';
  });
  await expect(page.getByTestId('lesson-panel')).toHaveAttribute('data-step', '1', { timeout: 20_000 });
  await expect.poll(() => page.evaluate(() => window.location.hash)).toContain('lesson=why-lock');
});
