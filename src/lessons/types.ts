/**
 * The lesson format: plain data, no code, no React, no DOM, so the page (lazily, one module per
 * lesson) and the CLI (`npm run -s lesson`) read the same objects.
 *
 * A lesson is a list of steps. Each step runs a scenario (a built-in, an inline scenario, or a
 * patch on the previous step's scenario) and puts the cursor on an event found by a selector,
 * never at a bare time: when the engine's timings shift, a selector still finds "B's first
 * EVAL" while a time would point at something else. Checks on the state at the cursor keep the
 * text honest: the CLI and the unit tests fail when a step stops showing what its text says.
 */

/** Text in both languages; markdown, Redis and Java names in backticks. */
export interface Bilingual {
  en: string;
  zh: string;
}

/** A claim id, "C01" … "C40": a statement about Redis or Redisson that a step demonstrates. */
export type ClaimId = string;

/** `"<client>:<thread>"` for threads, node ids for nodes (as in the trace). */
export type Actor = string;

// ---------------------------------------------------------------------------------------------
// Scenarios

/** Scenario JSON as a user would write it (validateScenario fills in the defaults). */
export type ScenarioJson = { format: 'lockscope/1' } & Record<string, unknown>;

/**
 * A subset of RFC 6902 JSON Patch on the scenario JSON as written (defaults omitted). `path` is
 * a JSON Pointer ("/clients/0/threads/0/program/1/ms"); `add` on an array inserts ("-" appends),
 * on an object sets; `replace` needs the target to exist, so a patch that no longer fits its
 * scenario fails loudly instead of silently adding a field nobody reads.
 */
export type PatchOp =
  | { op: 'add'; path: string; value: unknown }
  | { op: 'replace'; path: string; value: unknown }
  | { op: 'remove'; path: string };

export type ScenarioRef =
  | { builtin: string; patch?: PatchOp[] }
  | { inline: ScenarioJson; patch?: PatchOp[] }
  /** applied to the previous step's scenario */
  | { patch: PatchOp[] };

// ---------------------------------------------------------------------------------------------
// Finding events

/**
 * Finds one event of a run. Every given field must match. Of the matches (counted from the start,
 * or from just after `after`'s event), `nth` picks one (1-based; -1 the last, -2 the one before);
 * `offset` then moves that many events forward (+) or back (−) in the trace.
 */
export interface EventSelector {
  kind: string;
  actor?: Actor;
  lock?: string;
  node?: string;
  /** the event's `key`, or a key among a `cmd`/`script.call`'s argv */
  key?: string;
  /** `cmd` / `script.call`: the command name, any case ("EVALSHA", "set") */
  cmd?: string;
  /** other fields that must be equal (e.g. `{ cause: 'message' }`, `{ violation: 'V1' }`) */
  where?: Record<string, unknown>;
  /** search only after this event */
  after?: EventSelector;
  /** search only before this event */
  before?: EventSelector;
  nth?: number;
  offset?: number;
}

// ---------------------------------------------------------------------------------------------
// Checks: predicates on the run at a cursor (for a task's goal: at the end of the run)

export type KeyType = 'string' | 'hash' | 'list' | 'zset';
export type ThreadState =
  'idle' | 'running' | 'working' | 'waiting' | 'sleeping' | 'paused' | 'crashed' | 'done';
export type ViolationKind = 'V1' | 'V2' | 'V3' | 'L1' | 'L2' | 'L3' | 'L4' | 'L5' | 'L6' | 'L7';

export interface KeyCheck {
  /**
   * the key on `node` (default: the first node that is a master at the cursor); `prefix*` names
   * the first key starting with `prefix` (a latch key's request id is the run's)
   */
  key: string;
  node?: string;
  /** 'absent': the key does not exist */
  is?: KeyType | 'absent';
  /** a string key's value */
  value?: string;
  /** a hash key: the number of fields */
  fields?: number;
  /**
   * a hash key: the field naming `owner`'s hold (the `owner` its lock.acquired event carries,
   * "<uuid>:<thread>" for Redisson, or one of its `owners`: a RedLock's instance per master) has
   * this value; `count: null` means the field is absent
   */
  holder?: { owner: Actor; count: number | null };
  /**
   * whose lock this is: a string key's value (a naive lock's token) or a hash key's field is the
   * identity `owner`'s latest acquisition at or before the cursor stored
   */
  ownedBy?: Actor;
  /** remaining TTL in ms at the cursor, inclusive range; 'none' = no expiry (PTTL -1) */
  pttl?: { min?: number; max?: number } | 'none';
}

/**
 * Redis Cluster: the hash slot of a key or channel name (CRC16 mod 16384, of its hash tag when it
 * has one, as the server and Redisson compute it). A fact of the name, not of the run.
 */
