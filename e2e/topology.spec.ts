import { expect, test, type Page } from '@playwright/test';

// The topology view follows the timeline's cursor: roles switch at the failover, a partition
// draws cuts, messages sit on the links, and a node's menu adds a fault like the lane menu.

async function ready(page: Page) {
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 30_000 });
}

async function pick(page: Page, id: string) {
  await page.getByTestId('scenario-picker').selectOption(id);
  await expect(page.getByTestId('scenario-picker')).toHaveValue(id);
  await ready(page);
}

/** Moves the cursor to event `index`. */
async function cursorTo(page: Page, index: number) {
  await page.keyboard.press('Home');
  for (let i = 0; i <= index; i++) await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('topology')).toHaveAttribute('data-index', String(index));
}

/**
 * Steps forward to the next event of `kind` and returns its index. Event indices depend on
 * whether the page ran the scenario verbose, so tests find events by kind.
 */
async function stepTo(page: Page, kind: string): Promise<number> {
  const view = page.getByTestId('topology');
  for (let i = 0; i < 400; i++) {
    await page.keyboard.press('ArrowRight');
    if ((await view.getAttribute('data-event')) === kind)
      return Number(await view.getAttribute('data-index'));
  }
  throw new Error(`no ${kind} event`);
}

const node = (page: Page, id: string) =>
  page.locator(`[data-testid="topology"] [data-testid="topo-node"][data-id="${id}"]`);

test('failover: the promoted replica is drawn as master after the switch, not before', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await ready(page);
  await pick(page, 'failover-lost-lock');
  await page.getByTestId('view-both').click();
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.getByTestId('topology')).toBeVisible();
  // Side by side at 1440: the topology to the right of the timeline.
  const tl = await page.getByTestId('timeline').boundingBox();
  const tp = await page.getByTestId('topology').boundingBox();
  expect(tp!.x).toBeGreaterThan(tl!.x + tl!.width - 1);

  await page.keyboard.press('Home');
  await expect(node(page, 'replica-1')).toHaveAttribute('data-role', 'replica');
  await expect(node(page, 'master')).toHaveAttribute('data-up', 'true');
  await stepTo(page, 'node.crash');
  await expect(node(page, 'master')).toHaveAttribute('data-up', 'false');
  const leader = await stepTo(page, 'sentinel.leader');
  await expect(node(page, 'replica-1')).toHaveAttribute('data-role', 'replica');
  // the REPLICAOF NO ONE on its way from the leader
  await expect(
    page.locator('[data-testid="topology"] [data-testid="topo-msg"][data-kind="replicaof"]'),
  ).toHaveCount(1);
  const role = await stepTo(page, 'node.role');
  expect(role).toBe(leader + 1);
  await expect(node(page, 'replica-1')).toHaveAttribute('data-role', 'master');
  await page.screenshot({ path: '.tmp/topology-failover-en.png' });
  // Stepping back undoes it: the view is a function of the cursor.
  await page.keyboard.press('ArrowLeft');
  await expect(node(page, 'replica-1')).toHaveAttribute('data-role', 'replica');
  expect(errors).toEqual([]);
});

test('a command and its reply travel along the link', async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.getByTestId('view-topology').click();
  await expect(page.getByTestId('timeline')).toHaveCount(0);
  // A:1's lock.request: its EVAL is on the wire to master; at the cmd, its reply goes back.
  await page.keyboard.press('Home');
  await stepTo(page, 'lock.request');
  const msgs = page.locator('[data-testid="topo-msg"]');
  await expect(msgs).toHaveCount(1);
  await expect(msgs.first()).toHaveAttribute('data-kind', 'cmd');
  await expect(msgs.first()).toHaveAttribute('data-to', 'master');
  await stepTo(page, 'cmd');
  await expect(msgs.first()).toHaveAttribute('data-kind', 'reply');
  await expect(msgs.first()).toHaveAttribute('data-to', 'A');
});

test('a partition draws a cut between the groups', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./');
  await ready(page);
  await pick(page, 'split-brain-partition');
  await page.getByTestId('view-both').click();
  const cuts = page.locator('[data-testid="topology"] [data-testid="topo-cut"]');
  await page.keyboard.press('Home');
  await expect(cuts).toHaveCount(0);
  await stepTo(page, 'net.partition');
  expect(await cuts.count()).toBeGreaterThan(0);
  await expect(page.getByTestId('topo-partition')).toContainText('master, A');
  await page.screenshot({ path: '.tmp/topology-partition-en.png' });
  await page.keyboard.press('End');
  await expect(cuts).toHaveCount(0);
});

test("a node's menu adds a fault at the cursor, keyboard only", async ({ page }) => {
  await page.goto('./');
  await ready(page);
  await pick(page, 'basic-lock');
  await page.getByTestId('view-topology').click();
  await cursorTo(page, 3);
  const master = node(page, 'master');
  await master.focus();
  await page.keyboard.press('Enter');
  const menu = page.getByTestId('topo-menu');
  await expect(menu).toBeVisible();
  await expect(menu.getByRole('menuitem').first()).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(menu).toHaveCount(0);
  // the crash is now in the scenario: the picker says "modified" and the node is down at the cursor
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  await expect(master).toHaveAttribute('data-up', 'false');
  // and the client menu offers the client's faults
  await node(page, 'master').press('Escape');
  await page.locator('[data-testid="topology"] [data-testid="topo-client"][data-id="A"]').click();
  await expect(page.getByTestId('topo-menu').getByRole('menuitem')).toHaveCount(3);
});

for (const lang of ['en', 'zh'] as const)
  for (const [w, h] of [
    [1440, 900],
    [390, 844],
  ] as const)
    test(`screenshots: topology beside the timeline, ${lang} ${w}x${h}`, async ({ page }) => {
      await page.setViewportSize({ width: w, height: h });
      await page.goto('./');
      await ready(page);
      if (lang === 'zh') await page.getByRole('button', { name: '中文' }).click();
      await pick(page, 'split-brain-partition');
      await page.getByTestId('view-both').click();
      await page.keyboard.press('Home');
      await stepTo(page, 'client.master');
      await expect(page.getByTestId('topology')).toBeVisible();
      // no sideways scroll on a phone
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(w);
      await page.screenshot({ path: `.tmp/topology-${lang}-${w}.png` });
      await page.locator('.topo-panel').screenshot({ path: `.tmp/topology-panel-${lang}-${w}.png` });
    });
