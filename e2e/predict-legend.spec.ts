import { expect, test } from '@playwright/test';

// LA1: a question step's legend lists only the marks drawn up to the cursor. partition-liveness
// step 4 asks when B:1 gets the lock; its legend used to list the wake-up mark (the answer: at
// 4.4 s, by the unlock message TCP held through the partition) before the learner had answered.
test('a question step’s legend does not announce the marks the veil hides; once answered it does', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('./#lesson=partition-liveness&step=4');
  const panel = page.getByTestId('lesson-panel');
  await expect(panel).toHaveAttribute('data-step', '4', { timeout: 30_000 });
  await expect(page.getByTestId('lesson-asking')).toBeVisible();
  await expect(page.getByTestId('predict-veil')).toBeVisible();
  const legend = page.getByTestId('legend');
  await expect(legend.locator('[data-legend="legend.partition"]')).toHaveCount(1);
  await expect(legend.locator('[data-legend="legend.wakeMsg"]')).toHaveCount(0);

  await page.getByTestId('lesson-choice').first().click();
  await expect(page.getByTestId('lesson-feedback')).toBeVisible({ timeout: 30_000 });
  await expect(legend.locator('[data-legend="legend.wakeMsg"]')).toHaveCount(1);
  expect(errors).toEqual([]);
});
