import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

// Every built-in at its key moment, en and zh, desktop and phone, for review by eye (issue 14).
// Run with SHOTS=1: `SHOTS=1 npx playwright test e2e/timeline-shots.spec.ts`.
const OUT = '/tmp/shots-ui-timeline';

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 60_000 });
}

const VIEWPORTS = [
  { name: 'desk', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

for (const vp of VIEWPORTS)
  for (const lang of ['en', 'zh'] as const)
    test(`shots ${vp.name} ${lang}`, async ({ page }) => {
      test.skip(!process.env.SHOTS, 'set SHOTS=1 to take the review screenshots');
      test.setTimeout(600_000);
      mkdirSync(OUT, { recursive: true });
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto('./');
      await ready(page);
      if (lang === 'zh') await page.getByRole('button', { name: '中文' }).click();
      // the real incidents join the picker once the first screen is idle (controller.ts ensureIncidents)
      await expect(
        page.locator('[data-testid="scenario-picker"] option[value^="incident-"]').first(),
      ).toBeAttached();
      const ids = await page
        .getByTestId('scenario-picker')
        .locator('option')
        .evaluateAll((os) =>
          os.map((o) => (o as HTMLOptionElement).value).filter((v) => v && v !== 'contention-100'),
        );
      const only = process.env.SHOTS_FROM;
      for (const id of only ? ids.slice(ids.indexOf(only)) : ids) {
        await page.getByTestId('scenario-picker').selectOption(id);
        await ready(page);
        // the key moment: the first violation's chip, else the middle chip
        const chips = page.locator('.moments__chip');
        const n = await chips.count();
        const v = page.locator('.moments__chip--violation');
        // a chip re-rendered under the pointer is skipped, not waited for
        const click = { timeout: 5000 };
        if ((await v.count()) > 0)
          await v
            .first()
            .click(click)
            .catch(() => undefined);
        else if (n > 0)
          await chips
            .nth(Math.floor(n / 2))
            .click(click)
            .catch(() => undefined);
        await page.waitForTimeout(250);
        await page.screenshot({ path: `${OUT}/${vp.name}-${lang}-${id}.png`, fullPage: vp.name === 'phone' });
      }
    });
