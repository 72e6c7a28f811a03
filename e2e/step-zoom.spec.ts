import { expect, test, type Page } from '@playwright/test';

// A step's time window (Step.zoom, src/lessons/README.md): a hold too short to see at the whole
// run's zoom opens wide enough to see; a question step opens at it only once answered; the next
// step without one goes back to the whole run.

/** The timeline's axis: its first and last tick, in virtual ms. */
async function axis(page: Page): Promise<[number, number]> {
  const ticks = await page.locator('.timeline__axis .tick text').allTextContents();
  const ms = ticks.map((t) => {
    const m = /([\d.]+)\s*(ms|s)/.exec(t);
    return m === null ? NaN : Number(m[1]) * (m[2] === 's' ? 1000 : 1);
  });
  return [ms[0], ms[ms.length - 1]];
}

async function atStep(page: Page, lesson: string, n: number) {
  const panel = page.getByTestId('lesson-panel');
  await expect(panel).toHaveAttribute('data-lesson', lesson, { timeout: 30_000 });
  await expect(panel).toHaveAttribute('data-step', String(n));
  await expect(page.locator('.run-progress')).toHaveCount(0, { timeout: 30_000 });
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('multilock-redlock 6 opens on B:1’s short hold and A:1’s late write, step 5 on the whole run', async ({
  page,
}) => {
  await page.goto('./#lesson=multilock-redlock&step=6&lang=en');
  await atStep(page, 'multilock-redlock', 6);
  // the window from B:1's acquire (≈ 10.07 s) to A:1's write (12.2 s), not 0–12.3 s
  await expect.poll(async () => (await axis(page))[0], { timeout: 10_000 }).toBeGreaterThanOrEqual(9_900);
  expect((await axis(page))[1]).toBeLessThanOrEqual(12_200);
  await page.keyboard.press('p');
  await atStep(page, 'multilock-redlock', 5);
  await expect.poll(async () => (await axis(page))[0], { timeout: 10_000 }).toBe(0);
});

test('pauses-fencing 2 opens on the expiry and B:1’s hold once answered, not before', async ({ page }) => {
  await page.goto('./#lesson=pauses-fencing&step=2&lang=en');
  await atStep(page, 'pauses-fencing', 2);
  await expect(page.getByTestId('lesson-asking')).toBeVisible();
  await page.waitForTimeout(500);
  // the whole run while the question waits: the window would point at the answer
  expect((await axis(page))[0]).toBe(0);
  await page.locator('[data-testid="lesson-choice"][data-choice="no"]').click();
  await expect(page.getByTestId('lesson-feedback')).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => (await axis(page))[0], { timeout: 10_000 }).toBeGreaterThanOrEqual(29_990);
  expect((await axis(page))[1]).toBeLessThanOrEqual(30_130);
});
