import { expect, test, type Page } from '@playwright/test';
import { clock, clockIn } from './clock';
import { trackErrors } from './track-errors';
import { lessonCatalog } from '../src/lessons/index';

// The lesson player, driven as a learner would: links, Next/Back by button and key, a question,
// a task solved in the JSON editor, a language switch mid-lesson, presenter and embed modes.

const panel = (page: Page) => page.getByTestId('lesson-panel');

async function atStep(page: Page, n: number) {
  await expect(panel(page)).toHaveAttribute('data-step', String(n), { timeout: 15_000 });
  await expect(page).toHaveURL(new RegExp(`#lesson=[a-z-]+&step=${n}$`));
}

test('a lesson link opens at its step; Next/Back by button and key; a question; a task', async ({ page }) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#lesson=lease-too-short&step=3');
  await atStep(page, 3);
  await expect(page.getByTestId('lesson-text')).toContainText('DEL lock:job');
  // The step's cursor: A:1's DEL at 14 s.
  await expect(page.getByTestId('clock')).toHaveText(/^14[,.]?00\d$/);

  await page.getByTestId('lesson-next').click();
  await atStep(page, 4);
  // The last step leads on to the next lesson (LA10).
  await expect(page.getByTestId('lesson-next')).toContainText('Next lesson');
  await page.keyboard.press('p');
  await atStep(page, 3);
  await page.keyboard.press('PageUp');
  await atStep(page, 2);

  // Step 2 asks before it plays: the text and the feedback come after the answer.
  await expect(page.getByTestId('lesson-question')).toBeVisible();
  await expect(page.getByTestId('lesson-text')).toHaveCount(0);
  await expect(page.getByTestId('lesson-choice')).toHaveCount(3);
  await page.locator('[data-testid="lesson-choice"][data-choice="expiry"]').click();
  await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-right', 'true');
  await expect(page.getByTestId('lesson-text')).toContainText('key.expired');
  await expect(page.getByTestId('lesson-choice').first()).toBeDisabled();

  // The transport's keys still move the cursor inside a lesson.
  const event = page.locator('.transport__event');
  const before = await event.textContent();
  await page.keyboard.press('ArrowRight');
  await expect(event).not.toHaveText(before ?? '');

  await page.keyboard.press('n');
  await page.keyboard.press('PageDown');
  await atStep(page, 4);

  // The task: A:1's lease must cover its 14 s of work. Done in the JSON editor.
  await expect(page.getByTestId('lesson-task-done')).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit JSON' }).click();
  const editor = page.locator('.json-editor__content');
  // The editor fills its lines in an effect after it mounts: look for the lease once it is in.
  await expect(editor).toContainText('"leaseMs": 10000');
  // As a learner would: double-click A:1's lease (its line comes first) and type a longer one.
  const box = await editor.evaluate((root) => {
    const line = [...root.querySelectorAll('.json-editor__line')].find((l) =>
      l.textContent?.includes('"leaseMs": 10000'),
    );
    // scrolled into view first, as a learner would (a point below the window hits nothing)
    line!.scrollIntoView({ block: 'center' });
    const walker = document.createTreeWalker(line!, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const i = n.textContent!.indexOf('10000');
      if (i < 0) continue;
      const r = document.createRange();
      r.setStart(n, i);
      r.setEnd(n, i + 5);
      const b = r.getBoundingClientRect();
      return { x: b.x + b.width / 2, y: b.y + b.height / 2 };
    }
    return null;
  });
  expect(box).not.toBeNull();
  await page.mouse.dblclick(box!.x, box!.y);
  await page.keyboard.type('20000');
  await expect(editor).toContainText('"leaseMs": 20000');
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('lesson-task-done')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('lesson-task-done')).toContainText('14 s');

  // Switch language mid-lesson: same step, the text in Chinese.
  await page.getByRole('button', { name: '中文' }).click();
  await atStep(page, 4);
  await expect(panel(page)).toContainText('第 4 步');
  await expect(page.getByTestId('lesson-task-done')).toContainText('14 秒');
  await page.getByRole('button', { name: 'EN', exact: true }).click();

  // Progress is kept: the index shows this lesson as done.
  await page.getByTestId('learn-open').click();
  await expect(page.getByTestId('lesson-index')).toBeVisible();
  await expect(page.locator('[data-lesson="lease-too-short"]')).toContainText('done');
  expect(errors).toEqual([]);
});

