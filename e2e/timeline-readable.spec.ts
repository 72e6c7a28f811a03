import { expect, test, type Page } from '@playwright/test';
import { countStateRequests, frameAtCursor } from './frame-at-cursor';

// The timeline readable from the back of the room (issue 14: D17, D19, D20, D21, D34, predict mode).

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 30_000 });
}

async function pick(page: Page, id: string) {
  await page.getByTestId('scenario-picker').selectOption(id);
  await expect(page.getByTestId('scenario-picker')).toHaveValue(id);
  await ready(page);
}

/** The playground's first screen, then the built-in `id` picked from it. */
async function openAndPick(page: Page, id: string) {
  await page.goto('./');
  await ready(page);
  await pick(page, id);
}

// The playground's first screen is loaded by the tests that pick from it: the lesson links below
// open their own page, and a first screen loaded before them was thrown away.
test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('D17 failover: the promoted replica’s label says → master in full, Sentinels have a lane', async ({
  page,
}) => {
  await openAndPick(page, 'failover-lost-lock');
  const label = page.locator('.lane-label--node', { hasText: 'replica-1' });
  const role = label.locator('.lane-label__role');
  // the role at the cursor: a replica before the promotion, "→ master" from it on
  await page.keyboard.press('Home');
  await expect(role).toHaveCount(0);
  await page.keyboard.press('End');
  await expect(role).toHaveText('→ master');
  const clipped = await role.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const lane = el.closest('.lane-label')!.getBoundingClientRect();
    return box.right > lane.right + 0.5;
  });
  expect(clipped).toBe(false);
  await expect(label.locator('button')).toHaveAttribute('title', 'replica-1 → master');
  await expect(page.locator('.lane-label--sentinels')).toHaveText('Sentinels');
  for (const k of ['legend.promote', 'legend.leader', 'legend.sdown', 'legend.failover', 'legend.roleTag'])
    await expect(page.locator(`[data-legend="${k}"]`)).toBeVisible();
});

test('D19 owners: the keyspace names A:1, the uuid on hover', async ({ page }) => {
  await countStateRequests(page);
  await openAndPick(page, 'basic-lock');
  await page.keyboard.press('Home');
  const field = page.getByTestId('ks-field').first();
  // step until A's hold is in the keyspace (the state at each event, not a late one)
  for (let i = 0; i < 30; i++) {
    await frameAtCursor(page);
    if ((await field.count()) > 0) break;
    await page.getByTestId('step-forward').click();
  }
  await expect(field).toHaveText('A:1');
  await expect(field).toHaveAttribute('title', /^[0-9a-f]{8}-[0-9a-f-]+:1$/);
});

test('D34 the Threads table lists the threads in lane order', async ({ page }) => {
  await openAndPick(page, 'fair-lock-fifo');
  await page.keyboard.press('End');
  const lanes = await page.locator('.lane-label--thread button').allTextContents();
  await expect(page.locator('.threads tbody th')).toHaveText(lanes);
});

test('D21 polling and D20 several keys: their marks are in the legend', async ({ page }) => {
  await openAndPick(page, 'spin-lock-polling');
  await expect(page.locator('[data-legend="legend.poll"]')).toBeVisible();
  await pick(page, 'contention-wakeup');
  await expect(page.locator('[data-legend="legend.poll"]')).toHaveCount(0);
});

test('predict mode hides the future until stepped into, and is kept in the link', async ({ page }) => {
  await openAndPick(page, 'gc-pause-lease-expiry');
  await page.keyboard.press('Home');
  await expect(page.getByTestId('predict-veil')).toHaveCount(0);
  await page.getByTestId('predict-toggle').check();
  const veil = page.getByTestId('predict-veil');
  await expect(veil).toBeVisible();
  await expect(page.getByTestId('verdict')).toBeHidden();
  await expect(page.locator('.violations')).toHaveCount(0);
  const x0 = (await veil.boundingBox())!.x;
  // the shortcuts do not act while a form control has the focus
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('End');
  await expect.poll(async () => (await veil.boundingBox())!.x).toBeGreaterThan(x0 + 100);
  await expect(page.locator('.violations')).toBeVisible();
  await expect(page.getByTestId('share-link')).toHaveAttribute('href', /&p=1/);
  await page.getByTestId('predict-toggle').uncheck();
  await expect(veil).toHaveCount(0);
  await expect(page.getByTestId('verdict')).toBeVisible();
});

for (const lang of ['en', 'zh'])
  test(`the unlock latch's name reads in the keyspace column (${lang}): its id cut in the middle, whole on hover`, async ({
    page,
  }) => {
    // reentrancy step 5: the second unlock leaves the latch, `redisson_unlock_latch:{myLock}:<32 hex>`
    await page.goto(`./#lesson=reentrancy&step=5&lang=${lang}`);
    await expect(page.getByTestId('lesson-panel')).toHaveAttribute('data-step', '5', { timeout: 30_000 });
    const name = page.getByTestId('ks-key-name').filter({ hasText: 'redisson_unlock_latch' });
    await expect(name).toHaveText(/^redisson_unlock_latch:\{myLock\}:[0-9a-f]{4}…[0-9a-f]{4}$/);
    await expect(name).toHaveAttribute('title', /^redisson_unlock_latch:\{myLock\}:[0-9a-f]{32}$/);
    // two lines at most (it wrapped onto five), broken after a colon, inside the column
    const lines = await name.evaluate((el) => {
      const rects = [...el.getClientRects()];
      return new Set(rects.map((r) => Math.round(r.top))).size;
    });
    expect(lines).toBeLessThanOrEqual(2);
    const inside = await name.evaluate(
      (el) => el.getBoundingClientRect().right <= el.closest('th')!.getBoundingClientRect().right + 1,
    );
    expect(inside).toBe(true);
  });

test('predict mode’s veil label stays on the veil, below the threads’ header, near the right edge too', async ({
  page,
}) => {
  // why-lock 1 on a projector: the cursor at 50 ms of a 90 ms run leaves a narrow veil on the right
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const lang of ['en', 'zh']) {
    await page.goto(`./?present=1#lesson=why-lock&step=1&lang=${lang}`);
    await expect(page.getByTestId('lesson-panel')).toHaveAttribute('data-step', '1', { timeout: 30_000 });
    const veil = page.getByTestId('predict-veil');
    await expect(veil).toBeVisible();
    await page.waitForTimeout(500);
    const label = veil.locator('span');
    if (!(await label.isVisible())) continue; // a veil too narrow for any label
    const [l, v, lane] = await Promise.all([
      label.boundingBox(),
      veil.boundingBox(),
      page.locator('.lane-label--thread').first().boundingBox(),
    ]);
    // on the veil (right of the cursor), and in the first lane rather than on the header band above it
    expect(l!.x).toBeGreaterThanOrEqual(v!.x);
    expect(l!.x + l!.width).toBeLessThanOrEqual(v!.x + v!.width + 1);
    expect(l!.y).toBeGreaterThanOrEqual(lane!.y - 1);
  }
});
