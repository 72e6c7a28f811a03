/**
 * The lesson player's logic (loaded with the Learn view, not with the page): fetches a lesson's
 * evaluation from the worker, puts each step's scenario and cursor into the playground's store,
 * keeps the link and the progress, and checks a task's goal on every re-run of the learner's edits.
 */
import { create } from 'zustand';
import { applyPatch, readPointer } from '../../lessons/patch';
import { coursePath, pathNeighbour } from '../../lessons/paths';
import type { Lesson, PatchOp, ScenarioJson, Task } from '../../lessons/types';
import type { TraceEvent } from '../../engine/trace/types';
import { currentHash, ensureIncidents, loadDefault, loadScenario } from '../controller';
import { engineClient } from '../engine-client';
import { translate } from '../i18n';
import { setCursor, useLearn, usePlayground } from '../store';
import { encodeLessonHash, shareUrl } from '../url-state';
import { requestView } from '../view-window';
import type { LessonPayload, LessonSummary } from './lesson-protocol';
import { sameEvent } from './same-event';
import { readProgress, recordStep, type Progress } from './progress';
import { revealFrames, REVEAL_MS } from './reveal';
import { cancelTaskSearch, runTaskSearch } from './task-search';

/**
 * `dodge`: the run meets the outcome the way the task's `dodges[taskDodge]` describes, not the
 * point. A task graded by the search: `searching` while it runs, `broken` when it found a
 * counterexample (useTaskSearch holds it), `notyet` with `taskVerdict` when the run itself is not
 * Safe, so there is nothing new for the search to find.
 */
export type TaskStatus = 'idle' | 'checking' | 'searching' | 'broken' | 'done' | 'notyet' | 'dodge';

interface PlayerState {
  summaries: LessonSummary[] | null;
  payload: LessonPayload | null;
  loading: boolean;
  error: string | null;
  /** step index → the choice picked */
  answers: Record<number, string>;
  task: TaskStatus;
  /** with `task: 'dodge'`: which of the task's dodges */
  taskDodge: number | null;
  /**
   * with `task: 'notyet'`: on a task graded by the search, the run's own verdict when not Safe;
   * on any task, 'cut' when the run was cut short (it is graded neither way)
   */
  taskVerdict: 'unsafe' | 'stuck' | 'cut' | null;
  progress: Record<string, Progress>;
  /** the step whose answered question is playing its deciding events (its text waits for them) */
  revealing: number | null;
  /** the Redisson release the tutorials box re-ran the step with (null: the step's own) */
  release: string | null;
}

export const usePlayer = create<PlayerState>()(() => ({
  summaries: null,
  payload: null,
  loading: false,
  error: null,
  answers: {},
  task: 'idle',
  taskDodge: null,
  taskVerdict: null,
  progress: readProgress(),
  revealing: null,
  release: null,
}));

/** Bumped to stop a running reveal (another step, "back to this step"). */
let revealToken = 0;

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export async function loadSummaries(): Promise<void> {
  if (usePlayer.getState().summaries !== null) return;
  try {
    usePlayer.setState({ summaries: await engineClient.lessons() });
  } catch (e) {
    usePlayer.setState({ error: message(e) });
  }
}

export function openIndex(): void {
  useLearn.setState({ view: 'index' });
}

export function openLesson(id: string, step = 0, path: string | null = null): void {
  useLearn.setState({ view: 'lesson', lessonId: id, step, path });
}

export function closeLesson(): void {
  useLearn.setState({ view: 'play', lessonId: null, step: 0 });
  cancelTaskSearch();
  usePlayer.setState({ task: 'idle' });
  // Back to the playground's own link for what is on screen.
  history.replaceState(null, '', `${window.location.pathname}${window.location.search}${currentHash()}`);

  // a step's "Real ids" was the step's choice, not the playground's
  usePlayground.setState({ realIds: false });
}

