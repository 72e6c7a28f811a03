import { expect, test } from '@playwright/test';

// The "checked against the real client" line of a built-in's intro (src/ui/oracle_checks.ts),
// in both languages; the unit test proves it matches the recordings.
test('basic-lock says it was checked against Redisson and redis-server, in en and zh', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('./');
  await page.getByTestId('scenario-picker').selectOption('basic-lock');
  const line = page.getByTestId('oracle-checked').first();
  await expect(line).toContainText('Checked against Redisson 4.7.0');
  await expect(line).toContainText('redis-server 7.0.15');
  await page.screenshot({ path: 'test-results/oracle-checked-en.png' });
  await page.getByRole('button', { name: '中文', exact: true }).click();
  await expect(page.getByTestId('oracle-checked').first()).toContainText('已用真实的 Redisson 4.7.0');
  await page.screenshot({ path: 'test-results/oracle-checked-zh.png' });
});
