/** Groups of the scenario picker. A built-in may name its group; otherwise its id decides. */
import type { BuiltinInfo } from './engine-adapter';
import type { MessageKey } from './i18n';

export const GROUPS = [
  'basics',
  'naive',
  'watchdog',
  'failures',
  'replication',
  'cluster',
  'other',
  'incidents',
] as const;
export type Group = (typeof GROUPS)[number];

export const GROUP_LABEL: Record<Group, MessageKey> = {
  basics: 'group.basics',
  naive: 'group.naive',
  watchdog: 'group.watchdog',
  failures: 'group.failures',
  replication: 'group.replication',
  cluster: 'group.cluster',
  other: 'group.other',
  incidents: 'group.incidents',
};

const RULES: [Group, RegExp][] = [
  ['incidents', /^incident-/],
  ['cluster', /^cluster/],
  ['naive', /naive|setnx|set-nx|get-del|teaching/],
  ['replication', /failover|replica|replication|sentinel|split-brain|wait|synced|slave/],
  ['watchdog', /watchdog|renew|lease|gc|pause/],
  ['failures', /crash|partition|clock|restart|redlock|fenc|interrupt|fail|delay/],
  ['basics', /basic|reentr|contention|fair|read|write|spin|multi|hello|intro|two|lock/],
];

/** Where the id alone would mislead. */
const BY_ID: Record<string, Group> = {
  'redlock-happy': 'basics',
  'redlock-pause-after-validity': 'failures',
  'stock-oversell-no-lock': 'naive',
};

export function groupOf(b: Pick<BuiltinInfo, 'id' | 'group'>): Group {
  if (b.group && (GROUPS as readonly string[]).includes(b.group)) return b.group as Group;
  if (BY_ID[b.id]) return BY_ID[b.id];
  const id = b.id.toLowerCase();
  for (const [g, re] of RULES) if (re.test(id)) return g;
  return 'other';
}
