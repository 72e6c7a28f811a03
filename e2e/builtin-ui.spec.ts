import { expect, test, type Page } from '@playwright/test';
import { builtins } from '../src/engine/scenario/builtins';
import { countStateRequests, frameAtCursor } from './frame-at-cursor';

// What the review of every built-in's screenshots found (issue 14, e2e/builtin-shots.spec.ts),
// kept from coming back: checked on every built-in, not on the few the other specs open.

async function open(page: Page, id: string, title: string) {
  await page.getByTestId('scenario-picker').selectOption(id);
  await expect(page.locator('.intro__title')).toHaveText(title, { timeout: 120_000 });
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 60_000 });
}

test('D28: no built-in scrolls sideways on a 390 px phone, in either language', async ({ page }) => {
  test.setTimeout(300_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('./');
  for (const lang of ['en', 'zh'] as const) {
    if (lang === 'zh') await page.getByRole('button', { name: '中文', exact: true }).click();
    for (const b of builtins) {
      if (b.id === 'contention-100' && lang === 'zh') continue; // one slow run is enough
      await open(page, b.id, lang === 'zh' ? b.titleZh : b.title);
      const over = await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      expect(over, `${lang} ${b.id}`).toBe(0);
    }
  }
});

test('every built-in’s title fits the picker at 1440 px', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  const picker = page.getByTestId('scenario-picker');
  await expect(picker).toBeVisible();
  for (const lang of ['en', 'zh'] as const) {
    if (lang === 'zh') await page.getByRole('button', { name: '中文', exact: true }).click();
    const cut = await picker.evaluate((el) => {
      const select = el as HTMLSelectElement;
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = getComputedStyle(select).font;
      // the text box is the select less its padding and the arrow (about 24 px)
      const room = select.clientWidth - 24 - 16;
      return [...select.options]
        .filter((o) => o.value && ctx.measureText(o.text).width > room)
        .map((o) => o.text);
    });
    expect(cut, lang).toEqual([]);
  }
});

test('D24: nine violation rows (stock-oversell) leave the transport on a 1440×900 screen', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  const b = builtins.find((x) => x.id === 'stock-oversell-no-lock')!;
  await open(page, b.id, b.title);
  await expect(page.locator('.violations__item')).toHaveCount(9);
  const box = await page.locator('.transport').boundingBox();
  expect(box!.y + box!.height).toBeLessThanOrEqual(900);
});

test('D27: a Chinese page at a violation has no English units or event field names', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await page.getByRole('button', { name: '中文', exact: true }).click();
  const b = builtins.find((x) => x.id === 'failover-lost-lock')!;
  await open(page, b.id, b.titleZh);
  await page.locator('.moments__chip--violation').first().click();
  await expect(page.getByTestId('clock')).toHaveText('7002');
  const texts = [
    await page.locator('.transport__clock').innerText(),
    await page.locator('.event-box').innerText(),
    await page.locator('.violations').innerText(),
  ].join('\n');
  expect(texts).toContain('毫秒');
  expect(texts).not.toMatch(/\d ?ms\b/);
  expect(texts).not.toMatch(/\b(violation|holders|holdCount|owner|step):/);
  await expect(page.locator('.moments__chip--violation').first()).toHaveAttribute('title', '7002 毫秒');
});

test('lane labels: a promoted replica’s role follows the cursor; a node’s name sits by its first key', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  for (const [id, replica] of [
    ['failover-lost-lock', 'replica-1'],
    ['cluster-failover-lost-lock', 'replica-3'],
  ] as const) {
    const b = builtins.find((x) => x.id === id)!;
    await open(page, id, b.title);
    const label = page.locator('.lane-label--node', { hasText: replica });
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.keyboard.press('Home');
    // a replica until it is promoted: the label does not tell the future (predict mode)
    await expect(label.locator('.lane-label__role')).toHaveCount(0);
    await expect(label.locator('button')).toHaveAttribute('title', new RegExp(`^${replica}( ·|$)`));
    await page.keyboard.press('End');
    await expect(label.locator('.lane-label__role')).toHaveText('→ master');
  }
  // rw-lock: the master lane has a sub-row per key; its name is beside the first, not below them
  const rw = builtins.find((x) => x.id === 'rw-lock-readers-then-writer')!;
  await open(page, rw.id, rw.title);
  const lane = (await page.locator('.lane-label--node').first().boundingBox())!;
  const name = (await page.locator('.lane-label--node .lane-label__id').first().boundingBox())!;
  expect(lane.height).toBeGreaterThan(60);
  expect(name.y - lane.y).toBeLessThan(24);
});

