import { expect, test, type Page } from '@playwright/test';

// Compare: two scenarios on one time axis, each with its verdict, one cursor moving both; a
// preset pair is one click away and the comparison survives a reload through the link.

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 30_000 });
}

const at = (page: Page, side: 'a' | 'b') => page.getByTestId(`compare-at-${side}`);

test('a preset pair shows two verdicts and one cursor moves both', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await ready(page);
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('compare')).toBeVisible();
  await page.getByTestId('compare-preset-failover-lost-lock').click();
  await expect(page.getByTestId('scenario-picker')).toHaveValue('failover-lost-lock');
  await expect(page.getByTestId('compare-picker')).toHaveValue('failover-wait-helps');
  await expect(page.getByTestId('compare-verdict-a')).toHaveAttribute('data-verdict', 'unsafe');
  await expect(page.getByTestId('compare-verdict-b')).toHaveAttribute('data-verdict', 'safe');
  await expect(page.getByTestId('compare-cursor')).toHaveCount(2);

  await page.keyboard.press('Home');
  // counted as the transport counts: before the first event is event 0, never -1
  await expect(at(page, 'a')).toHaveText(/^event 0 of \d+ · 0 ms$/);
  const b0 = await at(page, 'b').textContent();
  const x0 = await page.getByTestId('compare-cursor').nth(1).boundingBox();
  await page.keyboard.press('End');
  await expect(at(page, 'b')).not.toHaveText(b0 ?? '');
  // the two cursor lines stand at the same x: one time axis (polled: the two boxes are read in
  // two calls, which a render between them would split)
  const cursors = async () => {
    const [ca, cb] = [
      await page.getByTestId('compare-cursor').nth(0).boundingBox(),
      await page.getByTestId('compare-cursor').nth(1).boundingBox(),
    ];
    return { apart: Math.abs(ca!.x - cb!.x) < 1 ? 'same x' : ca!.x - cb!.x, moved: cb!.x > x0!.x + 100 };
  };
  await expect.poll(cursors).toEqual({ apart: 'same x', moved: true });

  // a click on the second plot moves the shared cursor (and so the first side too)
  const a1 = await at(page, 'a').textContent();
  const plot = page.getByTestId('compare-lanes-b').locator('.compare__plot');
  const box = await plot.boundingBox();
  await page.mouse.click(box!.x + box!.width * 0.3, box!.y + 10);
  await expect(at(page, 'a')).not.toHaveText(a1 ?? '');
  await page.screenshot({ path: '.tmp/compare-en-1440.png' });

  // the link keeps the comparison (the address follows the page after a short debounce)
  await expect(page).toHaveURL(/&k=failover-wait-helps/);
  await page.reload();
  await ready(page);
  await expect(page.getByTestId('compare-verdict-b')).toHaveAttribute('data-verdict', 'safe');
  await page.getByTestId('compare-close').click();
  await expect(page.getByTestId('compare')).toHaveCount(0);
  await expect(page.getByTestId('timeline')).toBeVisible();
  expect(errors).toEqual([]);
});

test('"before my edits" compares an edited scenario with its built-in', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await page.getByTestId('scenario-picker').selectOption('basic-lock');
  // the verdict on screen is the default scenario's until basic-lock's run is in; the picker
  // (controlled by the store) shows basic-lock from then on
  await expect(page.getByTestId('scenario-picker')).toHaveValue('basic-lock');
  await ready(page);
  await page.getByTestId('view-topology').click();
  await page.keyboard.press('End');
  // an edit from the topology's node menu: crash master at the cursor
  await page.locator('[data-testid="topology"] [data-testid="topo-node"][data-id="master"]').click();
  await page.getByTestId('topo-menu').getByRole('menuitem').first().click();
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  await page.getByTestId('compare-toggle').click();
  await expect(page.getByTestId('compare-picker')).toHaveValue('basic-lock');
  await expect(page.getByTestId('compare-before')).toBeEnabled();
  await expect(page.getByTestId('compare-verdict-b')).toHaveAttribute('data-verdict', 'safe');
  // the topology mode shows both deployments under the lanes
  await expect(page.getByTestId('compare-topology-a')).toBeVisible();
  await expect(page.getByTestId('compare-topology-b')).toBeVisible();
});

for (const lang of ['en', 'zh'] as const)
  for (const [w, h] of [
    [1440, 900],
    [390, 844],
  ] as const)
    test(`screenshots: compare, ${lang} ${w}x${h}`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.goto('./');
      await ready(page);
      if (lang === 'zh') await page.getByRole('button', { name: '中文' }).click();
      await page.getByTestId('compare-toggle').click();
      await page.getByTestId('compare-preset-gc-pause-lease-expiry').click();
      await expect(page.getByTestId('compare-verdict-b')).toBeVisible({ timeout: 30_000 });
      await page.keyboard.press('Home');
      for (let i = 0; i < 20; i++) await page.keyboard.press('ArrowRight');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w);
      await page.screenshot({ path: `.tmp/compare-${lang}-${w}.png` });
      await page.getByTestId('compare').screenshot({ path: `.tmp/compare-panel-${lang}-${w}.png` });
    });