test('the index opens a lesson; a pasted link loads in the open tab; open in playground forks', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await page.goto('./');
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 15_000 });
  await page.getByTestId('learn-open').click();
  const index = page.getByTestId('lesson-index');
  await expect(index.locator('li.learn-card')).toHaveCount(lessonCatalog.length);
  await expect(index.locator('li.learn-card').last().locator('[data-lesson]')).toHaveAttribute(
    'data-lesson',
    'choosing-a-lock',
  );
  await index.locator('[data-lesson="why-lock"]').click();
  await atStep(page, 1);
  await expect(page.getByTestId('lesson-text')).toBeVisible();

  await page.evaluate(() => {
    window.location.hash = '#lesson=waiting&step=2';
  });
  await atStep(page, 2);
  await expect(panel(page)).toHaveAttribute('data-lesson', 'waiting');
  await expect(page.getByTestId('lesson-where')).toContainText('latch.tryAcquire');

  await page.getByTestId('lesson-fork').click();
  await expect(panel(page)).toHaveCount(0);
  await expect(page.getByTestId('scenario-picker')).toHaveValue('');
  await expect(page.locator('.intro__title')).toContainText('Modified from the lesson');
  await expect(page).toHaveURL(/#s=/);
  expect(errors).toEqual([]);
});

test('presenter mode: the step as a slide, keyboard only', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./?present=1#lesson=why-lock&step=1');
  await atStep(page, 1);
  await expect(page.locator('.header')).toBeHidden();
  await expect(page.locator('.inspectors')).toBeHidden();
  const size = await page
    .getByTestId('lesson-text')
    .evaluate((el) => parseFloat(getComputedStyle(el).fontSize));
  // 18 px on a 1280×720 projector (the step, its lanes and its panel share one screen), 22 px above
  expect(size).toBeGreaterThanOrEqual(18);
  // the clicker's PageDown first shows the rest of a card longer than the screen, then goes on
  for (let i = 0; i < 6 && (await panel(page).getAttribute('data-step')) === '1'; i++) {
    await page.keyboard.press('PageDown');
    await page.waitForTimeout(100);
  }
  await atStep(page, 2);
  await page.keyboard.press('n');
  await atStep(page, 3);
  await page.keyboard.press('PageUp');
  await atStep(page, 2);
  expect(errors).toEqual([]);
});

test('embed mode: the lesson text and the timeline only', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./?embed=1#lesson=why-lock&step=1');
  await atStep(page, 1);
  await expect(page.getByTestId('lesson-text')).toBeVisible();
  await expect(page.getByTestId('timeline')).toBeVisible();
  await expect(page.locator('.header')).toHaveCount(0);
  await expect(page.locator('.editor')).toHaveCount(0);
  await page.getByTestId('lesson-next').click();
  await atStep(page, 2);
  await expect(page.getByTestId('lesson-question')).toBeVisible();
  expect(errors).toEqual([]);
});

