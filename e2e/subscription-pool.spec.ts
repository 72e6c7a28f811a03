import { expect, test } from '@playwright/test';
import { poolOfOne as scenario } from '../src/ui/fixtures/subscription-pool';

// The pub/sub pool on the timeline: W:2 waits for W's only pub/sub slot and gives up (3.27.2,
// pool 1 × 1); the legend names the strip and the tick in both languages.

test('an exhausted pub/sub pool: the wait and the give-up are drawn and named, EN and 中文', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`./#json=${encodeURIComponent(JSON.stringify(scenario))}`);
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 60_000 });
  await expect(page.locator('[data-legend="legend.subWait"]')).toContainText('waiting for a pub/sub slot');
  await expect(page.locator('[data-legend="legend.subTimeout"]')).toBeVisible();
  await page.screenshot({ path: '/tmp/subs-shot-en.png' });
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.locator('[data-legend="legend.subWait"]')).toContainText('等待 pub/sub 槽位');
  await page.screenshot({ path: '/tmp/subs-shot-zh.png' });
});
