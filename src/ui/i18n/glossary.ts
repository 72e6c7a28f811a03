/**
 * The glossary: the terms a learner meets in captions, scenario texts and the legend, in both
 * languages. `match` finds a term in running text so it can link to its entry (captions and
 * descriptions link the first mention of each term). Wording checked against the reference notes
 * on Redisson's lock code and Redis 7.0 (Sentinel, replication, cluster). The entries' text is in
 * glossary-text.ts, loaded when the glossary opens: the first screen needs only titles and matches.
 */
import type { Lang } from '.';

export type TermId =
  | 'lease'
  | 'watchdog'
  | 'wait'
  | 'fencing'
  | 'v1'
  | 'v2'
  | 'v3'
  | 'l1'
  | 'liveness'
  | 'down-after'
  | 'quorum'
  | 'failover'
  | 'reentrancy'
  | 'pubsub'
  | 'moved'
  | 'unlock-latch';

export interface Term {
  id: TermId;
  title: Record<Lang, string>;
  /** where the term appears in running text; the first match links to the entry */
  match: Record<Lang, RegExp>;
}

export const GLOSSARY: readonly Term[] = [
  {
    id: 'lease',
    title: { en: 'Lease (the lock’s TTL)', zh: '租期（锁的 TTL）' },
    match: { en: /\bleases?\b|\bTTL\b/i, zh: /租期|(?<![A-Za-z])TTL(?![A-Za-z])/ },
  },
  {
    id: 'watchdog',
    title: { en: 'Watchdog (lockWatchdogTimeout)', zh: '看门狗（lockWatchdogTimeout）' },
    match: { en: /\bwatchdog\b/i, zh: /看门狗/ },
  },
  {
    id: 'wait',
    title: { en: 'WAIT numreplicas timeout', zh: 'WAIT numreplicas timeout' },
    match: { en: /\bWAIT\b/, zh: /\bWAIT\b/ },
  },
  {
    id: 'fencing',
    title: { en: 'Fencing token', zh: '防护令牌（fencing token）' },
    match: { en: /\bfencing\b|\btokens?\b/i, zh: /fencing|token|令牌/i },
  },
  {
    id: 'v1',
    title: { en: 'V1: two holders at once', zh: 'V1：同时有两个持有者' },
    match: { en: /\bV1\b/, zh: /\bV1\b/ },
  },
  {
    id: 'v2',
    title: { en: 'V2: two live leases on masters', zh: 'V2：两个主节点上同时有有效租期' },
    match: { en: /\bV2\b/, zh: /\bV2\b/ },
  },
  {
    id: 'v3',
    title: { en: 'V3: a write that should have been refused', zh: 'V3：本应被拒绝的写入' },
    match: { en: /\bV3\b/, zh: /\bV3\b/ },
  },
  {
    id: 'l1',
    title: { en: 'L1: a stuck lock (liveness)', zh: 'L1：锁卡死（活性）' },
    match: { en: /\bL1\b|\bstuck\b/i, zh: /\bL1\b|卡死/ },
  },
  {
    id: 'liveness',
    title: { en: 'L2–L7: waits that will not end (liveness)', zh: 'L2–L7：不会结束的等待（活性）' },
    match: { en: /\bL[2-7]\b|\blivelock\b|\bstarvation\b/i, zh: /\bL[2-7]\b|活锁|饥饿/ },
  },
  {
    id: 'down-after',
    title: { en: 'down-after-milliseconds (SDOWN, ODOWN)', zh: 'down-after-milliseconds（SDOWN、ODOWN）' },
    match: {
      en: /down-after|\bSDOWN\b|\bODOWN\b|subjectively down|objectively down/i,
      zh: /down-after|SDOWN|ODOWN|主观下线|客观下线/,
    },
  },
  {
    id: 'quorum',
    title: { en: 'Quorum', zh: 'Quorum（法定人数）' },
    match: { en: /\bquorum\b/i, zh: /quorum|法定人数/i },
  },
  {
    id: 'failover',
    title: { en: 'Failover', zh: '故障转移（failover）' },
    match: { en: /\bfail-?over\b|\bpromot\w*/i, zh: /故障转移|提升/ },
  },
  {
    id: 'reentrancy',
    title: { en: 'Reentrancy and the hold count', zh: '可重入与持有次数' },
    match: { en: /\bre-?entr\w*|\bhold count\b/i, zh: /重入/ },
  },
  {
    id: 'pubsub',
    title: { en: 'Pub/sub wake-up', zh: '发布/订阅唤醒' },
    match: { en: /pub\/sub|\bpublish\w*|\bsubscri\w*/i, zh: /发布|订阅/ },
  },
  {
    id: 'moved',
    title: { en: 'Cluster: slots and MOVED', zh: '集群：槽位与 MOVED' },
    match: { en: /\bMOVED\b|\bslots?\b/, zh: /MOVED|槽位/ },
  },
  {
    id: 'unlock-latch',
    title: { en: 'Unlock latch (Redisson 3.24+)', zh: '解锁 latch（Redisson 3.24+）' },
    match: { en: /redisson_unlock_latch|\bunlock latch\b/i, zh: /redisson_unlock_latch|解锁 latch/ },
  },
];

export function termById(id: TermId): Term {
  const term = GLOSSARY.find((g) => g.id === id);
  if (!term) throw new Error(`unknown glossary term ${id}`);
  return term;
}

export type Linked = { text: string; term?: TermId };

/**
 * Splits running text into plain runs and the first mention of each glossary term, so each
 * term can link to its entry. Terms already linked earlier (`seen`) are left plain.
 */
export function linkTerms(text: string, lang: Lang, seen: Set<TermId> = new Set()): Linked[] {
  const out: Linked[] = [];
  let rest = text;
  for (;;) {
    let best: { at: number; len: number; id: TermId } | null = null;
    for (const g of GLOSSARY) {
      if (seen.has(g.id)) continue;
      const m = g.match[lang].exec(rest);
      if (m && (best === null || m.index < best.at)) best = { at: m.index, len: m[0].length, id: g.id };
    }
    if (best === null) break;
    if (best.at > 0) out.push({ text: rest.slice(0, best.at) });
    out.push({ text: rest.slice(best.at, best.at + best.len), term: best.id });
    seen.add(best.id);
    rest = rest.slice(best.at + best.len);
  }
  if (rest) out.push({ text: rest });
  return out;
}
