/**
 * English strings only the compare panel (src/ui/compare/ComparePanel.tsx) uses: its chunk
 * registers them (`addEnglish`) when it loads, so the first screen does without them. One home per
 * string: a key is here or in en.ts, never both; zh.ts has every key (typed against `MessageKey`,
 * the union of the tables).
 */
export const enCompare = {
  'compare.title': 'Compare two scenarios',
  'compare.with': 'Compare with',
  'compare.before': 'This scenario before my edits',
  'compare.close': 'Close compare',
  'compare.presets': 'Broken and fixed pairs',
  'compare.preset.race': 'GET/DEL race vs Lua fix',
  'compare.preset.wait': 'Failover without vs with WAIT',
  'compare.preset.fencing': 'GC pause without vs with fencing',
  'compare.at': 'event {i} of {n} · {t} ms',
  'compare.clickHint': 'Click to move the shared cursor',
  'compare.failed': 'This scenario could not be run.',
} as const;
