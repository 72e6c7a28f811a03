/**
 * Where the topology view draws each node and client, fixed for a run: clients on top, the
 * masters the run starts with below them, each replica under its master, the Sentinels in a column
 * on the right. A failover then recolours nodes in place, so the eye can follow the promotion.
 */
import type { TopologyShape } from './frame';

export interface Point {
  x: number;
  y: number;
}

export interface ClientBox extends Point {
  w: number;
  h: number;
}

export interface TopologyLayout {
  width: number;
  height: number;
  /** node centres */
  nodes: Map<string, Point>;
  /** client boxes (x, y: top left) */
  clients: Map<string, ClientBox>;
  /** threads listed in a client box before "+n more" */
  threadRows: number;
  /** characters a label under a node may take before it would run into its neighbour's */
  labelChars: number;
}

export const NODE_R = 22;
export const SENTINEL_R = 16;
const CLIENT_MIN_W = 92;
const THREAD_ROW_H = 15;
const MAX_THREAD_ROWS = 4;
const NODE_ROW_H = 96;

/** Spreads n items evenly over [left, right]: their centres. */
function spread(n: number, left: number, right: number): number[] {
  const step = (right - left) / Math.max(1, n);
  return Array.from({ length: n }, (_, i) => left + step * (i + 0.5));
}

export function layoutTopology(shape: TopologyShape, width = 420): TopologyLayout {
  const sentinels = shape.nodes.filter((n) => n.kind === 'sentinel');
  const data = shape.nodes.filter((n) => n.kind === 'data');
  const masters = data.filter((n) => n.initialRole !== 'replica');
  const rank = new Map(masters.map((m, i) => [m.id, i]));
  // Replicas grouped under their masters, in the masters' order.
  const replicas = data
    .filter((n) => n.initialRole === 'replica')
    .sort((a, b) => (rank.get(a.initialMaster ?? '') ?? 0) - (rank.get(b.initialMaster ?? '') ?? 0));
  const right = sentinels.length > 0 ? width - 76 : width;

  const threadRows = Math.min(MAX_THREAD_ROWS, Math.max(1, ...shape.clients.map((c) => c.threads.length)));
  const perRow = Math.max(1, Math.min(shape.clients.length, Math.floor(width / CLIENT_MIN_W)));
  const cw = width / perRow - 8;
  const ch =
    22 + THREAD_ROW_H * threadRows + (shape.clients.some((c) => c.threads.length > threadRows) ? 12 : 0);
  const clients = new Map<string, ClientBox>();
  shape.clients.forEach((c, i) => {
    const row = Math.floor(i / perRow);
    const inRow = Math.min(perRow, shape.clients.length - row * perRow);
    const xs = spread(inRow, 0, width);
    clients.set(c.id, { x: xs[i % perRow] - cw / 2, y: 8 + row * (ch + 8), w: cw, h: ch });
  });
  const clientRows = Math.ceil(shape.clients.length / perRow);
  const top = 8 + clientRows * (ch + 8) + 46;

  const nodes = new Map<string, Point>();
  spread(masters.length, 0, right).forEach((x, i) => nodes.set(masters[i].id, { x, y: top + NODE_R }));
  const replicaY = top + NODE_R + (masters.length > 0 ? NODE_ROW_H : 0);
  spread(replicas.length, 0, right).forEach((x, i) => nodes.set(replicas[i].id, { x, y: replicaY }));
  const dataBottom = replicas.length > 0 ? replicaY : top + NODE_R;
  const sy = spread(sentinels.length, top - 10, Math.max(dataBottom + 40, top + sentinels.length * 96));
  sentinels.forEach((s, i) => nodes.set(s.id, { x: width - 38, y: sy[i] }));
  const bottom = Math.max(dataBottom + NODE_R + 54, ...sy.map((y) => y + SENTINEL_R + 70));
  const gap = Math.min(right / Math.max(1, masters.length), right / Math.max(1, replicas.length));
  const labelChars = Math.max(8, Math.min(28, Math.floor((gap - 8) / 7)));
  return { width, height: Math.ceil(bottom), nodes, clients, threadRows, labelChars };
}
