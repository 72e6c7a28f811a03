import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { builtins } from '../src/engine/scenario/builtins';

// Every built-in at its first key moment (its violation when it has one), en and zh, at
// 1440×900 and on a 390×844 phone, for review by eye (issue 14). Slow, so only with SHOTS=1:
// `npx vite build && CI=true SHOTS=1 npx playwright test e2e/builtin-shots.spec.ts`.
// SHOTS_ONLY=id1,id2 limits the run. Next to the PNGs, overflow.json lists each page's sideways
// overflow so a phone layout that scrolls sideways shows up without opening every picture.
const OUT = 'test-results/builtin-shots';

const VIEWPORTS = [
  { name: 'desk', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
] as const;

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 90_000 });
}

const only = process.env.SHOTS_ONLY?.split(',');
const list = builtins.filter((b) => !only || only.includes(b.id));

for (const vp of VIEWPORTS)
  for (const lang of ['en', 'zh'] as const)
    test(`builtin shots ${vp.name} ${lang}`, async ({ page }) => {
      test.skip(!process.env.SHOTS, 'set SHOTS=1 to take the review screenshots');
      test.setTimeout(list.length * 60_000);
      mkdirSync(OUT, { recursive: true });
      await page.setViewportSize({ width: vp.width, height: vp.height });
      await page.goto('./');
      await ready(page);
      if (lang === 'zh') await page.getByRole('button', { name: '中文', exact: true }).click();
      const overflow: Record<string, number> = {};
      for (const { id, title, titleZh } of list) {
        await page.getByTestId('scenario-picker').selectOption(id);
        // the verdict of the scenario before stays up until the new run is judged
        await expect(page.locator('.intro__title')).toHaveText(lang === 'zh' ? titleZh : title, {
          timeout: 120_000,
        });
        await expect(page.locator('.run-progress')).toHaveCount(0, { timeout: 120_000 });
        await ready(page);
        const violation = page.locator('.moments__chip--violation');
        const chip =
          (await violation.count()) > 0 ? violation.first() : page.locator('.moments__chip').first();
        // a chip re-rendered under the pointer misses the click: click until it is the current one
        if ((await chip.count()) > 0)
          await expect(async () => {
            await chip.click({ timeout: 2000 });
            await expect(chip).toHaveClass(/is-current/, { timeout: 1000 });
          }).toPass({ timeout: 15_000 });
        await page.waitForTimeout(300);
        overflow[id] = await page.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        await page.screenshot({ path: `${OUT}/${vp.name}-${lang}-${id}.png`, fullPage: vp.name === 'phone' });
      }
      writeFileSync(`${OUT}/overflow-${vp.name}-${lang}.json`, JSON.stringify(overflow, null, 1));
    });
