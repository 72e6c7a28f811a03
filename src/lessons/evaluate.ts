/**
 * Plays a lesson against the engine: resolves each step's scenario and cursor, runs its checks,
 * computes its question's right answer from the trace and tries its task's goal on the
 * unmodified scenario (must fail) and with the solution (must pass). The CLI prints this; the
 * page's player and the unit tests read the same results.
 */
import { firstKeyMatching } from './key-pattern';
import { builtin, runScenario, shownVerdict, validateScenario } from './engine';
import type { ScenarioRun, TraceEvent, Violation, VisibleState } from './engine';
import {
  cursorAt,
  describeCheck,
  endOf,
  failure,
  rememberScenario,
  violationsAt,
  type CheckResult,
  type Cursor,
} from './checks';
import { applyPatch, PatchError } from './patch';
import { describeVerdict, searchTask, type SearchVerdict } from './search-goal';
import { describeSelector, findEvent, SelectorError } from './select';
import type { Answer, Lesson, Question, ScenarioJson, ScenarioRef, Step, StepZoom, Task } from './types';

export class LessonError extends Error {}

/** Runs scenarios once per distinct JSON; verbose, so script lines can be selected and shown. */
export class RunCache {
  private runs = new Map<string, ScenarioRun>();
  run(json: ScenarioJson): ScenarioRun {
    const key = JSON.stringify(json);
    let r = this.runs.get(key);
    if (r === undefined) {
      const v = validateScenario(json);
      if (!v.ok)
        throw new LessonError(
          `invalid scenario: ${v.issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`,
        );
      r = runScenario(v.scenario, { verbose: true });
      rememberScenario(r, v.scenario);
      this.runs.set(key, r);
    }
    return r;
  }
}

/** The scenario JSON a step's reference names, given the previous step's. */
export function resolveScenario(ref: ScenarioRef, previous: ScenarioJson | undefined): ScenarioJson {
  let base: ScenarioJson;
  if ('builtin' in ref) {
    const b = builtin(ref.builtin);
    if (b === undefined) throw new LessonError(`unknown built-in "${ref.builtin}"`);
    base = b.scenario;
  } else if ('inline' in ref) base = ref.inline;
  else {
    if (previous === undefined) throw new LessonError('a patch needs a previous step with a scenario');
    base = previous;
  }
  return ref.patch === undefined ? structuredClone(base) : applyPatch(base, ref.patch);
}

export interface QuestionResult {
  /** the computed answer (a value from the trace, or the fixed choice id) */
  answer: unknown;
  /** ids of the choices that match it: exactly one when the question is well made */
  right: string[];
}

export interface TaskResult {
  /** the goal on the unmodified scenario: must be false */
  base: boolean;
  /** the goal with the known-good solution applied: must be true */
  solution: boolean;
  /** each dodge's example: the outcome it gets (must be that dodge, not success) */
  dodges?: TaskOutcome[];
  /** a task graded by the search: what it found on the unmodified scenario and with the solution */
  search?: { base?: SearchVerdict; solution?: SearchVerdict };
  /** why a run failed to start (bad patch, invalid scenario) */
  error?: string;
}

export interface StepResult {
  step: Step;
  pending?: string;
  scenario?: ScenarioJson;
  /** false when this step's scenario differs from the previous step's (the player restarts) */
  sameScenario: boolean;
  run?: ScenarioRun;
  cursor?: number;
  /** a question step: where the cursor waits until the learner answers (before the deciding event) */
  ask?: number;
  /** the step's `zoom`: the time window [from, to] in virtual ms the timeline opens at */
  zoom?: [number, number];
  at?: { t: number; seq: number };
  state?: VisibleState;
  /** violations begun at or before the cursor */
  violations?: Violation[];
  /** verbose events after the previous step's cursor (from the start on a new scenario) to the cursor */
  events?: TraceEvent[];
  checks: CheckResult[];
  question?: QuestionResult;
  task?: TaskResult;
}

export interface LessonResult {
  lesson: Lesson;
  steps: StepResult[];
  /** every check, question and task of every non-pending step holds */
  ok: boolean;
}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

