/**
 * English strings only the search panel (src/ui/explore/ExplorePanel.tsx) uses: its chunk registers
 * them (`addEnglish`) when it loads, so the first screen does without them. One home per string: a
 * key is here or in en.ts, never both; zh.ts has every key (typed against `MessageKey`, the union
 * of the tables).
 */
export const enExplore = {
  'explore.title': 'Explore: can this scenario break?',
  'explore.close': 'Close',
  'explore.budget': 'Schedules to try',
  'explore.seed': 'Search seed',
  'explore.kinds': 'Kinds of fault the search may add',
  'explore.kind.pause': 'client pause (GC, VM stall)',
  'explore.kind.client-crash': 'client crash',
  'explore.kind.node-crash': 'node crash and restart',
  'explore.kind.partition': 'network partition and heal',
  'explore.kind.clock': 'clock jump',
  'explore.kind.replica-lag': 'replica lag',
  'explore.kind.interrupt': 'thread interrupt',
  'explore.kind.move': 'move the scenario’s own faults',
  'explore.start': 'Start the search',
  'explore.cancel': 'Cancel',
  'explore.noKinds': 'Pick at least one kind of fault.',
  'explore.workers': '{n} workers',
  'explore.phase.planning': 'Running the scenario once to find its interesting moments…',
  'explore.phase.searching': 'Searching…',
  'explore.phase.shrinking': 'Found one. Shrinking it to the smallest schedule that still breaks…',
  'explore.tried': '{n} of {budget} schedules tried',
  'explore.rate': '{n} per second',
  'explore.hits': 'violations found: {n}',
  'explore.found': 'Found {kind} on {lock} at schedule #{index} ({tried} schedules tried in {s} s).',
  'explore.diff': 'What the search changed',
  'explore.showViolation': 'Show the violation',
  'explore.back': 'Back to the scenario before',
  'explore.nothing': 'No new violation in {tried} schedules (budget {budget}, search seed {seed}, {s} s).',
  'explore.nothingNone': 'Nothing was tried: none of the chosen kinds of fault applies to this scenario.',
  'explore.inapplicable': 'Not applicable to this scenario: {kinds}.',
  'explore.baseViolations': 'Violations the scenario already has are not counted: only new ones.',
  'explore.cancelled': 'Cancelled after {n} schedules.',
  'explore.error': 'The search failed: {msg}',
  'explore.change.added': 'added',
  'explore.change.moved': 'moved',
  'explore.kind.latency': 'latency spike',
} as const;
