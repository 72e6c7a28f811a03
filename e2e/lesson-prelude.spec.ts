import { expect, test } from '@playwright/test';

// LA1: the step before an unanswered question on the same run must not answer it a click early.
// expiry step 1 used to show the whole run (the crash, L1, "Stuck") right before step 2 asks
// whether B:1 ever gets the lock.
test('a step leading to an unanswered question hides the future; once answered it does not', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto('./#lesson=expiry&step=1');
  const panel = page.getByTestId('lesson-panel');
  await expect(panel).toHaveAttribute('data-step', '1', { timeout: 15_000 });
  await expect(page.getByTestId('lesson-text')).toBeVisible();
  await expect(page.getByTestId('predict-veil')).toBeVisible();
  await expect(page.getByTestId('verdict')).toBeHidden();
  await expect(page.locator('.violations')).toBeHidden();
  await expect(page.getByTestId('key-moments')).toHaveCount(0);

  await page.keyboard.press('n');
  await expect(panel).toHaveAttribute('data-step', '2');
  await page.getByTestId('lesson-choice').first().click();
  await expect(page.getByTestId('lesson-feedback')).toBeVisible({ timeout: 15_000 });

  await page.keyboard.press('p');
  await expect(panel).toHaveAttribute('data-step', '1');
  await expect(page.getByTestId('predict-veil')).toHaveCount(0);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'stuck');
  expect(errors).toEqual([]);
});