test('a link to an unknown lesson says so and leaves the playground usable', async ({ page }) => {
  await page.goto('./#lesson=no-such-lesson&step=2');
  await expect(panel(page)).toContainText('no-such-lesson');
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-verdict', 'none', { timeout: 15_000 });
  await panel(page).getByRole('button', { name: 'Back to the playground' }).click();
  await expect(panel(page)).toHaveCount(0);
  await expect(page).toHaveURL(/#s=/);
});

test('the cluster lesson: shards on the timeline, each key’s slot, the question on where B’s lock goes', async ({
  page,
}) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#lesson=cluster&step=1');
  await atStep(page, 1);
  await expect(page.getByTestId('lesson-text')).toContainText('12769');
  // Lanes grouped by shard, each master labelled with its slots; myLock's slot in the keyspace.
  await expect(page.getByTestId('shard-label')).toHaveText(['shard 1', 'shard 2', 'shard 3']);
  await expect(page.getByTestId('lane-slots')).toHaveText([
    'slots 0–5460',
    'slots 5461–10922',
    'slots 10923–16383',
  ]);
  await expect(page.getByTestId('ks-slot')).toHaveText(['slot 12769']);

  await page.getByTestId('lesson-next').click();
  await atStep(page, 2);
  await expect(page.getByTestId('lesson-choice')).toHaveCount(3);
  await page.locator('[data-testid="lesson-choice"][data-choice="m3"]').click();
  await expect(page.getByTestId('lesson-feedback')).toHaveAttribute('data-right', 'true');

  // The failover step: replica-3 took master-3's slots by the time B:1 locks there.
  await page.goto('./#lesson=cluster&step=7');
  await atStep(page, 7);
  await expect(page.getByTestId('lesson-text')).toContainText('two holders');
  const replica3 = page.locator('.lane-label--node', { hasText: 'replica-3' });
  await expect(replica3.getByTestId('lane-slots')).toHaveText('slots 10923–16383');
  await expect(
    page.locator('.lane-label--node', { hasText: 'master-3' }).getByTestId('lane-slots'),
  ).toHaveCount(0);
  await page.getByRole('button', { name: '中文' }).click();
  await expect(page.getByTestId('lesson-text')).toContainText('两个持有者');
  await expect(page.getByTestId('shard-label').first()).toHaveText('分片 1');
  expect(errors).toEqual([]);
});

// LA1/LA18: a question step is a prediction. Until the learner answers, nothing on screen answers
// it: no future on the timeline, no verdict, no violation rows, no key moments, no intro text, no
// step text; the cursor waits before the deciding event. After the answer the step plays the
// deciding events, then shows the chosen answer's own feedback and the text.

test('a question step shows no verdict and no future before it is answered', async ({ page }) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  // "What is the verdict of this run?" on RedLock with a clock jump: V2 begins at 2201 ms.
  await page.goto('./#lesson=multilock-redlock&step=5');
  const panel = page.getByTestId('lesson-panel');
  await expect(panel).toHaveAttribute('data-step', '5', { timeout: 15_000 });
  await expect(page.getByTestId('lesson-question')).toBeVisible();
  await expect(page.getByTestId('lesson-asking')).toBeVisible();
  await expect(page.getByTestId('predict-veil')).toBeVisible();
  await expect(page.getByTestId('verdict')).toBeHidden();
  await expect(page.locator('.violations')).toBeHidden();
  await expect(page.getByTestId('key-moments')).toHaveCount(0);
  await expect(page.locator('.intro__text')).toBeHidden();
  await expect(page.getByTestId('lesson-text')).toHaveCount(0);
  await expect(page.getByTestId('lesson-feedback')).toHaveCount(0);
  // The cursor waits before B:1 asks (2000 ms), before anything that decides the verdict.
  await expect.poll(() => clockIn(page, 1000, 2201)).toBe('in range');

  // The tempting wrong answer: the step plays the deciding events, then explains this choice.
  await page.locator('[data-testid="lesson-choice"][data-choice="safe"]').click();
  await expect(page.getByTestId('lesson-revealing')).toBeVisible();
  await expect(page.getByTestId('lesson-text')).toHaveCount(0);
  const feedback = page.getByTestId('lesson-feedback');
  await expect(feedback).toHaveAttribute('data-right', 'false', { timeout: 10_000 });
  await expect(page.getByTestId('lesson-why')).toContainText('clock jump');
  await expect(page.getByTestId('lesson-text')).toBeVisible();
  await expect(page.getByTestId('predict-veil')).toHaveCount(0);
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-verdict', 'unsafe');
  await expect(page.locator('.violations')).toBeVisible();
  await expect.poll(() => clock(page)).toBeGreaterThanOrEqual(2201);
  expect(errors).toEqual([]);
});