/** The step's link, with predict mode (when the link asked for it) and the reader's language. */
export function lessonLink(): string {
  const { lessonId, step, predict, path } = useLearn.getState();
  if (lessonId === null) return window.location.href;
  const lang = usePlayground.getState().lang;
  return shareUrl(
    window.location,
    encodeLessonHash({ lesson: lessonId, step, predict, lang, path: path ?? undefined }),
  );
}

/**
 * n / PageDown / Next and p / PageUp / Back: the next or previous step; past a lesson's last step
 * the next lesson's first (a clicker never gets stuck), before its first the previous lesson's last.
 */
export function goStep(delta: number): void {
  const { lessonId, step, path: pathId } = useLearn.getState();
  const total = usePlayer.getState().payload?.lesson.steps.length ?? 0;
  if (lessonId === null || total === 0) return;
  const path = coursePath(pathId ?? undefined);
  if (path !== undefined) {
    const to = pathNeighbour(path, lessonId, step, delta > 0 ? 1 : -1);
    if (to !== null) useLearn.setState({ view: 'lesson', lessonId: to.lesson, step: to.step });
    return;
  }
  if (step + delta >= total) {
    void neighbourLesson(1).then((next) => {
      if (next !== null && useLearn.getState().lessonId === lessonId) openLesson(next.id, 0);
    });
    return;
  }
  const next = Math.max(0, step + delta);
  if (next !== step) useLearn.setState({ step: next });
}

/** The lesson after (+1) or before (−1) the open one in the course, null at either end. */
export async function neighbourLesson(dir: 1 | -1): Promise<LessonSummary | null> {
  await loadSummaries();
  const { summaries } = usePlayer.getState();
  const id = useLearn.getState().lessonId;
  const i = summaries?.findIndex((l) => l.id === id) ?? -1;
  return i < 0 ? null : (summaries?.[i + dir] ?? null);
}

/** Puts the cursor back on the step's own moment (after playing on, stepping or answering). */
export function backToStep(): void {
  const { step } = useLearn.getState();
  const info = usePlayer.getState().payload?.steps[step];
  if (info?.cursor === undefined) return;
  revealToken++;
  usePlayer.setState({ revealing: null });
  // the step's moment is an event of the step's own run, not of another release's
  if (usePlayer.getState().release !== null) return void showRelease(null);
  usePlayground.setState({ playing: false, predict: useLearn.getState().predict });
  setCursor(info.cursor);
  void openWindow(info.zoom, () => useLearn.getState().step === step);
}

let token = 0;

/** Shows the lesson and step the learn store names: fetches the lesson if needed, then plays the step. */
export async function syncStep(): Promise<void> {
  const { lessonId, step } = useLearn.getState();
  if (lessonId === null) return;
  const my = ++token;
  revealToken++;
  usePlayer.setState({ revealing: null, release: null });
  let payload = usePlayer.getState().payload;
  if (payload?.lesson.id !== lessonId) {
    usePlayer.setState({ loading: true, error: null, payload: null, answers: {} });
    try {
      payload = await engineClient.lesson(lessonId);
    } catch (e) {
      if (my !== token) return;
      usePlayer.setState({ loading: false, error: message(e) });
      // A lesson link that fails (an unknown id) still leaves a playground behind the message.
      if (usePlayground.getState().scenario === null) await loadDefault();
      return;
    }
    if (my !== token) return;
    usePlayer.setState({ loading: false, payload });
  }
  const total = payload.lesson.steps.length;
  if (step >= total) {
    useLearn.setState({ step: total - 1 });
    return;
  }
  history.replaceState(
    null,
    '',
    `${window.location.pathname}${window.location.search}${encodeLessonHash({ lesson: lessonId, step, predict: useLearn.getState().predict, path: useLearn.getState().path ?? undefined })}`,
  );
  cancelTaskSearch();
  usePlayer.setState({ progress: recordStep(lessonId, step, total), task: 'idle' });
  await showStep(payload, step, my);
}

