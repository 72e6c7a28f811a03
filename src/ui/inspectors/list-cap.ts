/**
 * How many rows an inspector lists before it says how many more there are. While playing, the
 * inspectors re-render ten times a second: 10,000 keys or 1,000 threads as table rows took the
 * page below 5 fps, and a list that long is read on the timeline (every lane is there), not here.
 */
export const MAX_LISTED = 200;

/** The rows to list, and how many there are in all (the caller says so when it is more). */
export function capList<T>(rows: readonly T[]): { listed: readonly T[]; total: number } {
  return { listed: rows.length > MAX_LISTED ? rows.slice(0, MAX_LISTED) : rows, total: rows.length };
}
