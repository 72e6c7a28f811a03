/**
 * Where a run stops when nothing else stops it (docs/scenario-format.md). A module of its own, with
 * no imports: the page's verdict quotes the time cap, and defaults.ts (which re-exports these)
 * would bring the release table into the page's first chunk with it.
 */

/** Virtual ms a scenario without `until` may run before the runner stops it. */
export const DEFAULT_RUN_CAP_MS = 600_000;
/** Events a run may record before it is stopped (a runaway program, not a realistic scenario). */
export const MAX_EVENTS = 2_000_000;
