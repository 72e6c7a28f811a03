import { expect, test, type Page } from '@playwright/test';

// The Real incidents gallery from the page: the picker's search finds incidents by the symptom a
// user would type, in English or 中文; an incident shows its card (thread, release, symptom,
// cause) and runs its pair on the fixed release, whose card leads back.

const search = (page: Page) => page.getByTestId('scenario-search');
const results = (page: Page) => page.getByTestId('scenario-search-results');
const hit = (page: Page, id: string) => results(page).locator(`button[data-id="${id}"]`);

test('typing a symptom lists the incidents that show it, in both languages', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await search(page).fill('IllegalMonitorStateException');
  await expect(hit(page, 'incident-lease-shorter-than-work')).toBeVisible();
  await expect(hit(page, 'incident-resent-unlock-imse')).toBeVisible();
  await expect(hit(page, 'incident-unlock-from-another-thread')).toBeVisible();
  // incidents first: the first match is an incident
  await expect(results(page).locator('button').first()).toHaveAttribute('data-id', /^incident-/);
  await page.screenshot({ path: 'test-results/incidents-search-en.png' });

  await search(page).fill('watchdog');
  await expect(hit(page, 'incident-thread-ends-holding')).toBeVisible();
  await expect(hit(page, 'incident-failover-stops-renewal')).toBeVisible();

  // a click elsewhere closes the list; focus on the box brings it back
  await page.locator('.intro__title').click();
  await expect(results(page)).toHaveCount(0);
  await page.getByRole('button', { name: '中文', exact: true }).click();
  await search(page).fill('卡住');
  await expect(hit(page, 'incident-fairlock-dead-waiter')).toBeVisible();
  await expect(hit(page, 'incident-opposite-order-deadlock')).toBeVisible();
  await expect(results(page)).toContainText('找到');
  await page.screenshot({ path: 'test-results/incidents-search-zh.png' });

  await search(page).fill('no such symptom anywhere');
  await expect(results(page).locator('button')).toHaveCount(0);
  await search(page).press('Escape');
  await expect(results(page)).toHaveCount(0);
});

test('an incident shows its card and runs its pair on the fixed release', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await search(page).fill('re-sent unlock');
  await hit(page, 'incident-resent-unlock-imse').click();
  await expect(page.locator('.intro__title')).toHaveText('The owner’s unlock throws IMSE: a re-sent unlock', {
    timeout: 60_000,
  });
  const card = page.getByTestId('incident-card');
  await expect(card.getByTestId('incident-release')).toHaveText('Reported on Redisson 3.23.1');
  await expect(card.getByTestId('incident-link').first()).toHaveAttribute(
    'href',
    'https://github.com/redisson/redisson/issues/4871',
  );
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'safe', { timeout: 60_000 });
  await page.screenshot({ path: 'test-results/incidents-card-en.png' });

  await card.getByTestId('incident-pair').click();
  await expect(page.locator('.intro__title')).toHaveText(
    'Fixed in 3.24.1: the unlock latch remembers the answer',
    {
      timeout: 60_000,
    },
  );
  await expect(page.getByTestId('incident-pair')).toHaveText('Back to the incident (3.23.1)');

  await page.getByRole('button', { name: '中文', exact: true }).click();
  await page.getByTestId('scenario-picker').selectOption('incident-thread-ends-holding');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'stuck', { timeout: 60_000 });
  await expect(page.getByTestId('incident-card')).toContainText('用户看到');
  await page.screenshot({ path: 'test-results/incidents-card-zh.png' });
});

test('the production lesson leads to the gallery', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 60_000 });
  await page.getByTestId('learn-open').click();
  const card = page.getByTestId('lesson-index').locator('[data-lesson="production"]');
  await expect(card).toContainText('What goes wrong in production');
  await card.click();
  await expect(page.getByTestId('lesson-text')).toContainText('#2468');
});