test('compare view: cluster lanes show their slots in full, in both languages', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  const b = builtins.find((x) => x.id === 'cluster-failover-lost-lock')!;
  await open(page, b.id, b.title);
  await page.getByTestId('compare-toggle').click();
  await page.getByTestId('compare-picker').selectOption('cluster-multilock-shards');
  await expect(page.getByTestId('compare-verdict-b')).toHaveAttribute('data-verdict', 'safe', {
    timeout: 60_000,
  });
  for (const lang of ['en', 'zh'] as const) {
    if (lang === 'zh') await page.getByRole('button', { name: '中文', exact: true }).click();
    const slots = page.getByTestId('compare-lanes-b').locator('.compare__slots');
    await expect(slots).toHaveCount(3);
    await expect(slots.last()).toHaveText(lang === 'zh' ? /10923–16383/ : 'slots 10923–16383');
    const cut = await slots.evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).length);
    expect(cut, lang).toBe(0);
  }
});

test('D27: a Chinese page names event kinds, enumerated values, key types and Lua comments in Chinese', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await countStateRequests(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await page.getByRole('button', { name: '中文', exact: true }).click();
  const box = page.locator('.event-box');
  // the event panel without the raw kind the page keeps beside the kind's name
  const shown = () =>
    box.evaluate((el) => {
      const raw = el.querySelector<HTMLElement>('.event-box__kind')?.innerText ?? '';
      return (el as HTMLElement).innerText.replace(raw, '');
    });
  const kinds = new Set<string>();
  for (const id of ['failover-lost-lock', 'split-brain-partition']) {
    const b = builtins.find((x) => x.id === id)!;
    await open(page, b.id, b.titleZh);
    await page.locator('.moments__chip--violation').first().click();
    for (let i = 0; i < 25; i++) {
      const kind = await box.locator('.event-box__kind').innerText();
      kinds.add(kind);
      const text = await shown();
      expect(text.split('\n')[0], kind).toMatch(/^\d+ 毫秒 · [^·]*[\u3400-\u9fff]/);
      expect(text, kind).not.toMatch(
        /\b(lock|unlock|watchdog|pubsub|waiter|key|repl|node|sentinel|failover|client|thread|work|net|resource|violation|cluster)\.[a-z]+/,
      );
      expect(text, kind).not.toMatch(
        /: (lazy|active|ok|fail|normal|exception|work|sleep|use|timeout|interrupted|stale|unlocked|lost-update|forceUnlock|lost|true|false|null)$/m,
      );
      expect(text, kind).not.toMatch(/角色: (master|replica)/);
      await page.getByTestId('step-forward').click();
    }

    // key types and node roles: Chinese, Redis's own word on hover (read once the keyspace is the
    // one at the cursor: a late state redrawn between the count and the reads changes the rows)
    await frameAtCursor(page);
    const types = page.locator('.ks__type');
    expect(await types.count()).toBeGreaterThan(0);
    for (const el of await types.all()) {
      expect(await el.innerText()).toMatch(/^(字符串|哈希|列表|有序集合)$/);
      expect(await el.getAttribute('title')).toMatch(/^(string|hash|list|zset)$/);
    }
    for (const el of await page.locator('.ks__role').all()) {
      expect(await el.innerText()).toMatch(/^(主节点|从节点|哨兵)$/);
    }
  }
  expect(kinds.size).toBeGreaterThan(4);

  // the script view's comments are ours: translated line for line, the English on hover
  const comments = page.locator('.lua__line code').filter({ hasText: /^\s*--/ });
  expect(await comments.count()).toBeGreaterThan(0);
  for (const el of await comments.all()) {
    expect(await el.innerText()).toMatch(/[\u3400-\u9fff]/);
    expect(await el.getAttribute('title')).toMatch(/^\s*-- [ -~]+$/);
  }

  // the timeline's tooltip: the kind's name, the raw kind beside it
  const hit = (await page.locator('.timeline__hit').boundingBox())!;
  const cursor = (await page.locator('.timeline__cursor').boundingBox())!;
  const tip = page.getByTestId('tooltip');
  for (let y = hit.y + 4; y < hit.y + hit.height && !(await tip.count()); y += 6) {
    for (const dx of [0, 3, -3, 8, -8]) {
      await page.mouse.move(cursor.x + dx, y);
      if (await tip.count()) break;
    }
  }
  await expect(tip).toHaveText(/^\d+ 毫秒 · [^·（]*[\u3400-\u9fff][^（]*（[a-z]+(\.[a-z]+)*）/);
});