test('a step link carries predict mode and the language', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./#lesson=watchdog&step=2&p=1&lang=zh');
  const panel = page.getByTestId('lesson-panel');
  await expect(panel).toHaveAttribute('data-step', '2', { timeout: 15_000 });
  // No question on step 2, but the link's p=1 keeps the future hidden; the page is in Chinese.
  await expect(page.getByTestId('predict-veil')).toBeVisible();
  await expect(panel).toContainText('第 2 步');
  await expect(page).toHaveURL(/#lesson=watchdog&step=2&p=1$/);
  await page.keyboard.press('n');
  await expect(panel).toHaveAttribute('data-step', '3');
  await expect(page).toHaveURL(/#lesson=watchdog&step=3&p=1$/);
  await expect(page.getByTestId('predict-veil')).toBeVisible();
  expect(errors).toEqual([]);
});

// LA10, LA19, LA24: the clicker goes on into the next lesson, the course's end says so, a step's
// moment is one click away after playing on, and a built-in opens by its id.
test('Next and PageDown go on to the next lesson; the end of the course says so', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./#lesson=why-lock&step=4');
  await atStep(page, 4);
  await expect(page.getByTestId('lesson-end')).toContainText('Next: “SETNX');
  await expect(page.getByTestId('lesson-next')).toBeEnabled();
  await page.keyboard.press('PageDown');
  await expect(panel(page)).toHaveAttribute('data-lesson', 'setnx');
  await atStep(page, 1);
  // The capstone leads on to the closing lesson, whose last step ends the course.
  await page.evaluate(() => {
    window.location.hash = '#lesson=capstone&step=3';
  });
  await atStep(page, 3);
  await expect(page.getByTestId('lesson-end')).toContainText('Next: “Choosing a lock”');
  await page.keyboard.press('PageDown');
  await expect(panel(page)).toHaveAttribute('data-lesson', 'choosing-a-lock');
  await page.evaluate(() => {
    window.location.hash = '#lesson=choosing-a-lock&step=7';
  });
  await atStep(page, 7);
  await expect(page.getByTestId('lesson-end')).toContainText('the course is complete');
  await expect(page.getByTestId('lesson-next')).toBeDisabled();
  await page.keyboard.press('PageDown');
  await atStep(page, 7);
  expect(errors).toEqual([]);
});

test('after playing on, "back to this step’s moment" returns the cursor to the step', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./#lesson=lease-too-short&step=3');
  await atStep(page, 3);
  await expect(page.getByTestId('clock')).toHaveText(/^14[,.]?00\d$/);
  await expect(page.getByTestId('lesson-back-to-step')).toHaveCount(0);
  await page.keyboard.press('End');
  await expect(page.getByTestId('clock')).not.toHaveText(/^14[,.]?00\d$/);
  await page.getByTestId('lesson-back-to-step').click();
  await expect(page.getByTestId('clock')).toHaveText(/^14[,.]?00\d$/);
  await expect(page.getByTestId('lesson-back-to-step')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a built-in opens by a readable link, #scenario=<id>', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./#scenario=watchdog-renewal&lang=zh');
  await expect(page.getByTestId('scenario-picker')).toHaveValue('watchdog-renewal', { timeout: 15_000 });
  await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
  await page.evaluate(() => {
    window.location.hash = '#scenario=no-such-thing';
  });
  await expect(page.getByText('no-such-thing')).toBeVisible();
  expect(errors).toEqual([]);
});

