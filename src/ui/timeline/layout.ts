/**
 * Vertical layout of the timeline: a header, one row per thread lane; a header, one row per Redis
 * node (taller when several keys live on it, one sub-row each); the Sentinels' row when there are
 * Sentinels. Headers carry their own label, so lanes can later be grouped (by shard) under more.
 */
import type { LaneModel, NodeLane } from './model';

export type RowKind = 'header-threads' | 'thread' | 'header-nodes' | 'header-shard' | 'node' | 'sentinels';

export interface Row {
  kind: RowKind;
  /** lane id (thread "A:1" or node "master", SENTINEL_LANE); empty for headers */
  id: string;
  y: number;
  h: number;
  /** header-shard: the shard's number (1-based), its master's lane next */
  shard?: number;
  /** header-shard of a folded shard: the lanes it hides (they have no row) */
  folded?: string[];
}

export interface Layout {
  rows: Row[];
  height: number;
  byId: Map<string, Row>;
  /** text and lane size factor (1, or more in presenter mode) */
  scale: number;
}

export const HEADER_H = 20;
export const NODE_H = 38;
/** a key's sub-row on a node lane holding several keys: a 12 px label and its TTL ramp */
export const KEY_ROW_H = 24;
export const SENTINEL_H = 30;
/** a cluster shard's group label above its master's lane */
export const SHARD_H = 16;
/** a cluster node's lane: room for its name, a role change and its slots on three lines */
export const CLUSTER_NODE_H = 46;
/** The lane id of the Sentinels' row (no node is named so: ids have no spaces). */
export const SENTINEL_LANE = 'sentinels';

export function threadLaneHeight(threads: number): number {
  if (threads > 40) return 12;
  if (threads > 12) return 18;
  return 26;
}

/** A node lane's height: one key's ramp, or one sub-row per key. */
export function nodeLaneHeight(keys: number, scale = 1): number {
  return Math.round(Math.max(NODE_H, keys > 1 ? KEY_ROW_H * keys + 8 : 0) * scale);
}

/** A node lane's key sub-rows: one per key drawn alone, and one for the keys drawn together. */
export function subRows(lane: NodeLane | undefined): number {
  return lane === undefined ? 0 : lane.keyNames.length + (lane.moreKeys ? 1 : 0);
}

/**
 * The cluster shards a step that names some lanes does not talk about: folded to their header on
 * a projector, so the threads and the shard it cites fit one screen (LA8). Only when the focus
 * names a node lane: a step that names threads alone says nothing about which shard matters.
 */
export function foldedShards(shards: readonly string[][] | undefined, focus: readonly string[]): Set<number> {
  const named = new Set(focus);
  const talked = (shards ?? []).map((ids) => ids.some((id) => named.has(id)));
  if (!talked.includes(true)) return new Set();
  return new Set(talked.flatMap((t, i) => (t ? [] : [i])));
}

/** `focus`: the lanes a lesson step names, in presenter mode (else empty: nothing folds). */
export function computeLayout(model: LaneModel, scale = 1, focus: readonly string[] = []): Layout {
  const rows: Row[] = [];
  let y = 0;
  const th = Math.round(threadLaneHeight(model.threads.length) * scale);
  const push = (kind: RowKind, id: string, h: number) => {
    rows.push({ kind, id, y, h });
    y += h;
  };
  const hh = Math.round(HEADER_H * scale);
  push('header-threads', '', hh);
  for (const t of model.threads) push('thread', t.id, th);
  push('header-nodes', '', hh);
  if (model.shards) {
    const lanes = new Map(model.nodes.map((n) => [n.id, n]));
    const fold = foldedShards(model.shards, focus);
    model.shards.forEach((ids, i) => {
      push('header-shard', '', Math.round(SHARD_H * scale));
      rows[rows.length - 1].shard = i + 1;
      if (fold.has(i)) {
        rows[rows.length - 1].folded = [...ids];
        return;
      }
      for (const id of ids) {
        const keys = subRows(lanes.get(id));
        push('node', id, Math.max(nodeLaneHeight(keys, scale), Math.round(CLUSTER_NODE_H * scale)));
      }
    });
  } else for (const n of model.nodes) push('node', n.id, nodeLaneHeight(subRows(n), scale));
  if (model.sentinels) push('sentinels', SENTINEL_LANE, Math.round(SENTINEL_H * scale));
  return { rows, height: y + 4, byId: new Map(rows.filter((r) => r.id).map((r) => [r.id, r])), scale };
}

/**
 * The vertical span a violation's box covers: its own lanes (V2: the node lanes holding the
 * leases) when the model gives them, else its holders' lanes, else the whole plot.
 */
export function violationRows(
  v: { holders: readonly string[]; lanes?: readonly string[] },
  layout: Layout,
): { top: number; bottom: number } {
  const ids = v.lanes ?? v.holders;
  const rows = ids.map((h) => layout.byId.get(h)).filter((r) => r !== undefined);
  if (rows.length === 0) return { top: 0, bottom: layout.height };
  return { top: Math.min(...rows.map((r) => r.y)), bottom: Math.max(...rows.map((r) => r.y + r.h)) };
}

/**
 * Where predict mode's veil label goes (its top, in plot px): in the first lane, a little below
 * its top, so it covers hidden lanes rather than a group header's band (the threads' or the
 * nodes' name, a shard's rule).
 */
export function veilLabelTop(layout: Layout): number {
  const lane = layout.rows.find((r) => !r.kind.startsWith('header'));
  return (lane?.y ?? 0) + 2;
}
