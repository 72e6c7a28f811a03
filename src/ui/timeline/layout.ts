/** Vertical layout of the timeline: one row per thread lane, then one per Redis node. */
import type { LaneModel } from './model';

export type RowKind = 'header-threads' | 'thread' | 'header-nodes' | 'node';

export interface Row {
  kind: RowKind;
  /** lane id (thread "A:1" or node "master"); empty for headers */
  id: string;
  y: number;
  h: number;
}

export interface Layout {
  rows: Row[];
  height: number;
  byId: Map<string, Row>;
}

export const HEADER_H = 18;
export const NODE_H = 38;

export function threadLaneHeight(threads: number): number {
  if (threads > 40) return 12;
  if (threads > 12) return 18;
  return 26;
}

export function computeLayout(model: LaneModel): Layout {
  const rows: Row[] = [];
  let y = 0;
  const th = threadLaneHeight(model.threads.length);
  const push = (kind: RowKind, id: string, h: number) => {
    rows.push({ kind, id, y, h });
    y += h;
  };
  push('header-threads', '', HEADER_H);
  for (const t of model.threads) push('thread', t.id, th);
  push('header-nodes', '', HEADER_H);
  for (const n of model.nodes) push('node', n.id, NODE_H);
  return { rows, height: y + 4, byId: new Map(rows.filter((r) => r.id).map((r) => [r.id, r])) };
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