function computeAnswer(c: Cursor, a: Answer): unknown {
  const events = c.run.trace.events;
  switch (a.from) {
    case 'reply-of':
      return events[findEvent(events, a.selector)].reply;
    case 'actor-of':
      return events[findEvent(events, a.selector)].actor;
    case 'field-of':
      return events[findEvent(events, a.selector)][a.field];
    case 'time-of':
      return events[findEvent(events, a.selector)].t;
    case 'verdict':
      return shownVerdict(c.run.trace);
    case 'holds':
      return failure(c, a.check) === null;
    case 'fixed':
      return a.choice;
  }
}

/**
 * Where a question's cursor waits for the answer: just before its `decides` event; without one,
 * the previous step's cursor on the same run, else the last event earlier than the step's cursor.
 */
export function askCursor(
  events: readonly TraceEvent[],
  q: Question,
  prevCursor: number | undefined,
  cursor: number,
): number {
  if (q.decides !== undefined) return findEvent(events, q.decides) - 1;
  if (prevCursor !== undefined) return prevCursor;
  const t = events[cursor]?.t ?? 0;
  let i = cursor;
  while (i >= 0 && events[i].t >= t) i--;
  return i;
}

/**
 * Whether the answer can already be read off the screen at the pre-answer cursor `ask`: the event
 * the answer reads (a reply, an actor, a time, the first violation) has happened by then, or a
 * `holds` answer that is true already holds there. A "why" question (`fixed`) reads no event.
 */
export function answerShownAt(c: Cursor, ask: number, q: Question): string | null {
  const events = c.run.trace.events;
  const a = q.answer;
  switch (a.from) {
    case 'reply-of':
    case 'actor-of':
    case 'field-of':
    case 'time-of': {
      const i = findEvent(events, a.selector);
      return i <= ask ? `the answer's event (${describeSelector(a.selector)}) is at or before it` : null;
    }
    case 'verdict': {
      const i = events.findIndex((e) => e.kind === 'violation.start');
      return i >= 0 && i <= ask ? 'a violation has begun by then' : null;
    }
    case 'holds':
      return computeAnswer(c, a) === true && failure(cursorAt(c.run, ask), a.check) === null
        ? 'the check already holds there'
        : null;
    case 'fixed':
      return null;
  }
}

export function evaluateQuestion(c: Cursor, q: Question): QuestionResult {
  const answer = computeAnswer(c, q.answer);
  const right = q.choices
    .filter((ch) => {
      if (q.answer.from === 'fixed') return ch.id === answer;
      if (q.answer.from === 'time-of' && Array.isArray(ch.value)) {
        const [lo, hi] = ch.value as number[];
        return typeof answer === 'number' && answer >= lo && answer <= hi;
      }
      return same(ch.value, answer);
    })
    .map((ch) => ch.id);
  return { answer, right };
}

/**
 * What the learner's run did for the task: met the goal, took one of its dodges (its index), or
 * neither. A task graded by the search also carries the search's verdict (`search`) when it ran.
 * `cut`: the run was stopped before its end, so it is graded neither way.
 */
export type TaskOutcome =
  { met: true; search?: SearchVerdict } | { met: false; dodge?: number; search?: SearchVerdict; cut?: true };

/**
 * The cheap half of a task's grade, on the learner's own run: whether its goal holds, which dodge
 * it took, and, for a task graded by the search, whether the search is to run at all (not on a
 * dodge, nor on a run that is already unsafe or stuck: the search only counts new violations).
 * A run stopped before its end (`cut`: its trace is truncated) meets no goal and takes no dodge:
 * its end is not the run's end, so "no V1 in the whole run" or "A:1 works its 14 s" cannot be read
 * off it. Except a stuck one: a thread that waits for ever (L1-L5 ask the kernel what is still
 * scheduled) makes a run that never ends, so the time cap is where it must be read, as
 * lock-script's task does (A:1 waiting for its own lock while its watchdog renews it).
 */
export interface TaskProbe {
  goal: boolean;
  dodge?: number;
  searchable: boolean;
  cut?: true;
}