// LA2, LA11: a task's own controls, and a dodge answered "that works, but…", never with the success text.
test('a dodge is not accepted: the task says why, and the real fix is', async ({ page }) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#lesson=lease-too-short&step=4');
  await atStep(page, 4);
  const lease = page.getByTestId('task-controls').getByTestId('task-control');
  await expect(lease).toHaveValue('10000');
  // A lease exactly as long as the work: nobody gets in, but A:1's DEL finds no key.
  await lease.fill('14000');
  await lease.press('Enter');
  await expect(page.getByTestId('lesson-task-dodge')).toContainText('no margin', { timeout: 15_000 });
  await expect(page.getByTestId('lesson-task-done')).toHaveCount(0);
  // A:1's work shortened instead: refused too, with its own reason.
  await page.getByRole('button', { name: 'Back to the step’s scenario' }).click();
  await expect(lease).toHaveValue('10000');
  await lease.fill('20000');
  await lease.press('Enter');
  await expect(page.getByTestId('lesson-task-done')).toContainText('whole 14 s', { timeout: 15_000 });
  await expect(page.getByTestId('lesson-task-dodge')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('a task refuses the dodge of moving start times (why-lock)', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./#lesson=why-lock&step=3');
  await atStep(page, 3);
  await page.getByRole('button', { name: 'Edit JSON' }).click();
  const editor = page.locator('.json-editor__content');
  // The editor fills its lines in an effect after it mounts: the step's scenario, starts 0, 20, 40 ms.
  await expect(editor).toContainText('"start": 20');
  // Those become 0, 200, 400 ms: no lock, but no overlap either.
  await editor.click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(
    JSON.stringify({
      format: 'lockscope/1',
      title: 'Three buyers, no lock',
      resource: { kind: 'counter', initial: 0 },
      clients: ['A', 'B', 'C'].map((id, i) => ({
        id,
        threads: [{ id: 1, start: i * 200, program: [{ op: 'use', ms: 50 }] }],
      })),
    }),
  );
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByTestId('lesson-task-dodge')).toContainText('no longer overlap', { timeout: 15_000 });
  await expect(page.getByTestId('lesson-task-done')).toHaveCount(0);
  // The step's own control: lock `stock` around each buyer.
  await page.getByRole('button', { name: 'Back to the step’s scenario' }).click();
  await expect(page.getByTestId('lesson-task-dodge')).toHaveCount(0);
  await expect(page.getByTestId('task-control')).not.toBeChecked();
  // The switch follows the scenario, which changes when the re-run is in: click, then wait for it.
  await page.getByTestId('task-control').click();
  await expect(page.getByTestId('task-control')).toBeChecked({ timeout: 15_000 });
  await expect(page.getByTestId('lesson-task-done')).toContainText('took stock once', { timeout: 15_000 });
  expect(errors).toEqual([]);
});

// LA12: the index as a course, and a class path as one link that Next follows across lessons.
test('the index has parts, objectives and paths; a path link leads across lessons', async ({ page }) => {
  const errors = trackErrors(page);
  await page.goto('./');
  await page.getByTestId('learn-open').click();
  const index = page.getByTestId('lesson-index');
  await expect(index.locator('[data-part]')).toHaveCount(3);
  await expect(index.locator('.learn-card__objective')).toHaveCount(lessonCatalog.length);
  // Each objective reads across its card beside the number, not one word per line in the number's
  // 2em column (where the grid put it while it had no area of its own).
  const squeezed = await index.locator('li.learn-card').evaluateAll((cards) =>
    cards
      .map((c) => {
        const card = c.getBoundingClientRect().width;
        const objective = c.querySelector('.learn-card__objective')!.getBoundingClientRect().width;
        return { lesson: c.querySelector('[data-lesson]')!.getAttribute('data-lesson'), card, objective };
      })
      .filter((w) => w.objective < w.card * 0.6),
  );
  expect(squeezed).toEqual([]);
  await index.locator('[data-path="25"]').click();
  await atStepOfPath(page, 'why-lock', 1);
  await page.keyboard.press('PageDown');
  await page.keyboard.press('PageDown');
  await atStepOfPath(page, 'why-lock', 3);
  // The 25-minute path skips the rest of lesson 1 and lesson 2: on to expiry, step 2.
  await page.keyboard.press('PageDown');
  await atStepOfPath(page, 'expiry', 2);
  expect(errors).toEqual([]);
});

async function atStepOfPath(page: Page, lesson: string, n: number) {
  await expect(panel(page)).toHaveAttribute('data-lesson', lesson, { timeout: 15_000 });
  await expect(panel(page)).toHaveAttribute('data-step', String(n));
  await expect(page).toHaveURL(new RegExp(`#lesson=${lesson}&step=${n}&path=25$`));
}

// LA7: where the text quotes the real `<uuid>:<thread>` field, the keyspace shows it as stored;
// elsewhere it names the thread, and the "Real ids" box switches.
test('lock-script 4 shows the real <uuid>:1 field; other steps name the thread', async ({ page }) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#lesson=lock-script&step=4');
  await atStep(page, 4);
  const field = page.getByTestId('ks-field').first();
  await expect(field).toHaveText(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:1$/);
  await expect(field).toHaveAttribute('title', 'A:1');
  await expect(page.getByTestId('ks-real-ids')).toBeChecked();
  await page.getByTestId('ks-real-ids').uncheck();
  await expect(field).toHaveText('A:1');
  await page.getByTestId('lesson-next').click();
  await atStep(page, 5);
  await expect(page.getByTestId('ks-real-ids')).toBeChecked();
  await page.getByTestId('lesson-next').click();
  await atStep(page, 6);
  await expect(page.getByTestId('ks-real-ids')).not.toBeChecked();
  await expect(page.getByTestId('ks-field').first()).toHaveText('A:1');
  expect(errors).toEqual([]);
});

