/**
 * The kinds of change a search may make, named for `--faults` and the page's checkboxes. A module
 * of their own: the page's engine worker offers them at start-up without loading the search.
 */
export const EXPLORE_FAULT_KINDS = [
  'pause',
  'client-crash',
  'node-crash',
  'partition',
  'clock',
  'replica-lag',
  'interrupt',
  'move',
  // appended: a kind inserted earlier would change every existing seed's schedules
  'latency',
] as const;
export type ExploreFaultKind = (typeof EXPLORE_FAULT_KINDS)[number];