/** The step whose scenario a step shows: itself, or for a pending step the last one before it that runs. */
function shownStep(p: LessonPayload, n: number): number {
  let k = n;
  while (k >= 0 && p.steps[k].scenario === undefined) k--;
  return k;
}

/**
 * A step ahead of an unanswered question on the same run would show that question's answer a
 * click or two early (the future on the timeline, the verdict, the violation rows, the intro), so
 * it is shown in predict mode too, the way the question itself is.
 */
export function leadsToQuestion(p: LessonPayload, n: number, answers: Record<number, string>): boolean {
  if (p.lesson.steps[n]?.question !== undefined) return false;
  const mine = p.steps[shownStep(p, n)]?.scenario;
  const here = JSON.stringify(mine ?? null);
  for (let j = n + 1; j < p.lesson.steps.length; j++) {
    const theirs = p.steps[shownStep(p, j)]?.scenario;
    if (theirs !== mine && JSON.stringify(theirs ?? null) !== here) return false;
    if (p.lesson.steps[j].question !== undefined && answers[j] === undefined) return true;
  }
  return false;
}

/**
 * The step's scenario on its way to the playground: a task control changed before it arrived
 * would change the scenario it replaces, and the change would be lost (setTaskPaths waits for it).
 */
let stepLoad: Promise<void> = Promise.resolve();

/** A step's scenario in the playground, verbose (its cursor indexes the verbose run), not saved. */
async function loadStepScenario(scenario: unknown, cursor: number | undefined): Promise<void> {
  // the built-ins the step may be (the first screen carries the default alone)
  await ensureIncidents();
  await loadScenario(scenario, {
    cursor,
    builtinId: builtinOf(scenario),
    // A step's own scenario comes from no built-in; left out, it would inherit whatever the
    // playground showed before, and the intro would name that built-in above the lesson.
    origin: null,
    persist: false,
    verbose: true,
  });
}

async function showStep(p: LessonPayload, n: number, my: number): Promise<void> {
  const k = shownStep(p, n);
  const info = p.steps[k];
  if (info?.scenario === undefined || info.cursor === undefined) return;
  // a step that quotes the real `<uuid>:<thread>` field shows it in the keyspace (LA7)
  usePlayground.setState({ realIds: p.lesson.steps[n].realIds === true });
  const pg = usePlayground.getState();
  const same =
    pg.scenario !== null &&
    pg.run?.verbose === true &&
    JSON.stringify(pg.scenario) === JSON.stringify(info.scenario);
  if (!same) {
    stepLoad = loadStepScenario(info.scenario, info.cursor);
    await stepLoad;
    if (my !== token) return;
  }
  const { answers } = usePlayer.getState();
  const unanswered = k === n && p.lesson.steps[n].question !== undefined && answers[n] === undefined;
  // A question waits before the event that decides it, with the future, the verdict and the
  // violations hidden (predict mode); so does the step that leads to it; the link's `&p=1` keeps
  // predict mode on for every step.
  setCursor(unanswered ? (info.ask ?? info.cursor) : info.cursor);
  const hide = unanswered || leadsToQuestion(p, n, answers) || useLearn.getState().predict;
  usePlayground.setState({ playing: false, predict: hide });
  // a question's window would point at its answer: it opens once answered (reveal)
  await openWindow(unanswered ? undefined : p.steps[n]?.zoom, () => my === token);
}

/** The timeline shows a window a step asked for: the next step without one goes back to the whole run. */
let stepZoomed = false;

const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * Opens the timeline at a step's time window (Step.zoom), or at the whole run after a step that had
 * one (a zoom the learner made is left alone). Two frames later: a new run's timeline first asks
 * again for the window it showed before (useTimeZoom), and the step's must come after that.
 */
