import { expect, test, type Page } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadAllLessons } from '../src/lessons';

// Every step of every lesson, for review by eye (issue 22): en and zh at 1440×900, presenter mode
// at 1280×720 for every step in English and a sample in Chinese. A question step is shot before
// the answer (`a`) and after it (`b`). Slow, so only with SHOTS=1:
// `npx vite build && SHOTS=1 npx playwright test e2e/lesson-shots.spec.ts --workers=1`.
// SHOTS_OUT sets the folder (default /tmp/shots-lessons), SHOTS_ONLY=id1,id2 limits the lessons,
// SHOTS_RUNS=desk-en,present-zh limits the runs, SHOTS_FULL=1 shoots every step in presenter zh too.
// Next to the PNGs, checks.json lists what a picture can hide: sideways or page scrolling, text
// cut off, a highlighted lane or a cited panel outside the viewport, Latin words on a zh page.
const OUT = process.env.SHOTS_OUT ?? '/tmp/shots-lessons';
const only = process.env.SHOTS_ONLY?.split(',');
const runsOnly = process.env.SHOTS_RUNS?.split(',');
const full = !!process.env.SHOTS_FULL;

interface Run {
  name: string;
  width: number;
  height: number;
  lang: 'en' | 'zh';
  present: boolean;
  /** which steps: all, or the first and each question's (a sample) */
  sample: boolean;
}

const ALL_RUNS: Run[] = [
  { name: 'desk', width: 1440, height: 900, lang: 'en', present: false, sample: false },
  { name: 'desk', width: 1440, height: 900, lang: 'zh', present: false, sample: false },
  { name: 'present', width: 1280, height: 720, lang: 'en', present: true, sample: false },
  { name: 'present', width: 1280, height: 720, lang: 'zh', present: true, sample: !full },
];
const RUNS = ALL_RUNS.filter((r) => !runsOnly || runsOnly.includes(`${r.name}-${r.lang}`));

/** What the page measures about itself at the moment of a shot. */
function measure(): Record<string, unknown> {
  const vw = window.innerWidth;
  const vh = window.innerHeight;
  const doc = document.documentElement;
  // inside the viewport and inside every box that clips it (a lane below the timeline's scroll)
  const inView = (el: Element | null) => {
    if (!el) return null;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) return null;
    let [top, bottom, left, right] = [0, vh, 0, vw];
    for (let p = el.parentElement; p; p = p.parentElement) {
      const s = getComputedStyle(p);
      if (s.overflowY === 'visible' && s.overflowX === 'visible') continue;
      const b = p.getBoundingClientRect();
      [top, bottom] = [Math.max(top, b.top), Math.min(bottom, b.bottom)];
      [left, right] = [Math.max(left, b.left), Math.min(right, b.right)];
    }
    return r.top >= top - 1 && r.bottom <= bottom + 1 && r.left >= left - 1 && r.right <= right + 1;
  };
  const cut: string[] = [];
  const scope = document.querySelectorAll(
    '.lesson *, .legend *, .caption *, .intro *, .transport *, .verdict *, .lane-label *',
  );
  for (const el of scope) {
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden') continue;
    const clips = s.overflowX !== 'visible' || s.textOverflow === 'ellipsis';
    if (clips && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0)
      cut.push(`${el.className || el.tagName}: ${(el.textContent ?? '').slice(0, 60)}`);
  }
  const legend = document.querySelector('.legend');
  const legendOut: string[] = [];
  if (legend) {
    const lr = legend.getBoundingClientRect();
    for (const item of legend.children) {
      const r = item.getBoundingClientRect();
      if (r.right > lr.right + 1 || r.right > vw) legendOut.push((item.textContent ?? '').slice(0, 40));
    }
  }
  const lanes = [...document.querySelectorAll('.lane-label.lesson-hl')].map((el) => ({
    lane: el.textContent?.slice(0, 30),
    inView: inView(el),
  }));
  const cites = {
    keys: doc.classList.contains('cite-keys') ? inView(document.querySelector('[data-testid="keyspace"]')) : null,
    script: doc.classList.contains('cite-script')
      ? inView(document.querySelector('[data-testid="script-view"]'))
      : null,
  };
  const lessonEl = document.querySelector('.lesson');
  const text = document.querySelector('[data-testid="lesson-text"], [data-testid="lesson-question"]');
  const latin: string[] = [];
  if (document.documentElement.lang.startsWith('zh')) {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const p = n.parentElement;
      if (!p || p.closest('code, pre, kbd, .lua, .json-editor, option, script, style, svg text')) continue;
      if (p.offsetParent === null && getComputedStyle(p).position !== 'fixed') continue;
      const words = (n.textContent ?? '').match(/[A-Za-z][A-Za-z' ]{5,}[a-z]/g);
      if (words) latin.push(...words);
    }
  }
  return {
    overflowX: doc.scrollWidth - doc.clientWidth,
    overflowY: doc.scrollHeight - doc.clientHeight,
    lessonScroll: lessonEl ? lessonEl.scrollHeight - lessonEl.clientHeight : null,
    textInView: inView(text),
    timelineTop: document.querySelector('[data-testid="timeline"]')?.getBoundingClientRect().top,
    cut,
    legendOut,
    lanes,
    cites,
    latin: [...new Set(latin)],
  };
}