export interface SlotCheck {
  slot: string;
  /** exactly this slot */
  is?: number;
  /** inclusive range: the slots a master serves ("10923-16383") */
  min?: number;
  max?: number;
  /** the same slot as this other name (a lock and its channel) */
  sameAs?: string;
}

export interface ThreadCheck {
  thread: Actor;
  state?: ThreadState | ThreadState[];
  /** the hold count this thread believes it has on `lock` (0: none) */
  holds?: { lock: string; count: number };
  /** its last recorded result (tryLock true/false, a reply, an error) */
  lastResult?: unknown;
}

export type Check =
  | KeyCheck
  | ThreadCheck
  /** a violation of this kind (and lock) has begun at or before the cursor; `open`: and not ended */
  | { violation: ViolationKind; lock?: string; open?: boolean; holders?: Actor[] }
  /** no violation (of this kind, on this lock) has begun at or before the cursor */
  | { noViolation: ViolationKind | 'any'; lock?: string }
  /** the reply (compact JSON as in the trace) of the selected `cmd`, default the cursor's event */
  | { reply: unknown; of?: EventSelector }
  /** how many events match `count` (without nth/offset) at or before the cursor */
  | { count: EventSelector; min?: number; max?: number }
  /** ms between two events: `to`'s t − `from`'s t */
  | { gap: { from: EventSelector; to: EventSelector }; min?: number; max?: number }
  /** the whole run's verdict (not only up to the cursor) */
  | { verdict: 'safe' | 'unsafe' | 'stuck' }
  | { resource: { value?: number; accepted?: number; rejected?: number; lost?: number; lastToken?: number } }
  /**
   * a setting of the run's scenario, defaults filled in (a JSON Pointer: "/resource/kind",
   * "/until"), has this value: for a task's mechanism that the trace does not record
   */
  | { setting: string; is: unknown }
  | SlotCheck
  | { all: Check[] }
  | { any: Check[] }
  | { not: Check };

// ---------------------------------------------------------------------------------------------
// Questions and tasks

/**
 * What the right answer is, computed from the step's run (after it plays) where possible:
 *   reply-of  the reply of the selected cmd (compact JSON, as in the trace)
 *   actor-of  the actor of the selected event
 *   field-of  another field of the selected event (e.g. a resource.use's `value`)
 *   time-of   the t of the selected event; choices give `[lo, hi]` ranges
 *   verdict   'safe' | 'unsafe' | 'stuck'
 *   holds     true/false: whether `check` holds at the step's cursor
 *   fixed     the id of the right choice, where the trace cannot say (a "why" question)
 */
export type Answer =
  | { from: 'reply-of'; selector: EventSelector }
  | { from: 'actor-of'; selector: EventSelector }
  | { from: 'field-of'; selector: EventSelector; field: string }
  | { from: 'time-of'; selector: EventSelector }
  | { from: 'verdict' }
  | { from: 'holds'; check: Check }
  | { from: 'fixed'; choice: string };

export interface Choice {
  id: string;
  text: Bilingual;
  /** compared with the computed answer; a `[lo, hi]` range for `time-of` */
  value?: unknown;
  /**
   * This choice's own feedback, shown when it is picked: for a wrong one, why it is tempting and
   * what the run shows instead (every wrong choice has one; the tests check it).
   */
  why?: Bilingual;
}

export interface Question {
  /** shown before the step plays: "what will B's EVAL return?" */
  prompt: Bilingual;
  /** 2–4 */
  choices: Choice[];
  answer: Answer;
  /**
   * The event that decides the answer. Until the learner answers, the cursor sits on the event just
   * before it (Predict mode on: nothing after the cursor, no verdict, no violation rows, no intro);
   * after the answer the player plays from there to the step's cursor. Without it: the previous
   * step's cursor on the same run, else the last event earlier in time than the step's cursor.
   * The evaluator checks that the event its answer reads lies after that cursor.
   */
  decides?: EventSelector;
  /** shown after the step played, whichever choice was picked: why the right one is right */
  feedback: Bilingual;
}

/**
 * An edit that meets the task's outcome while avoiding its point (deleting the fault, moving a
 * start time, shortening the work): answered "that works, but…" with `why`, never with `success`.
 */
export interface Dodge {
  /** holds at the end of the learner's run when they took this way round (checked when the goal fails) */
  when: Check;
  why: Bilingual;
  /** an edit that takes this way round (for the tests: the goal fails on it and `when` holds) */
  example: PatchOp[];
}

/**
 * A control beside the task for the change it asks for, instead of raw JSON: it sets every path
 * in `paths` (JSON Pointers into the scenario as written) to the chosen value.
 *   select  one of `options` (e.g. a lock type for every contender)
 *   number  a whole number of ms (a lease, a wait time, a fault's length)
 *   toggle  `value` set at every path when on; off sets `off`, or removes the paths without one
 *           (a renewal thread, a lock around each buyer)
 */
