import { expect, test } from '@playwright/test';

// The scenario panel's Redisson release picker: choosing a release rewrites `redisson.version`
// and lists what that release does (src/engine/redisson/versions.ts traitsFor).
test('picking Redisson 3.27.2 shows its traits, 3.11.6 shows the older ones', async ({ page }) => {
  await page.goto('./');
  const picker = page.getByLabel('Redisson version');
  await expect(picker).toBeVisible();
  await picker.selectOption('3.27.2');
  await expect(picker).toHaveValue('3.27.2');
  const traits = page.locator('.redisson-version__traits');
  await traits.locator('summary').click();
  await expect(traits.locator('summary')).toHaveText('What Redisson 3.27.2 does');
  const wait = traits.locator('[data-trait="wait-after-scripts"]');
  await expect(wait.locator('dt')).toHaveText('WAIT after lock scripts');
  await expect(wait.locator('dd')).toHaveText('yes');
  await expect(traits.locator('[data-trait="multilock-unlock"] dd')).toHaveText(
    'one by one, stops at the first failure',
  );

  await picker.selectOption('3.11.6');
  await expect(page.locator('[data-trait="wait-after-scripts"] dd')).toHaveText('no');
});
