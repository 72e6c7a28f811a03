import { expect, test, type Page } from '@playwright/test';

// Screens of each main view in both languages, for review (.tmp/) and the README (docs/screenshots/).

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 60_000 });
}

for (const lang of ['en', 'zh'] as const) {
  test(`screenshots (${lang})`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width: 1440, height: 1000 });
    await page.goto('./');
    await ready(page);
    if (lang === 'zh') await page.getByRole('button', { name: '中文' }).click();
    await page.getByTestId('scenario-picker').selectOption('gc-pause-lease-expiry');
    await ready(page);
    await page.locator('.violations__jump').first().click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: `.tmp/playground-${lang}.png`, fullPage: true });
    if (lang === 'en') await page.screenshot({ path: 'docs/screenshots/playground.png' });

    await page.getByTestId('scenario-picker').selectOption('contention-wakeup');
    await ready(page);
    await page.keyboard.press('Home');
    for (let i = 0; i < 12; i++) await page.keyboard.press('Shift+ArrowRight');
    await page.waitForTimeout(300);
    await page.screenshot({ path: `.tmp/contention-${lang}.png`, fullPage: true });

    await page.getByTestId('scenario-picker').selectOption('naive-get-del-race');
    await ready(page);
    await page.getByRole('button', { name: lang === 'zh' ? '编辑 JSON' : 'Edit JSON' }).click();
    await expect(page.locator('.json-editor')).toBeVisible();
    await page.screenshot({ path: `.tmp/editor-${lang}.png`, fullPage: true });

    await page.goto('./?embed=1');
    await ready(page);
    await page.screenshot({ path: `.tmp/embed-${lang}.png` });

    await page.goto('./#s=broken');
    await ready(page);
    await page.screenshot({ path: `.tmp/error-${lang}.png` });
  });
}

test('screenshot: contention-100', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.goto('./');
  await ready(page);
  await page.getByTestId('scenario-picker').selectOption('contention-100');
  await expect(page.locator('.transport__event')).toContainText(/\/\d{5,}/, { timeout: 90_000 });
  await page.keyboard.press('End');
  await page.waitForTimeout(300);
  await page.screenshot({ path: `.tmp/contention100.png` });
});
