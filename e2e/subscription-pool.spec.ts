import { expect, test } from '@playwright/test';

// The pub/sub pool on the timeline: W:2 waits for W's only pub/sub slot and gives up (3.27.2,
// pool 1 × 1); the legend names the strip and the tick in both languages.
const lock = (name: string) => ({ op: 'lock', lock: name });
const unlock = (name: string) => ({ op: 'unlock', lock: name });
const scenario = {
  format: 'lockscope/1',
  title: 'Pub/sub pool exhausted',
  redisson: { version: '3.27.2', subscriptionConnectionPoolSize: 1, subscriptionsPerConnection: 1 },
  clients: [
    {
      id: 'H',
      threads: [
        { id: 1, program: [lock('L1'), lock('L2'), { op: 'work', ms: 9000 }, unlock('L1'), unlock('L2')] },
      ],
    },
    {
      id: 'W',
      threads: [
        { id: 1, start: 100, program: [lock('L1'), unlock('L1')] },
        { id: 2, start: 300, program: [lock('L2'), unlock('L2')] },
      ],
    },
  ],
};

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
