import { expect, test } from '@playwright/test';

test('the built page loads', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto('./');
  await expect(page.getByRole('heading', { name: 'LockScope' })).toBeVisible();
  expect(errors).toEqual([]);
});
