/**
 * The legend's entries for a run: the common marks always, the rarer ones when this run draws
 * them. Shared by the on-screen legend and the exported images, so both list the same marks.
 */
import type { MessageKey } from '../i18n';
import type { LaneModel, MarkKind } from './model';
import { BAND_COLOR, COLORS, MARK_COLOR, SENTINEL_COLOR } from './palette';
import { isLiveness } from '../../engine/trace/types';

export type Shape =
  | 'box'
  | 'tick'
  | 'short-tick'
  | 'dot'
  | 'ring'
  | 'cross'
  | 'refused'
  | 'diamond'
  | 'triangle'
  | 'dash'
  | 'tag'
  | 'added';

export interface LegendItem {
  key: MessageKey;
  color: string;
  shape: Shape;
  /** a box's fill when it differs from its edge colour */
  fill?: string;
}

/**
 * Which of the marks that only some runs have this run draws; with `until`, only those drawn by
 * then (predict mode hides the rest of the run, and a legend entry such as "liveness finding"
 * would tell what the veil hides).
 */
function inUse(model: LaneModel | undefined, until = Infinity) {
  const marks = new Set<MarkKind>();
  const bands = new Set<string>();
  let partial = false;
  let releasing = false;
  let noTtl = false;
  const began = (s: { from: number }) => s.from <= until;
  // Spans too short to see at the whole-run zoom would only add noise to the key.
  const visible = (s: { from: number; to: number }) => began(s) && s.to - s.from >= (model?.tEnd ?? 0) / 200;
  for (const l of model?.threads ?? []) {
    for (const m of l.marks) if (m.t <= until) marks.add(m.kind);
    for (const b of l.bands) if (began(b)) bands.add(b.kind);
    if (l.partial.some(visible)) partial = true;
    if (l.holds.some((h) => h.releasing && visible(h))) releasing = true;
  }
  const nodes = model?.nodes ?? [];
  for (const n of nodes) if (n.keys.some((k) => k.expireAt === null && k.label && began(k))) noTtl = true;
  const sentinels = model?.sentinels ?? null;
  const violations = (model?.violations ?? []).filter(began);
  return {
    marks,
    bands,
    partial,
    releasing,
    noTtl,
    down: nodes.some((n) => n.down.some(began)),
    busy: nodes.some((n) => (n.busy ?? []).some(began)),
    starved: (model?.threads ?? []).some((l) => (l.starved ?? []).some(began)),
    subWait: (model?.threads ?? []).some((l) => (l.subWait ?? []).some(began)),
    roles: nodes.some((n) => n.roles.some((r) => r.from > 0 && began(r))),
    pubsub: model?.arrows.some((a) => a.kind === 'pubsub' && a.t0 <= until) ?? false,
    repl: model?.arrows.some((a) => a.kind === 'repl' && a.t0 <= until) ?? false,
    partition: (model?.partitions ?? []).some(began),
    latency: (model?.latency ?? []).some(began),
    sentinels:
      sentinels && {
        marks: sentinels.marks.filter((m) => m.t <= until),
        failovers: sentinels.failovers.filter(began),
        kind: sentinels.kind,
      },
    stuck: violations.some((v) => v.kind === 'L1'),
    liveness: violations.some((v) => v.kind !== 'L1' && isLiveness(v.kind)),
    safety: violations.some((v) => !isLiveness(v.kind)),
  };
}

