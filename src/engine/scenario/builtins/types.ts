/** A built-in scenario: the JSON a user could have typed, plus how the library presents it. */
export interface BuiltinScenario {
  id: string;
  title: string;
  titleZh: string;
  /** what it teaches, in a sentence or three */
  description: string;
  descriptionZh: string;
  /** the picker section it belongs in */
  group: 'basics' | 'naive' | 'watchdog' | 'failures' | 'replication' | 'cluster' | 'other' | 'incidents';
  /** a real incident this run reproduces (group `incidents`): where it was reported and why */
  incident?: IncidentInfo;
  /** scenario JSON as written (defaults omitted); validateScenario fills in the rest */
  scenario: { format: 'lockscope/1' } & Record<string, unknown>;
}

/** Text in both languages. */
export interface Bilingual {
  en: string;
  zh: string;
}

/**
 * The families of docs/incidents.md: unlock failures, the watchdog, FairLock queues, failover and
 * replicas, subscriptions, design confusions, a transaction committed after the unlock.
 */
export type IncidentFamily =
  'unlock' | 'watchdog' | 'fair' | 'failover' | 'subscription' | 'design' | 'transaction';

/** A real, public Redisson-lock problem, as the gallery presents it beside its run. */
export interface IncidentInfo {
  family: IncidentFamily;
  /** the public threads, the main one first */
  links: readonly string[];
  /**
   * the Redisson release the user reported: a release ("3.11.6", "3.11.x–3.12.0"), "any" when every
   * release behaves so, "not stated" when the thread names none
   */
  reported: string;
  /** the release that fixed it, when one did */
  fixedIn?: string;
  /** what the user saw, in their terms */
  symptom: Bilingual;
  /** the root cause as the maintainers explained it, or as Redisson's code at the tag shows */
  cause: Bilingual;
  /** what a user might type to find it: exception names, symptoms, in English and 中文 */
  keywords: readonly string[];
  /** the verdict the run gives, which the tests hold it to */
  verdict: 'safe' | 'unsafe' | 'stuck';
  /** the built-in that runs the same story on the fixed release (or with the remedy) */
  pair?: string;
  /** set on that paired run: the incident it answers */
  pairOf?: string;
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
