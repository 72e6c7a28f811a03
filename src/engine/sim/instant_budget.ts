/**
 * How many times a process may resume at one virtual instant before the run is stopped as stuck
 * there (trace `truncatedBy: 'instant'`): a loop that never lets virtual time pass is a bug in the
 * model, and without a bound it would hold a run, a search shard or the page's worker for ever.
 *
 * Legitimate work at one instant grows with a thread's program: at `latencyMs` 0 every reply comes
 * back at the instant it was sent, and one op of a MultiLock of seven locks resumes its thread about
 * 15 times (10,000 such ops: 145,019 resumes at t=0). The budget is 100,000 resumes plus 200 per op
 * of the thread's expanded program, so a 10,000-op thread may resume 2.1 M times at one instant,
 * and a process without a program (a watchdog, a pub/sub listener) 100,000 times.
 */
export const INSTANT_RESUMES_BASE = 100_000;
export const INSTANT_RESUMES_PER_STEP = 200;

export function resumesAtOneInstant(steps: number): number {
  return INSTANT_RESUMES_BASE + INSTANT_RESUMES_PER_STEP * steps;
}