export function legendItems(
  model: LaneModel | undefined,
  opts: { faults?: boolean; searched?: boolean; until?: number } = {},
): LegendItem[] {
  const use = inUse(model, opts.until);
  const out: LegendItem[] = [];
  const add = (on: boolean, key: MessageKey, color: string, shape: Shape = 'box', fill?: string) => {
    if (on) out.push(fill === undefined ? { key, color, shape } : { key, color, shape, fill });
  };
  const mark = (k: MarkKind) => use.marks.has(k);
  add(true, 'legend.running', BAND_COLOR.running);
  add(true, 'legend.working', BAND_COLOR.working);
  add(true, 'legend.waiting', BAND_COLOR.waiting);
  add(use.bands.has('sleeping'), 'legend.sleeping', BAND_COLOR.sleeping);
  add(true, 'legend.holding', COLORS.hold);
  add(use.releasing, 'legend.releasing', COLORS.hold, 'box', COLORS.releasing);
  add(use.partial, 'legend.partial', COLORS.hold, 'box', COLORS.partial);
  add(use.bands.has('paused'), 'legend.paused', BAND_COLOR.paused);
  add(use.bands.has('crashed'), 'legend.crashed', BAND_COLOR.crashed);
  add(true, 'legend.key', COLORS.keyEdge);
  add(use.noTtl, 'legend.keyNoTtl', COLORS.keyEdge, 'box', COLORS.keyNoTtl);
  add(use.down, 'legend.down', COLORS.down);
  add(use.roles, 'legend.roleTag', COLORS.roleTag, 'tag');
  add(mark('renew') || !mark('renew-fail'), 'legend.renewAttempt', MARK_COLOR.renew, 'tick');
  add(mark('renew-fail'), 'legend.renewFail', MARK_COLOR['renew-fail'], 'tick');
  add(mark('poll'), 'legend.poll', MARK_COLOR.poll, 'short-tick');
  add(use.pubsub, 'legend.publish', COLORS.pubsub, 'tick');
  add(use.repl, 'legend.repl', COLORS.repl, 'dash');
  add(mark('wake-message'), 'legend.wakeMsg', MARK_COLOR['wake-message'], 'dot');
  add(mark('wake-timeout'), 'legend.wakeTimeout', MARK_COLOR['wake-timeout'], 'ring');
  add(mark('error'), 'legend.error', MARK_COLOR.error, 'cross');
  add(mark('timeout'), 'legend.callTimeout', MARK_COLOR.timeout, 'dash');
  add(mark('late'), 'legend.lateReply', MARK_COLOR.late, 'short-tick');
  add(use.busy, 'legend.nodeBusy', COLORS.busyEdge, 'box', COLORS.busy);
  add(use.starved, 'legend.starved', COLORS.busyEdge);
  add(use.subWait, 'legend.subWait', COLORS.subWait);
  add(mark('sub-timeout'), 'legend.subTimeout', MARK_COLOR['sub-timeout'], 'dash');
  add(mark('resource'), 'legend.write', MARK_COLOR.resource, 'dot');
  add(mark('refused'), 'legend.refused', MARK_COLOR.refused, 'refused');
  const s = use.sentinels;
  add(
    s !== null && s.failovers.length > 0,
    'legend.failover',
    SENTINEL_COLOR.odown,
    'box',
    SENTINEL_COLOR.failover,
  );
  // The same marks mean the cluster's own steps when its masters, not Sentinels, run the failover.
  const cluster = s?.kind === 'cluster';
  add(
    s?.marks.some((m) => m.kind === 'sdown' || m.kind === 'odown') ?? false,
    cluster ? 'legend.pfail' : 'legend.sdown',
    SENTINEL_COLOR.odown,
    'tick',
  );
  add(
    s?.marks.some((m) => m.kind === 'leader') ?? false,
    cluster ? 'legend.election' : 'legend.leader',
    SENTINEL_COLOR.leader,
    'diamond',
  );
  add(
    s?.marks.some((m) => m.kind === 'promote') ?? false,
    cluster ? 'legend.clusterPromote' : 'legend.promote',
    SENTINEL_COLOR.promote,
    'triangle',
  );
  add(use.partition, 'legend.partition', '#a78bfa', 'box', COLORS.partition);
  add(use.latency, 'legend.latency', COLORS.latencyEdge, 'box', COLORS.latency);
  add(opts.faults ?? false, 'legend.fault', '#7f1d1d', 'diamond', '#fca5a5');
  add(opts.searched ?? false, 'legend.searchAdded', COLORS.searchAdded, 'added', '#fca5a5');
  add(use.safety || !(use.stuck || use.liveness), 'legend.violation', COLORS.violationEdge);
  add(use.stuck, 'legend.stuck', COLORS.stuckEdge, 'box', COLORS.stuck);
  add(use.liveness, 'legend.liveness', COLORS.stuckEdge, 'box', COLORS.stuck);
  return out;
}
