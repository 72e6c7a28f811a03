/**
 * Builders for scenario JSON, for the built-ins and the tests. Most scenarios are "client X's
 * thread 1 runs this program"; spelled out, the nesting took a dozen lines each time and hid the
 * one value that differed. They build the JSON as written (defaults omitted, keys in the order a
 * person would type them), not the validated Scenario, so the editor shows what it always did.
 */

/** One client with one thread (id 1 unless given). */
export function client(id: string, program: unknown[], opts: { start?: number; thread?: number } = {}) {
  const { start, thread = 1 } = opts;
  return { id, threads: [{ id: thread, ...(start === undefined ? {} : { start }), program }] };
}

/**
 * lock, then `ms` of work (`use` when a resource write should be recorded), then unlock. Extra
 * fields (leaseMs, type, …) go on the lock op.
 */
export function hold(
  lock: string,
  ms: number,
  opts: { body?: 'work' | 'use' } & Record<string, unknown> = {},
) {
  const { body = 'work', ...lockFields } = opts;
  return [
    { op: 'lock', lock, ...lockFields },
    { op: body, ms },
    { op: 'unlock', lock },
  ];
}

/** A scenario of these clients; `extra` adds faults, until, redis, … */
export function scenario(clients: unknown[], extra: object = {}) {
  return { format: 'lockscope/1' as const, clients, ...extra };
}
