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
