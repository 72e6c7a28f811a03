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

/**
 * A built-in, its id first as the library lists it. The scenario JSON gets the format line and the
 * picker's title unless it names its own (a shorter one fits the editor's header).
 */
export function defineBuiltin(
  id: string,
  spec: Omit<BuiltinScenario, 'id' | 'scenario'> & { scenario: { title?: string } & Record<string, unknown> },
): BuiltinScenario {
  const { scenario, ...text } = spec;
  return { id, ...text, scenario: { format: 'lockscope/1', title: text.title, ...scenario } };
}