// LA24: a phone in presenter mode wraps code instead of cutting it at the right edge: the step's
// text, the Java outline and the script panel the step cites.
test('a phone in presenter mode: no code runs off the right edge', async ({ page }) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 390, height: 844 });
  // waiting 2 quotes `getLatch().tryAcquire(ttl)` in its text; the other two cite the script panel
  for (const [lesson, step, cites] of [
    ['waiting', 2, false],
    ['lock-script', 1, true],
    ['unlock', 3, true],
  ] as const) {
    await page.goto(`./?present=1#lesson=${lesson}&step=${step}`);
    await expect(panel(page)).toHaveAttribute('data-step', String(step), { timeout: 15_000 });
    await expect(page.getByTestId('lesson-text')).toBeVisible();
    if (cites) await expect(page.locator('.lua__line:not(.lua__line--note)').first()).toBeVisible();
    else await expect(page.getByTestId('lesson-text')).toContainText('tryAcquire');
    const cut = await page.evaluate(() =>
      [...document.querySelectorAll('code, pre')]
        .filter((e) => e.getBoundingClientRect().width > 0)
        .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
        .map((e) => (e.textContent ?? '').slice(0, 40)),
    );
    expect(cut, `${lesson} ${step}`).toEqual([]);
  }
  expect(errors).toEqual([]);
});

// LA12: every step has a teacher's note, folded under the step (open on a click), in both
// languages; while a question waits, its summary warns that it gives the answer away.
test('the teacher note is folded under the step, in both languages', async ({ page }) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto('./?present=1#lesson=cluster&step=6&lang=zh');
  await expect(panel(page)).toHaveAttribute('data-step', '6', { timeout: 15_000 });
  const note = page.getByTestId('lesson-teacher');
  await expect(note.locator('summary')).toHaveText('给老师的提示');
  await expect(note).not.toHaveAttribute('open');
  await note.locator('summary').click();
  await expect(note).toContainText('MOVED');
  await page.goto('./#lesson=cluster&step=2&lang=en');
  await expect(panel(page)).toHaveAttribute('data-step', '2', { timeout: 15_000 });
  await expect(note.locator('summary')).toHaveText('For the teacher (gives the answer away)');
  expect(errors).toEqual([]);
});

// LA5: a step whose script the tutorials show older re-runs with a tutorial's release beside it.
test('the tutorials box re-runs the step with a tutorial’s release, and back', async ({ page }) => {
  const errors = trackErrors(page);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('./#lesson=lock-script&step=1');
  await atStep(page, 1);
  const script = page.getByTestId('script-view');
  await expect(script).toContainText("or (redis.call('hexists'");
  const release = page.getByTestId('lesson-release');
  await release.selectOption('3.11.6');
  // the tutorials' two `if` blocks, the first acquire an HSET
  await expect(script).toContainText("redis.call('hset', KEYS[1], ARGV[2], 1)", { timeout: 15_000 });
  await expect(script).not.toContainText("or (redis.call('hexists'");
  await page.getByTestId('lesson-back-to-step').click();
  await expect(script).toContainText("or (redis.call('hexists'", { timeout: 15_000 });
  await expect(release).toHaveValue('');
  // unlock 3 with the tutorials' release: the cursor stays on A:1's unlock script, the one without
  // the latch key, and the scenario keeps its built-in's title
  await page.goto('./#lesson=unlock&step=3');
  await atStep(page, 3);
  await expect(script).toContainText('KEYS[3]');
  await page.getByTestId('lesson-release').selectOption('3.12.3');
  await expect(script).toContainText("redis.call('publish', KEYS[2], ARGV[1])", { timeout: 15_000 });
  await expect(script).not.toContainText('KEYS[3]');
  await expect(page.getByTestId('intro')).toContainText('Waiting without polling');
  expect(errors).toEqual([]);
});
