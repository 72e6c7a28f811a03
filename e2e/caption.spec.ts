/**
 * Issue 14 §C/E for a class: presenter mode in the playground, the caption at the cursor, the
 * glossary, and a complete Chinese mode.
 */
import { expect, test, type Page } from '@playwright/test';

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 15_000 });
}

test('presenter mode: header toggle, ?present=1, store flag and <html class="presenter">', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  const html = page.locator('html');
  await expect(html).not.toHaveClass(/presenter/);
  await page.getByTestId('presenter-toggle').click();
  await expect(html).toHaveClass(/presenter/);
  await expect(page.getByTestId('presenter-toggle')).toHaveAttribute('aria-pressed', 'true');
  await expect.poll(() => page.evaluate(() => window.location.search)).toContain('present=1');
  // Larger than the 14 px body text: the header is scaled for the back of the room.
  const zoom = await page.locator('.header').evaluate((el) => getComputedStyle(el).zoom);
  expect(Number(zoom)).toBeGreaterThan(1.2);
  await page.keyboard.press('Escape');
  await expect(html).not.toHaveClass(/presenter/);
  await expect.poll(() => page.evaluate(() => window.location.search)).not.toContain('present=1');

  await page.goto('./?present=1');
  await ready(page);
  await expect(html).toHaveClass(/presenter/);
  await expect(page.getByTestId('presenter-toggle')).toHaveAttribute('aria-pressed', 'true');
});

async function pick(page: Page, id: string) {
  await page.getByTestId('scenario-picker').selectOption(id);
  await expect(page.getByTestId('scenario-picker')).toHaveValue(id);
  await ready(page);
}

test('the caption says what the event at the cursor does, in both languages; terms open the glossary', async ({
  page,
}) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'watchdog-renewal');
  const caption = page.getByTestId('caption-text');
  await page.keyboard.press('Home');
  await expect(caption).toContainText('→');
  // Step until the first watchdog renewal: its caption names the watchdog and links it.
  for (let i = 0; i < 400; i++) {
    if (((await caption.textContent()) ?? '').includes('renewed the lease')) break;
    await page.keyboard.press('ArrowRight');
  }
  await expect(caption).toContainText('renewed the lease of myLock for A:1');
  // The raw event is one click away.
  await page.locator('.caption__raw summary').click();
  await expect(page.locator('.caption__raw')).toContainText('watchdog.renew');
  await caption.locator('[data-term="watchdog"]').click();
  const glossary = page.getByTestId('glossary');
  await expect(glossary).toBeVisible();
  await expect(page.locator('#glossary-watchdog')).toBeFocused();
  await expect(glossary).toContainText('lockWatchdogTimeout / 3');
  await page.keyboard.press('Escape');
  await expect(glossary).toBeHidden();

  await page.getByRole('button', { name: '中文' }).click();
  await expect(caption).toContainText('续期了 myLock 的租期');
  await page.getByTestId('glossary-open').click();
  await expect(glossary).toBeVisible();
  await expect(glossary).toContainText('看门狗（lockWatchdogTimeout）');
  await expect(glossary.getByRole('heading')).toHaveText('术语表');
});