async function settle(page: Page) {
  await expect(page.locator('.run-progress')).toHaveCount(0, { timeout: 60_000 });
  await page.waitForTimeout(600);
}

for (const run of RUNS)
  test(`lesson shots ${run.name} ${run.lang}`, async ({ page }) => {
    test.skip(!process.env.SHOTS, 'set SHOTS=1 to take the review screenshots');
    test.setTimeout(60 * 60_000);
    const dir = `${OUT}/${run.name}-${run.lang}`;
    mkdirSync(dir, { recursive: true });
    const checks: Record<string, unknown> = {};
    await page.setViewportSize({ width: run.width, height: run.height });
    const lessons = (await loadAllLessons()).filter((l) => !only || only.includes(l.id));
    let first = true;
    for (const [li, lesson] of lessons.entries())
      for (const [si, step] of lesson.steps.entries()) {
        if (run.sample && si !== 0 && step.question === undefined) continue;
        const n = si + 1;
        const hash = `#lesson=${lesson.id}&step=${n}&lang=${run.lang}`;
        if (first) await page.goto(`./${run.present ? '?present=1' : ''}${hash}`);
        else
          await page.evaluate((h) => {
            window.location.hash = h;
          }, hash);
        first = false;
        const panel = page.getByTestId('lesson-panel');
        await expect(panel).toHaveAttribute('data-lesson', lesson.id, { timeout: 30_000 });
        await expect(panel).toHaveAttribute('data-step', String(n), { timeout: 30_000 });
        await settle(page);
        const base = `${dir}/L${String(li + 1).padStart(2, '0')}-${lesson.id}-s${n}`;
        const shoot = async (suffix: string) => {
          // the pointer off the page: left over the last click, it drew a hovered choice on the
          // next question that read like a hint
          await page.mouse.move(0, 0);
          checks[`${base}${suffix}`.slice(OUT.length + 1)] = await page.evaluate(measure);
          await page.screenshot({ path: `${base}${suffix}.png` });
        };
        if (step.question === undefined) {
          await shoot('');
          continue;
        }
        await expect(page.getByTestId('lesson-asking')).toBeVisible();
        await shoot('a');
        // the first choice in English, the last in Chinese: right and wrong feedback both get seen
        const choices = step.question.choices.map((c) => c.id);
        const pick = run.lang === 'en' ? choices[0] : choices[choices.length - 1];
        await page.locator(`[data-testid="lesson-choice"][data-choice="${pick}"]`).click();
        await expect(page.getByTestId('lesson-feedback')).toBeVisible({ timeout: 30_000 });
        await settle(page);
        await shoot('b');
      }
    writeFileSync(`${dir}/checks.json`, JSON.stringify(checks, null, 1));
  });
