import { expect, test } from '@playwright/test';

// Screens of each main view in both languages, for review (.tmp/) and the README (docs/screenshots/).
for (const lang of ['en', 'zh'] as const) {
  test(`screenshots (${lang})`, async ({ page }) => {
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto('./');
    await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none');
    if (lang === 'zh') await page.getByRole('button', { name: '中文' }).click();
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.keyboard.press('Shift+ArrowLeft');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `.tmp/playground-${lang}.png`, fullPage: true });
    await page.getByTestId('timeline').screenshot({ path: `.tmp/timeline-${lang}.png` });
  });
}