async function openWindow(zoom: [number, number] | undefined, current: () => boolean): Promise<void> {
  if (zoom === undefined && !stepZoomed) return;
  await frame();
  await frame();
  if (!current()) return;
  stepZoomed = zoom !== undefined;
  // the whole run: a window wider than any run asks for zoom factor 1, no shift (finite: the
  // timeline's scale turns an infinite end into NaN)
  if (zoom === undefined) requestView(0, Number.MAX_SAFE_INTEGER);
  else requestView(zoom[0], zoom[1]);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Plays the answered step's deciding events (still in predict mode), then lifts predict mode. */
async function reveal(step: number, from: number, to: number): Promise<void> {
  const my = ++revealToken;
  usePlayer.setState({ revealing: step });
  const events = usePlayground.getState().run?.trace.events ?? [];
  for (const i of revealFrames(events, from, to)) {
    await sleep(REVEAL_MS);
    if (my !== revealToken) return;
    setCursor(i);
  }
  usePlayground.setState({ predict: useLearn.getState().predict });
  usePlayer.setState({ revealing: null });
  await openWindow(usePlayer.getState().payload?.steps[step]?.zoom, () => my === revealToken);
}

export function answer(choice: string): void {
  const { step } = useLearn.getState();
  const p = usePlayer.getState().payload;
  usePlayer.setState((s) => ({ answers: { ...s.answers, [step]: choice } }));
  const info = p?.steps[step];
  if (info?.cursor === undefined) return;
  void reveal(step, usePlayground.getState().cursor, info.cursor);
}

/** Loads the step's scenario as an ordinary one, titled after the lesson, and leaves the lesson. */
export async function forkStep(): Promise<void> {
  const { step } = useLearn.getState();
  const { payload } = usePlayer.getState();
  const pg = usePlayground.getState();
  if (payload === null || pg.scenario === null) return;
  const lesson: Lesson = payload.lesson;
  const title = translate(pg.lang, 'learn.forkedFrom', { title: lesson.title[pg.lang], n: step + 1 });
  const forked = { ...structuredClone(pg.scenario), title };
  const cursor = pg.cursor;
  closeLesson();
  // Its own title names the lesson, so it is no built-in's edit even when the step is one as is.
  await loadScenario(forked, { builtinId: null, origin: null, cursor });
}

/**
 * A task control's change: every path set to `value` (undefined removes it) on the scenario on
 * screen, re-run as an edit (the task's goal is checked on the new run, as for any edit).
 */
export async function setTaskPaths(paths: readonly string[], value: unknown): Promise<void> {
  await stepLoad.catch(() => undefined);
  const doc = usePlayground.getState().scenario as ScenarioJson | null;
  if (doc === null) return;
  const ops: PatchOp[] = paths.flatMap((path): PatchOp[] =>
    value === undefined
      ? readPointer(doc, path) === undefined
        ? []
        : [{ op: 'remove', path }]
      : [{ op: readPointer(doc, path) === undefined ? 'add' : 'replace', path, value }],
  );
  if (ops.length === 0) return;
  try {
    await loadScenario(applyPatch(doc, ops), { keepTime: true, onInvalid: 'issues', verbose: true });
  } catch (e) {
    usePlayer.setState({ error: message(e) });
  }
}

/**
 * The step re-run with another Redisson release, at the same virtual time (the tutorials box's
 * switch: the script the tutorials show beside the one the step uses), or back to the step's
 * own scenario and moment (`null`).
 */
export async function showRelease(release: string | null): Promise<void> {
  const { step } = useLearn.getState();
  const info = usePlayer.getState().payload?.steps[step];
  if (info?.scenario === undefined || info.cursor === undefined) return;
  const run = usePlayground.getState().run;
  if (usePlayer.getState().release === null && run)
    ownRun = { events: run.trace.events, cursor: info.cursor };
  usePlayer.setState({ release });
  if (release === null) return loadStepScenario(info.scenario, info.cursor);
  const doc = info.scenario as { redisson?: Record<string, unknown> };
  const ok = await loadScenario(
    { ...doc, redisson: { ...doc.redisson, version: release } },
    { keepTime: true, verbose: true, persist: false, history: false },
  );
  // the cursor on the event that plays the step's part in this release's run (same time otherwise)
  const events = usePlayground.getState().run?.trace.events;
  const at = ok && ownRun !== null && events ? sameEvent(ownRun.events, ownRun.cursor, events) : null;
  if (at !== null) setCursor(at);
}

/** The step's own run and moment, while the tutorials box shows another release's. */
let ownRun: { events: readonly TraceEvent[]; cursor: number } | null = null;

/** Restores the step's own scenario after the learner's edits. */
export async function resetTask(): Promise<void> {
  const { step } = useLearn.getState();
  const p = usePlayer.getState().payload;
  const info = p?.steps[step];
  if (info?.scenario === undefined) return;
  cancelTaskSearch();
  usePlayer.setState({ task: 'idle' });
  await loadStepScenario(info.scenario, info.cursor);
}

/** A step on a built-in as it is shows that built-in's title and text above the timeline. */
function builtinOf(scenario: unknown): string | null {
  const text = JSON.stringify(scenario);
  return usePlayground.getState().builtins.find((b) => JSON.stringify(b.scenario) === text)?.id ?? null;
}

let goalToken = 0;

/** Checks the open task's goal whenever the playground's scenario changes (the learner's edits). */
export function watchTask(): () => void {
  return usePlayground.subscribe((s, prev) => {
    if (s.scenario === prev.scenario || s.scenario === null) return;
    const { step } = useLearn.getState();
    const info = usePlayer.getState().payload?.steps[step];
    if (JSON.stringify(s.scenario) === JSON.stringify(info?.scenario)) {
      // back to the step's own scenario: nothing to grade until asked (gradeTask)
      if (openTask() !== null) {
        goalToken++;
        cancelTaskSearch();
        usePlayer.setState({ task: 'idle' });
      }
      return;
    }
    gradeTask(s.scenario);
  });
}

/** The open lesson's task at the current step, if any. */
function openTask(): { lessonId: string; step: number; task: Task } | null {
  const { lessonId, step } = useLearn.getState();
  const p = usePlayer.getState().payload;
  const task = p?.lesson.steps[step]?.task;
  return lessonId === null || p === null || p.lesson.id !== lessonId || task === undefined
    ? null
    : { lessonId, step, task };
}

/**
 * Grades `scenario` (default: the one on screen) for the open task: the goal and the dodges in the
 * worker, then, for a task graded by the search, the search on the page's workers. Called on every
 * edit, and by the task's own button to grade the step's scenario as it is.
 */
export function gradeTask(scenario: unknown = usePlayground.getState().scenario): void {
  const open = openTask();
  if (open === null || scenario === null) return;
  const { lessonId, step, task } = open;
  cancelTaskSearch();
  const my = ++goalToken;
  usePlayer.setState({ task: 'checking', taskDodge: null, taskVerdict: null });
  engineClient.lessonGoal(lessonId, step, scenario).then(
    async (r) => {
      if (my !== goalToken) return;
      if (r.met) usePlayer.setState({ task: 'done' });
      else if (r.dodge !== undefined) usePlayer.setState({ task: 'dodge', taskDodge: r.dodge });
      else if (r.search !== undefined && task.search !== undefined) {
        usePlayer.setState({ task: 'searching' });
        const found = await runTaskSearch(scenario, task.search);
        if (my !== goalToken || found === null) return;
        usePlayer.setState({
          task:
            found.phase === 'found' ? 'broken' : found.phase === 'clean' && r.search.goal ? 'done' : 'notyet',
        });
      } else
        usePlayer.setState({
          task: 'notyet',
          taskVerdict:
            r.verdict === 'unsafe' || r.verdict === 'stuck' || r.verdict === 'cut' ? r.verdict : null,
        });
    },
    () => {
      if (my === goalToken) usePlayer.setState({ task: 'notyet' });
    },
  );
}
