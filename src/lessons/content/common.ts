/**
 * What several lessons say the same way: the selectors and patches they share. Data only, like
 * the lessons themselves (no engine imports), so a lesson still reads as its own JSON.
 */
import type { Choice, EventSelector, PatchOp, Task } from '../types';

/** The moment `actor` got the lock (its first acquire unless `nth` says otherwise). */
export const acquired = (actor: string): EventSelector => ({ kind: 'lock.acquired', actor });

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

/** One answer of a question: its id, the value the trace's answer is compared with, its text. */
export const choice = (id: string, value: unknown, en: string, zh: string): Choice => ({
  id,
  value,
  text: { en, zh },
});

/** A task's goal that no `V1` (two holders at once) happens on `lock`, with its text. */
export const noV1Goal = (lock: string): Pick<Task, 'goalText' | 'goal'> => ({
  goalText: { en: `No \`V1\` on \`${lock}\`.`, zh: `\`${lock}\` 上没有 \`V1\`。` },
  goal: { noViolation: 'V1', lock },
});
