import { expect, test, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import LZString from 'lz-string';

// The liveness kinds on the page: a run they find is Stuck (never Safe), the violation list says
// which kind in both languages, and the timeline draws the amber band. Screenshots for review go
// to test-results/liveness.
const OUT = 'test-results/liveness';

const cl = (id: string, program: unknown[], start = 0) => ({ id, threads: [{ id: 1, start, program }] });
const cases = {
  // L5: A,B / B,A, kept for ever by both watchdogs
  cycle: {
    format: 'lockscope/1',
    title: 'Opposite-order locking',
    until: 5000,
    clients: [
      cl('A', [
        { op: 'lock', lock: 'a' },
        { op: 'work', ms: 100 },
        { op: 'lock', lock: 'b' },
      ]),
      cl('B', [
        { op: 'lock', lock: 'b' },
        { op: 'work', ms: 100 },
        { op: 'lock', lock: 'a' },
      ]),
    ],
  },
  // L3: a thread ends holding a watchdog lock; B keeps waiting for it
  orphan: {
    format: 'lockscope/1',
    title: 'A thread ends holding its lock',
    until: 40_000,
    clients: [
      cl('A', [
        { op: 'lock', lock: 'L' },
        { op: 'work', ms: 100 },
      ]),
      cl('B', [{ op: 'tryLock', lock: 'L', waitMs: 35_000 }], 50),
    ],
  },
};

const kinds: Record<keyof typeof cases, { kind: string; en: RegExp; zh: RegExp }> = {
  cycle: { kind: 'L5', en: /L5 \(liveness\) — wait cycle on/, zh: /L5（活性）— .* 上的等待环/ },
  orphan: {
    kind: 'L3',
    en: /L3 \(liveness\) — L is kept alive for nobody/,
    zh: /L3（活性）— L 在为无人续期/,
  },
};

async function open(page: Page, scenario: unknown) {
  await page.goto(`./#s=${LZString.compressToEncodedURIComponent(JSON.stringify(scenario))}&c=0`);
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 90_000 });
}

for (const lang of ['en', 'zh'] as const)
  for (const name of Object.keys(cases) as (keyof typeof cases)[])
    test(`${name} is Stuck on the page (${lang})`, async ({ page }) => {
      mkdirSync(OUT, { recursive: true });
      await page.setViewportSize({ width: 1440, height: 900 });
      await open(page, cases[name]);
      if (lang === 'zh') await page.getByRole('button', { name: '中文', exact: true }).click();
      await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'stuck');
      await expect(page.getByTestId('verdict')).toHaveText(lang === 'zh' ? '卡死' : 'Stuck');
      const item = page.locator(`.violations__item[data-kind="${kinds[name].kind}"]`);
      await expect(item).toHaveCount(1);
      await expect(item).toHaveText(kinds[name][lang]);
      await item.locator('button').click();
      await page.waitForTimeout(300);
      await page.screenshot({ path: `${OUT}/${name}-${lang}.png` });
    });
