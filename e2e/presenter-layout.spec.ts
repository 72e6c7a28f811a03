import { expect, test, type Locator, type Page } from '@playwright/test';

// LA8: a projector at 1280×720 in presenter mode shows, on one screen and without a page
// scrollbar, the step's text, the lanes it talks about and the panel it cites. The legend wraps.

async function within(page: Page, el: Locator, what: string) {
  await expect(el, what).toBeVisible();
  // inside the window and inside every box that clips it (the timeline's lanes scroll in one);
  // polled like a web-first assertion, should a re-layout start after layoutSettled's wait
  const inside = () => el.evaluate((node) => {
    const r = node.getBoundingClientRect();
    let [top, bottom, left, right] = [0, window.innerHeight, 0, window.innerWidth];
    for (let p = node.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowX === 'visible' && s.overflowY === 'visible') continue;
      const b = p.getBoundingClientRect();
      [top, bottom, left, right] = [
        Math.max(top, b.top),
        Math.min(bottom, b.bottom),
        Math.max(left, b.left),
        Math.min(right, b.right),
      ];
    }
    return r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= left - 1 && r.right <= right + 1;
  });
  await expect.poll(inside, { message: `${what} is on the screen` }).toBe(true);
}

/**
 * Waits out the step's re-layout: highlight-dom.ts lays the marked lanes out again 0, 300 and
 * 800 ms after the step (or its answer) shows. Timed in the page, so a timer set there now fires
 * after those, however late a loaded machine runs them (a wait in the test's own time did not).
 */
async function layoutSettled(page: Page) {
  await page.evaluate(() => new Promise((r) => setTimeout(r, 850)));
}

async function atStep(page: Page, lesson: string, n: number) {
  const panel = page.getByTestId('lesson-panel');
  await expect(panel).toHaveAttribute('data-lesson', lesson, { timeout: 15_000 });
  await expect(panel).toHaveAttribute('data-step', String(n));
  await expect(page.locator('.run-progress')).toHaveCount(0, { timeout: 30_000 });
  // the step's lanes are scrolled into view once its layout has settled: what is checked after
  // this must hold after the last re-layout
  await layoutSettled(page);
}

const STEPS: { lesson: string; step: number; lanes: string[]; panel: string | null; answer?: string }[] = [
  // text, A:1's lane and the keyspace it cites (lock:job)
  { lesson: 'setnx', step: 1, lanes: ['A:1'], panel: 'keyspace' },
  // text and the script whose line 3 it cites
  { lesson: 'lock-script', step: 2, lanes: [], panel: 'script-view' },
  // a cluster: the node lanes it talks about sit below the threads
  { lesson: 'cluster', step: 4, lanes: ['A:1', 'B:1', 'master-3'], panel: null },
  // threads at the top, shard 3 at the bottom, and the keyspace under them: the lane box grows
  { lesson: 'cluster', step: 1, lanes: ['A:1', 'master-3'], panel: 'keyspace' },
  { lesson: 'cluster', step: 5, lanes: ['A:1', 'master-3'], panel: 'keyspace' },
  { lesson: 'cluster', step: 6, lanes: ['B:1', 'master-3', 'replica-3'], panel: null },
  { lesson: 'replication', step: 1, lanes: ['A:1', 'master', 'replica-1', 'replica-2'], panel: 'keyspace' },
  // four marked lanes across three shards, a six-node keyspace and a long cluster legend: the
  // legend folds to a line, the shards the step does not name fold to their header, and the
  // keyspace shows the nodes it names
  { lesson: 'cluster', step: 7, lanes: ['A:1', 'B:1', 'master-3', 'replica-3'], panel: 'keyspace' },
  // after a wrong answer's two feedback paragraphs (2b): A:1's lane, the two masters and their keys
  { lesson: 'crossslot', step: 2, lanes: ['A:1', 'master-1', 'master-3'], panel: 'keyspace', answer: 'nine' },
  { lesson: 'crossslot', step: 3, lanes: ['A:1', 'B:1'], panel: 'keyspace' },
  { lesson: 'crossslot', step: 4, lanes: ['A:1', 'master-3'], panel: 'keyspace' },
  { lesson: 'crossslot', step: 5, lanes: ['A:1', 'master-3'], panel: null },
];

for (const { lesson, step, lanes, panel, answer } of STEPS)
  test(`presenter at 1280×720: ${lesson} step ${step}${answer ? ' answered' : ''} fits one screen`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.goto(`./?present=1#lesson=${lesson}&step=${step}`);
    await atStep(page, lesson, step);
    if (answer !== undefined) {
      await page.locator(`[data-testid="lesson-choice"][data-choice="${answer}"]`).click();
      await expect(page.getByTestId('lesson-feedback')).toBeVisible({ timeout: 30_000 });
      await layoutSettled(page);
    }
    const scroll = await page.evaluate(() => ({
      x: document.documentElement.scrollWidth - document.documentElement.clientWidth,
      y: document.documentElement.scrollHeight - document.documentElement.clientHeight,
    }));
    expect(scroll, 'no page scrollbar').toEqual({ x: 0, y: 0 });
    // an answered question: its feedback first (the step's text follows it in the card's scroll)
    if (answer !== undefined) await within(page, page.getByTestId('lesson-feedback'), 'the feedback');
    else await within(page, page.getByTestId('lesson-text'), 'the step text');
    for (const lane of lanes)
      await within(page, page.locator('.lane-label.lesson-hl', { hasText: lane }).first(), `lane ${lane}`);
    if (panel !== null) await within(page, page.getByTestId(panel), `the ${panel} panel`);
    // the key the step marks, scrolled into the cited keyspace's view (a cluster's sits low)
    if (panel === 'keyspace')
      await within(page, page.locator('.ks__key.lesson-hl').first(), 'the marked key');
    // the legend wraps inside the timeline instead of running past it
    const legend = page.locator('.legend');
    const box = (await legend.boundingBox())!;
    for (const item of await legend.locator('.legend__item').all()) {
      const b = (await item.boundingBox())!;
      expect(b.x + b.width, 'legend item inside the legend').toBeLessThanOrEqual(box.x + box.width + 1);
    }
  });