export function probeTask(cache: RunCache, json: ScenarioJson, task: Task): TaskProbe {
  const run = cache.run(json);
  if (run.trace.truncated === true && run.trace.verdict !== 'stuck')
    return { goal: false, searchable: false, cut: true };
  const end = endOf(run);
  const goal = failure(end, task.goal) === null;
  const dodge = goal ? -1 : (task.dodges ?? []).findIndex((d) => failure(end, d.when) === null);
  if (dodge >= 0) return { goal, dodge, searchable: false };
  return { goal, searchable: task.search !== undefined && shownVerdict(run.trace) === 'safe' };
}

export function taskOutcome(cache: RunCache, json: ScenarioJson, task: Task): TaskOutcome {
  const p = probeTask(cache, json, task);
  if (p.cut) return { met: false, cut: true };
  if (p.dodge !== undefined) return { met: false, dodge: p.dodge };
  if (task.search === undefined) return { met: p.goal };
  if (!p.searchable) return { met: false };
  const search = searchTask(json, task.search);
  return { met: p.goal && search.violation === null, search };
}

export function evaluateTask(cache: RunCache, json: ScenarioJson, task: Task): TaskResult {
  try {
    const base = taskOutcome(cache, json, task);
    const solution = taskOutcome(cache, applyPatch(json, task.solution), task);
    const r: TaskResult = { base: base.met, solution: solution.met };
    if (task.search !== undefined) r.search = { base: base.search, solution: solution.search };
    if (task.dodges !== undefined)
      r.dodges = task.dodges.map((d) => taskOutcome(cache, applyPatch(json, d.example), task));
    return r;
  } catch (e) {
    if (e instanceof LessonError || e instanceof PatchError)
      return { base: false, solution: false, error: e.message };
    throw e;
  }
}

/**
 * A step's time window: from its `from` event to its `to` event (the cursor's without one), a
 * twentieth of that wider each side and at least 2 ms, so the moments at both ends are not on the
 * plot's edges.
 */
export function stepWindow(events: readonly TraceEvent[], zoom: StepZoom, cursor: number): [number, number] {
  const from = events[findEvent(events, zoom.from)].t;
  const to = events[zoom.to === undefined ? cursor : findEvent(events, zoom.to)].t;
  const [a, b] = from <= to ? [from, to] : [to, from];
  const pad = Math.max(2, (b - a) / 20);
  return [Math.max(0, Math.floor(a - pad)), Math.ceil(b + pad)];
}

export interface EvaluateOptions {
  /**
   * Try each task's goal on the step's scenario, its solution and its dodges (default true). The
   * page leaves it out: it shows a step's run, and a task graded by the search would run
   * thousands of schedules before the lesson could open.
   */
  tasks?: boolean;
}

