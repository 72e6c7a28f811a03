import { expect, test, type Page } from '@playwright/test';
import { builtins } from '../src/engine/scenario/builtins';

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
