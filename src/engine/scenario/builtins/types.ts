/** A built-in scenario: the JSON a user could have typed, plus how the library presents it. */
export interface BuiltinScenario {
  id: string;
  title: string;
  titleZh: string;
  /** what it teaches, in a sentence or three */
  description: string;
  descriptionZh: string;
  /** the picker section it belongs in */
  group: 'basics' | 'naive' | 'watchdog' | 'failures' | 'replication' | 'cluster' | 'other';
  /** scenario JSON as written (defaults omitted); validateScenario fills in the rest */
  scenario: { format: 'lockscope/1' } & Record<string, unknown>;
}