export function evaluateLesson(
  lesson: Lesson,
  cache = new RunCache(),
  opts: EvaluateOptions = {},
): LessonResult {
  const steps: StepResult[] = [];
  let prevJson: ScenarioJson | undefined;
  let prevCursor = -1;
  let prevKey: string | undefined;
  for (const step of lesson.steps) {
    if (lesson.coming === true || step.pending !== undefined) {
      steps.push({ step, pending: step.pending ?? 'lesson marked coming', sameScenario: false, checks: [] });
      // the next step's events start from the beginning of its run
      prevKey = undefined;
      continue;
    }
    const r: StepResult = { step, sameScenario: false, checks: [] };
    steps.push(r);
    try {
      const json = step.scenario === undefined ? prevJson : resolveScenario(step.scenario, prevJson);
      if (json === undefined) throw new LessonError('the first step needs a scenario');
      const key = JSON.stringify(json);
      r.sameScenario = key === prevKey;
      r.scenario = json;
      const run = cache.run(json);
      r.run = run;
      const events = run.trace.events;
      const index = step.at === undefined ? events.length - 1 : findEvent(events, step.at);
      const start = r.sameScenario ? prevCursor + 1 : 0;
      // the player only plays forward within one run
      if (r.sameScenario && index < prevCursor)
        r.checks.push({
          what: `cursor ${step.at === undefined ? '(end)' : describeSelector(step.at)} is before the previous step's`,
          ok: false,
        });
      const c = cursorAt(run, index);
      r.cursor = index;
      const ev = events[index];
      r.at = ev === undefined ? { t: 0, seq: -1 } : { t: ev.t, seq: ev.seq };
      r.state = c.state;
      r.violations = violationsAt(c).map(({ v }) => v);
      r.events = events.slice(start, index + 1);
      const lanes = step.highlight?.lanes ?? [];
      const unknownLanes = lanes.filter(
        (l) => c.state.threads[l] === undefined && c.state.nodes[l] === undefined,
      );
      if (unknownLanes.length > 0)
        r.checks.push({
          what: `highlighted lanes exist (no ${unknownLanes.join(', ')} in this run)`,
          ok: false,
        });
      // A named key is cited even while absent (lock-script 1: "no myLock yet"); a pattern's key
      // is the run's, and a citation of it must find one (the unlock latch, gone 2 ms later).
      const lost = (step.highlight?.keys ?? []).filter(
        (k) =>
          k.endsWith('*') &&
          !Object.values(c.state.nodes).some((n) => firstKeyMatching(k, Object.keys(n.keys)) !== undefined),
      );
      if (lost.length > 0)
        r.checks.push({ what: `highlighted keys exist (no ${lost.join(', ')} at the cursor)`, ok: false });
      for (const sel of step.highlight?.events ?? []) findEvent(events, sel);
      if (step.zoom !== undefined) {
        const w = stepWindow(events, step.zoom, index);
        r.zoom = w;
        r.checks.push({
          what: `zoom: the window ${w[0]}–${w[1]} ms shows the cursor (${r.at.t} ms)`,
          ok: w[0] <= r.at.t && r.at.t <= w[1],
        });
      }
      for (const check of step.checks ?? []) {
        const f = failure(c, check);
        r.checks.push({ what: describeCheck(check) + (f === null ? '' : ` (got: ${f})`), ok: f === null });
      }
      if (step.question !== undefined) {
        const q = evaluateQuestion(c, step.question);
        r.question = q;
        const ask = askCursor(events, step.question, r.sameScenario ? prevCursor : undefined, index);
        r.ask = ask;
        const shown =
          ask < index ? answerShownAt(c, ask, step.question) : 'it is not before the step’s cursor';
        r.checks.push({
          what: `question: the pre-answer cursor (event ${ask}) hides the answer${shown === null ? '' : ` (but ${shown})`}`,
          ok: shown === null,
        });
        r.checks.push({
          what: `question: exactly one choice matches the trace's answer ${JSON.stringify(q.answer)} (matching: ${q.right.join(', ') || 'none'})`,
          ok: q.right.length === 1,
        });
      }
      if (step.task !== undefined && opts.tasks !== false) {
        const t = evaluateTask(cache, json, step.task);
        r.task = t;
        r.checks.push({
          what: `task: goal "${describeCheck(step.task.goal)}" fails as given${t.base ? ' (but it holds)' : ''}`,
          ok: t.error === undefined && !t.base,
        });
        r.checks.push({
          what: `task: the solution meets the goal${t.error === undefined ? '' : ` (${t.error})`}${t.solution ? '' : ' (it does not)'}`,
          ok: t.solution,
        });
        const ts = step.task.search;
        if (ts !== undefined)
          r.checks.push(
            {
              what: `task: the search breaks the scenario as given (${t.search?.base === undefined ? 'it did not run' : describeVerdict(t.search.base, ts)})`,
              ok: t.search?.base?.violation != null,
            },
            {
              what: `task: the search finds nothing with the solution (${t.search?.solution === undefined ? 'it did not run' : describeVerdict(t.search.solution, ts)})`,
              ok: t.search?.solution !== undefined && t.search.solution.violation === null,
            },
          );
        t.dodges?.forEach((o, i) =>
          r.checks.push({
            what: `task: dodge ${i + 1}'s example is refused and answered by that dodge (got ${JSON.stringify(o)})`,
            ok: !o.met && o.dodge === i,
          }),
        );
      }
      prevJson = json;
      prevKey = key;
      prevCursor = index;
    } catch (e) {
      if (!(e instanceof LessonError || e instanceof PatchError || e instanceof SelectorError)) throw e;
      r.checks.push({ what: `error: ${e.message}`, ok: false });
      prevKey = undefined;
    }
  }
  return { lesson, steps, ok: steps.every((s) => s.checks.every((c) => c.ok)) };
}
