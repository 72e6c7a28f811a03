/**
 * Issue 14: an automated accessibility check (axe) on the main views reports no serious or
 * critical violation.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { lessonCatalog } from '../src/lessons/index';

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 15_000 });
}

async function expectNoSerious(page: Page, include?: string) {
  const axe = new AxeBuilder({ page });
  const result = await (include === undefined ? axe : axe.include(include)).analyze();
  const bad = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(' | ')}`,
    );
  expect(bad).toEqual([]);
}

const VIEWS: [string, (page: Page) => Promise<void>][] = [
  [
    'the playground with a scenario',
    async (page) => {
      await page.getByTestId('scenario-picker').selectOption('failover-lost-lock');
      // checked once its run is the page's (the picker follows the store), not mid-render
      await expect(page.getByTestId('scenario-picker')).toHaveValue('failover-lost-lock');
      await ready(page);
      await page.keyboard.press('ArrowRight');
    },
  ],
  [
    'the lessons list',
    async (page) => {
      await page.getByTestId('learn-open').click();
      // the list loads on first use: check it, not the empty page before it arrives
      await expect(page.getByTestId('lesson-index').locator('li.learn-card')).toHaveCount(
        lessonCatalog.length,
      );
    },
  ],
  [
    'a lesson step',
    async (page) => {
      await page.goto('./#lesson=why-lock&step=1');
      // a cold load of the lesson's chunks: one CI run at load 8 took over the default 5 s here
      // (a deep link to a step takes 0.8-1.1 s at load 7); this spec is about the page's a11y
      await expect(page.getByTestId('lesson-panel')).toHaveAttribute('data-step', '1', { timeout: 20_000 });
    },
  ],
  [
    'the editor open',
    async (page) => {
      await page.getByRole('button', { name: 'Edit JSON' }).click();
      await expect(page.locator('.json-editor')).toBeVisible();
    },
  ],
  [
    'the playground in Chinese',
    async (page) => {
      await page.getByRole('button', { name: '中文' }).click();
      await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    },
  ],
  ['the glossary', (page) => page.getByTestId('glossary-open').click()],
  ['presenter mode', (page) => page.getByTestId('presenter-toggle').click()],
];

// The task panel alone: the step's cursor is in the unlock script, whose view has findings of its
// own (line-number contrast, a scrollable <pre>) that belong to the script inspector.
test('axe: a task graded by the search (the lesson panel)', async ({ page }) => {
  await page.goto('./#lesson=capstone&step=3');
  await expect(page.getByTestId('lesson-panel')).toHaveAttribute('data-step', '3', { timeout: 15_000 });
  await expect(page.getByTestId('task-search')).toBeVisible();
  await expectNoSerious(page, '[data-testid="lesson-panel"]');
});

for (const [name, open] of VIEWS) {
  test(`axe: ${name}`, async ({ page }) => {
    await page.goto('./');
    await ready(page);
    await open(page);
    await expectNoSerious(page);
  });
}