export interface TaskControl {
  kind: 'select' | 'number' | 'toggle';
  label: Bilingual;
  paths: string[];
  options?: string[];
  value?: unknown;
  off?: unknown;
}

/**
 * A task graded by the violation search (docs/explore.md): besides `goal`, the learner's scenario
 * must run safe as it is and the search, with these fixed options, must find no violation of the
 * listed kinds in `budget` schedules. The learner cannot change these options: only the scenario.
 */
export interface TaskSearch {
  budget: number;
  seed: number;
  /** the kinds of change the search may make (`--faults`), all of them by default */
  faults?: string[];
  /** the violation kinds that fail the task (`--violations`) */
  violations: ViolationKind[];
}

export interface Task {
  /** "your turn": what to change */
  prompt: Bilingual;
  hint?: Bilingual;
  /** controls for the change, shown next to the task */
  controls?: TaskControl[];
  /** ways round the point that the goal refuses, each with its own "that works, but…" */
  dodges?: Dodge[];
  /** what success means, in words (shown with the task) */
  goalText: Bilingual;
  /**
   * evaluated at the end of the learner's re-run of this step's scenario with their changes; it
   * checks the mechanism as well as the outcome (the fault still happens, the lock type or lease
   * asked for is the one used, the acquire counts are what the fix implies)
   */
  goal: Check;
  /** the task is also graded by the violation search: the goal is met only when it finds nothing */
  search?: TaskSearch;
  /** a known-good change (for the tests only: proves the goal is reachable) */
  solution: PatchOp[];
  /** shown when the goal is met: says only what the goal guarantees the learner's run did */
  success: Bilingual;
}

// ---------------------------------------------------------------------------------------------
// Lessons

/** Explore's options for a step (the page's defaults where absent); `faults` as `--faults` names them. */
export interface ExploreCall {
  prompt: Bilingual;
  faults?: string[];
  budget?: number;
  seed?: number;
}

export interface Highlights {
  /** lanes: thread actors and node ids */
  lanes?: Actor[];
  /** keys the step cites in the keyspace (it opens beside the lanes); `prefix*` as in a key check */
  keys?: string[];
  /** script lines: which script (`lock`, `unlock`, `renew`, or a sha) and its line numbers */
  script?: { script: string; lines: number[] };
  events?: EventSelector[];
}

/** A step's time window, between two events of its run (never bare times: timings shift). */
export interface StepZoom {
  from: EventSelector;
  to?: EventSelector;
}

export interface Step {
  claims: ClaimId[];
  /** absent: the previous step's scenario */
  scenario?: ScenarioRef;
  /** where the cursor stops */
  at?: EventSelector;
  text: Bilingual;
  highlight?: Highlights;
  checks?: Check[];
  question?: Question;
  task?: Task;
  /** how what the step shows differs from the tutorials' older Redisson (a box under the text) */
  tutorials?: Bilingual;
  /**
   * Releases whose scripts the tutorials show ("3.11.6"): the `tutorials` box offers to re-run the
   * step with each, at the same moment, and back to the step's own release.
   */
  tutorialsReleases?: string[];
  /** for the teacher: what to ask the room, what people get wrong (folded away under the step) */
  teacher?: Bilingual;
  /** the built-in's own intro text is about another topic than this step: hidden (its title stays) */
  hideIntro?: boolean;
  /**
   * The text quotes owner fields as Redis stores them (`<uuid>:<thread>`): the keyspace shows them
   * so (its "Real ids" box ticked) instead of as the thread's name, `A:1`.
   */
  realIds?: boolean;
  /**
   * The time window the timeline opens at (default: the whole run, as the learner left it), for a
   * moment too short to see at the whole run's zoom (a 10 ms hold in a 40 s run): from `from`'s
   * event to `to`'s (the step's cursor without `to`), a twentieth of that wider each side. A
   * question step opens at it once answered (before, it would point at the answer).
   */
  zoom?: StepZoom;
  /** "Can you break this? Let the search try": a button that opens Explore on the scenario shown */
  explore?: ExploreCall;
  /**
   * The engine cannot show this honestly yet: why (e.g. "needs a Java `try` op"). The step is
   * kept with its text; its scenario, cursor and checks are not evaluated, and the tests count it.
   */
  pending?: string;
}

/** The course's three parts: 1 naive locks by hand, 2 Redisson on one Redis, 3 beyond one node. */
export type Part = 1 | 2 | 3;

export interface Lesson {
  id: string;
  title: Bilingual;
  minutes: number;
  /** every lesson of the course has one (the tests check it) */
  part?: Part;
  /** what a learner can do after this lesson, in one sentence (every lesson of the course) */
  objective?: Bilingual;
  /** the engine cannot run this lesson yet (e.g. cluster): it is listed, its steps are not run */
  coming?: boolean;
  steps: Step[];
}
