/**
 * Builders for scenario JSON, for the built-ins and the tests. Most scenarios are "client X's
 * thread 1 runs this program"; spelled out, the nesting took a dozen lines each time and hid the
 * one value that differed. They build the JSON as written (defaults omitted, keys in the order a
 * person would type them), not the validated Scenario, so the editor shows what it always did.
 */

/** One thread of a client; `start` is left out when not given. */
export function thread(id: number, program: unknown[], start?: number) {
  return { id, ...(start === undefined ? {} : { start }), program };
}

/** One client with one thread (id 1 unless given). */
export function client(id: string, program: unknown[], opts: { start?: number; thread?: number } = {}) {
  const { start, thread: threadId = 1 } = opts;
  return { id, threads: [thread(threadId, program, start)] };
}

/** A client with several threads (see `thread`). */
export function clientOf(id: string, ...threads: ReturnType<typeof thread>[]) {
  return { id, threads };
}

/**
 * lock (or `acquire`: tryLock), then `ms` of work (`use` when a resource write should be
 * recorded), then unlock. Extra fields (leaseMs, waitMs, type, …) go on the acquiring op.
 */
export function hold(
  lock: string,
  ms: number,
  opts: { body?: 'work' | 'use'; acquire?: string } & Record<string, unknown> = {},
) {
  const { body = 'work', acquire = 'lock', ...lockFields } = opts;
  return [
    { op: acquire, lock, ...lockFields },
    { op: body, ms },
    { op: 'unlock', lock },
  ];
}

/**
 * The ops on one lock that the unlock must name as well (FairLock, ReadLock, MultiLock, …):
 * `op` on `lock` of `type`, with `more` fields on every op (a MultiLock's locks) and `extra` on one.
 */
export const lockOps =
  (lock: string, type: string, more: Record<string, unknown> = {}) =>
  (op: string, extra: Record<string, unknown> = {}) => ({ op, lock, type, ...more, ...extra });

/**
 * `hold` for a lock whose unlock must name it as well (FairLock, ReadLock, RedLock, …): `as(op,
 * extra)` makes an op on that lock. `acquire` is the acquiring op (lock unless given); the other
 * extra fields (leaseMs, waitMs, …) go on it.
 */
export function holdAs<O extends object>(
  as: (op: string, extra?: Record<string, unknown>) => O,
  ms: number,
  opts: { body?: 'work' | 'use'; acquire?: string } & Record<string, unknown> = {},
) {
  const { body = 'work', acquire = 'lock', ...extra } = opts;
  return [as(acquire, extra), { op: body, ms }, as('unlock')];
}

/**
 * The two-client story many built-ins tell: A holds `lock` for `t.a` ms from 0, B holds it for
 * `t.b` ms from `t.bStart`. `opts` go on both holds, `aOpts` (A's own lease, …) on A's only.
 */
export function aThenB(
  lock: string,
  t: { a: number; b: number; bStart: number },
  opts: Parameters<typeof hold>[2] = {},
  aOpts: Record<string, unknown> = {},
) {
  return [
    client('A', hold(lock, t.a, { ...opts, ...aOpts })),
    client('B', hold(lock, t.b, opts), { start: t.bStart }),
  ];
}

/** A scenario of these clients; `extra` adds faults, until, redis, … */
export function scenario(clients: unknown[], extra: object = {}) {
  return { format: 'lockscope/1' as const, clients, ...extra };
}
