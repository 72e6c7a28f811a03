/**
 * What several lessons say the same way: builders for the checks, answers and patches they repeat,
 * and the checks that lessons on the same built-in share (the events they point at are built in
 * ./events). Data only, like the lessons themselves (no engine imports), so a lesson still reads as
 * its own JSON. Each builder writes its fields in the order the lessons always wrote them by hand,
 * so a lesson's JSON does not change when it switches to a builder.
 */
import type {
  Actor,
  Answer,
  Bilingual,
  Check,
  Choice,
  Dodge,
  EventSelector,
  Highlights,
  KeyCheck,
  PatchOp,
  Task,
  TaskControl,
  ThreadCheck,
  ThreadState,
} from '../types';

/** An inclusive range, as `count` and `gap` checks take it. */
export interface Range {
  min?: number;
  max?: number;
}

// ---------------------------------------------------------------------------------------------
// Checks

/** `owner`'s field in the hash `key` is `count` (null: absent); `more`: its node, type, field count, PTTL. */
export const holds = (
  key: string,
  owner: Actor,
  count: number | null,
  more: Pick<KeyCheck, 'node' | 'is' | 'fields' | 'pttl'> = {},
): KeyCheck => {
  const { node, is, fields, pttl } = more;
  return {
    key,
    ...(node === undefined ? {} : { node }),
    ...(is === undefined ? {} : { is }),
    ...(fields === undefined ? {} : { fields }),
    holder: { owner, count },
    ...(pttl === undefined ? {} : { pttl }),
  };
};

/** `key` does not exist (on `node`, when given). */
export const absent = (key: string, node?: string): KeyCheck =>
  node === undefined ? { key, is: 'absent' } : { key, node, is: 'absent' };

/** `thread` believes it holds `lock` `count` times (`more`: its state, its last result). */
export const threadHolds = (
  thread: Actor,
  lock: string,
  count: number,
  more: { state?: ThreadState; lastResult?: unknown } = {},
): ThreadCheck => ({
  thread,
  ...(more.state === undefined ? {} : { state: more.state }),
  ...('lastResult' in more ? { lastResult: more.lastResult } : {}),
  holds: { lock, count },
});

/** The cursor's lock script did not hand `thread` the lock: it got a TTL back and holds nothing. */
export const turnedAway = (thread: Actor, lock = 'myLock'): Check[] => [
  { not: { reply: null } },
  threadHolds(thread, lock, 0),
];

/** Two holders of `lock` at once (`V1`), `a` and `b`, begun by the cursor. */
export const v1 = (lock: string, a: Actor, b: Actor): Check => ({ violation: 'V1', lock, holders: [a, b] });

/** Like v1, and the overlap is still going on at the cursor. */
export const openV1 = (lock: string, a: Actor, b: Actor): Check => ({
  violation: 'V1',
  lock,
  open: true,
  holders: [a, b],
});

/** How many `sel` events happened by the cursor. */
export const count = (sel: EventSelector, range: Range): Check => ({ count: sel, ...range });
export const exactly = (n: number, sel: EventSelector): Check => count(sel, { min: n, max: n });
export const atLeast = (n: number, sel: EventSelector): Check => count(sel, { min: n });
export const none = (sel: EventSelector): Check => count(sel, { max: 0 });

/** The ms from `from`'s event to `to`'s lie in `range`. */
export const gap = (from: EventSelector, to: EventSelector, range: Range): Check => ({
  gap: { from, to },
  ...range,
});

/** In `fencing-saves-gc-pause`: the fenced lock's token counter after B:1's acquire (A:1 got 1). */
export const tokenCounterIs2: KeyCheck = { key: 'redisson_lock_token:{res}', value: '2' };

// ---------------------------------------------------------------------------------------------
// Highlights

/** Lines `first` to `last` of a script (`lock`, `unlock`, `renew`), for a step's highlight. */
export const scriptLines = (
  script: string,
  first: number,
  last: number,
): NonNullable<Highlights['script']> => ({
  script,
  lines: Array.from({ length: last - first + 1 }, (_, i) => first + i),
});

// ---------------------------------------------------------------------------------------------
// Questions and tasks

/**
 * One answer of a question: its id, the value the trace's answer is compared with, its text, and
 * (every wrong one) its own feedback: why it is tempting, what the run shows instead.
 */
export const choice = (id: string, value: unknown, en: string, zh: string, why?: Bilingual): Choice => ({
  id,
  value,
  text: { en, zh },
  ...(why === undefined ? {} : { why }),
});

/** A wrong choice's feedback, in both languages. */
export const why = (en: string, zh: string): Bilingual => ({ en, zh });

/** The answers a question computes from the step's run (types.ts, Answer). */
export const replyOf = (selector: EventSelector): Answer => ({ from: 'reply-of', selector });
export const timeOf = (selector: EventSelector): Answer => ({ from: 'time-of', selector });
export const actorOf = (selector: EventSelector): Answer => ({ from: 'actor-of', selector });
export const fieldOf = (selector: EventSelector, field: string): Answer => ({
  from: 'field-of',
  selector,
  field,
});
export const whether = (check: Check): Answer => ({ from: 'holds', check });

/**
 * Sets `field` on the lock op that starts each given client's program: the lessons switch every
 * contender to another lock type at once, or none of them would be protected.
 */
export const onFirstOps = (
  op: 'add' | 'replace',
  field: string,
  value: unknown,
  clients: number[] = [0, 1],
): PatchOp[] => clients.map((c) => ({ op, path: `/clients/${c}/threads/0/program/0/${field}`, value }));

/**
 * A task's prompt, written as the rest of the sentence after "Your turn:". The task box's own
 * heading already says "Your turn" (learn.task), so the prompt starts with its first word.
 */
export const yourTurn = (en: string, zh: string): Bilingual => ({
  en: en.charAt(0).toUpperCase() + en.slice(1),
  zh,
});

/** A task's goal that no `V1` (two holders at once) happens on `lock`, with its text. */
export const noV1Goal = (lock: string): Pick<Task, 'goalText' | 'goal'> => ({
  goalText: { en: `No \`V1\` on \`${lock}\`.`, zh: `\`${lock}\` 上没有 \`V1\`。` },
  goal: { noViolation: 'V1', lock },
});

/** A way round a task's point that its goal refuses: when it holds, "that works, but…" and why. */
export const dodge = (when: Check, en: string, zh: string, example: PatchOp[]): Dodge => ({
  when,
  why: { en, zh },
  example,
});

/** The path of the first op of each given client's first thread (the lock op the lessons change). */
export const firstOpPaths = (field: string, clients: number[] = [0, 1]): string[] =>
  clients.map((c) => `/clients/${c}/threads/0/program/0/${field}`);

/** A lock-type picker for the lock op of every given client at once. */
export const lockTypeControl = (options: string[], clients: number[] = [0, 1]): TaskControl => ({
  kind: 'select',
  label: { en: 'Lock type', zh: '锁类型' },
  paths: firstOpPaths('type', clients),
  options,
});

/** A number field (ms) for the given paths. */
export const msControl = (en: string, zh: string, paths: string[]): TaskControl => ({
  kind: 'number',
  label: { en, zh },
  paths,
});

/** A switch that sets `value` at each path when on, and `off` (or removes them) when off. */
export const toggleControl = (
  en: string,
  zh: string,
  paths: string[],
  value: unknown,
  off?: unknown,
): TaskControl => ({
  kind: 'toggle',
  label: { en, zh },
  paths,
  value,
  ...(off === undefined ? {} : { off }),
});
