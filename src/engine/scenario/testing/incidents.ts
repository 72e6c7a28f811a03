/** Test-only readers of an incident's run: the errors a thread got and the violations, in words. */
import type { Simulation } from '../../redisson/testing/simulate';

/** Each recorded result of `actor` as its error text ('' for a result that is not an error). */
export const errorOf = (s: Simulation, actor: string) =>
  s.results(actor).map((r) => String((r as { error?: string } | null)?.error ?? ''));

/** `V1 A:1+B:1`, `L5 A:1`, … in the order they were found. */
export const kinds = (s: Simulation) => s.violations.map((v) => `${v.kind} ${v.holders.join('+')}`);

/** Whether a recorded reply is an error reply. */
export const isError = (r: unknown) => typeof r === 'object' && r !== null && 'error' in r;