// A clicker has PageDown and PageUp only: an answered question whose feedback pushes the step's
// text below the card's fold is revealed a screenful at a time before the clicker goes on.
test('presenter at 1280×720: the clicker reveals an answered step text below the fold, then goes on', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?present=1#lesson=waiting-fails&step=5');
  await atStep(page, 'waiting-fails', 5);
  await page.locator('[data-testid="lesson-choice"]').first().click();
  await expect(page.getByTestId('lesson-feedback')).toBeVisible({ timeout: 30_000 });
  await layoutSettled(page);
  const card = page.getByTestId('lesson-panel');
  const hidden = await card.evaluate((el) => el.scrollHeight - el.clientHeight);
  expect(hidden, 'the answered step is longer than the screen (else this test shows nothing)').toBeGreaterThan(8);
  const text = page.getByTestId('lesson-text');
  const below = () => text.evaluate((el) => el.getBoundingClientRect().bottom > window.innerHeight);
  expect(await below(), 'the step text starts below the fold').toBe(true);
  let presses = 0;
  while (await below()) {
    await page.keyboard.press('PageDown');
    presses++;
    expect(presses, 'a few screenfuls at most').toBeLessThan(6);
  }
  await expect(card).toHaveAttribute('data-step', '5');
  await page.keyboard.press('PageDown');
  await expect(card).toHaveAttribute('data-step', '6');
  // the next step starts at the top of its card
  expect(await card.evaluate((el) => el.scrollTop)).toBe(0);
  // PageUp goes back a step when the card is at its top
  await page.keyboard.press('PageUp');
  await expect(card).toHaveAttribute('data-step', '5');
});

// A step that cites what a key holds: lock-family 3's text reads `mode = read` and a count per
// reader off `rw`, whose fields sat below the keyspace box's fold when only the key's row was
// scrolled into view.
test('presenter at 1280×720: a cited key’s fields are in the keyspace’s view, not only its row', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?present=1#lesson=lock-family&step=3');
  await atStep(page, 'lock-family', 3);
  const key = page.locator('[data-testid="keyspace"] .ks__key.lesson-hl[data-key="rw"]');
  await within(page, key, 'the marked key rw');
  // rw's value rows: every row after the key up to the next key
  const fields = await key.evaluate((row) => {
    const texts: string[] = [];
    for (let r = row.nextElementSibling; r && !r.classList.contains('ks__key'); r = r.nextElementSibling) {
      r.setAttribute('data-rw-value', String(texts.length));
      texts.push(r.textContent ?? '');
    }
    return texts;
  });
  expect(fields.join(' '), 'rw holds the mode and the two readers').toContain('mode');
  expect(fields.length).toBe(3);
  for (let i = 0; i < fields.length; i++)
    await within(page, page.locator(`[data-rw-value="${i}"]`), `rw's row "${fields[i]}"`);
});

// A folded shard's label in Chinese: its punctuation is Chinese too (分片 1：master-1).
test('presenter at 1280×720 in Chinese: a folded shard reads 分片 n：its nodes', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?present=1#lesson=cluster&step=1&lang=zh');
  await atStep(page, 'cluster', 1);
  await expect(page.locator('.lane-label--folded')).toHaveText(['▸ 分片 1：master-1', '▸ 分片 2：master-2']);
});

// Presenter mode hides the header, and its verdict with it, yet steps talk about the verdict: the
// lesson card shows it beside the step count, hidden like the header's while a question waits.
test('presenter at 1280×720: the verdict beside the step count, hidden while a question waits', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?present=1#lesson=crossslot&step=3');
  await atStep(page, 'crossslot', 3);
  const verdict = page.getByTestId('lesson-verdict');
  await expect(verdict).toBeVisible();
  await expect(verdict).toHaveAttribute('data-verdict', 'safe');
  await within(page, verdict, 'the verdict');
  await page.goto('./?present=1#lesson=crossslot&step=2');
  await atStep(page, 'crossslot', 2);
  await expect(verdict).toBeHidden();
  await page.locator('[data-testid="lesson-choice"]').first().click();
  await expect(page.getByTestId('lesson-feedback')).toBeVisible({ timeout: 30_000 });
  await expect(verdict).toBeVisible();
});

test('the lesson card shows no second verdict outside presenter mode', async ({ page }) => {
  await page.goto('./#lesson=crossslot&step=3');
  await atStep(page, 'crossslot', 3);
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('lesson-verdict')).toBeHidden();
});
