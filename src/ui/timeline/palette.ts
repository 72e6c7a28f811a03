/** Timeline colours, shared by the canvas, the SVG export and the legend. Calm, print-friendly. */
import type { BandKind, MarkKind } from './model';

export const BAND_COLOR: Record<BandKind, string> = {
  running: '#cfe2f3',
  working: '#4f8fcf',
  waiting: '#f6dd9a',
  sleeping: '#e5e7eb',
  paused: '#c9b8f0',
  crashed: '#4b5563',
};

export const MARK_COLOR: Record<MarkKind, string> = {
  renew: '#15803d',
  'renew-fail': '#dc2626',
  'wake-message': '#7c3aed',
  'wake-timeout': '#c2410c',
  error: '#dc2626',
  resource: '#0f766e',
  refused: '#dc2626',
  poll: '#92400e',
  timeout: '#b91c1c',
  late: '#6b7280',
  'sub-timeout': '#7e22ce',
};

/** The Sentinels' lane: judged down (subjectively, then by quorum), leader elected, promotion. */
export const SENTINEL_COLOR = {
  sdown: '#9ca3af',
  odown: '#d97706',
  leader: '#7c3aed',
  promote: '#0f766e',
  reconfig: '#0f766e',
  failover: 'rgba(217, 119, 6, 0.14)',
} as const;

export const COLORS = {
  laneBg: '#ffffff',
  laneAlt: '#f8f9fb',
  grid: '#eceef2',
  header: '#6b7280',
  hold: '#1e3a8a',
  holdText: '#ffffff',
  key: 'rgba(217, 119, 6, 0.35)',
  keyEdge: '#b45309',
  keyNoTtl: 'rgba(220, 38, 38, 0.28)',
  keyText: '#78350f',
  down: '#9ca3af',
  downText: '#ffffff',
  pubsub: '#7c3aed',
  repl: '#0e7490',
  partition: 'rgba(124, 58, 237, 0.07)',
  /** a latency spike: links slow, not cut (teal, apart from the partition's violet) */
  latency: 'rgba(13, 148, 136, 0.09)',
  latencyEdge: '#0d9488',
  /** a busy node (stall) and a starved client event loop: work waits, nothing is lost */
  busy: 'rgba(234, 88, 12, 0.22)',
  busyEdge: '#ea580c',
  /** a thread waiting for a free pub/sub slot (violet, as the pub/sub give-up marks) */
  subWait: '#a855f7',
  violation: 'rgba(220, 38, 38, 0.16)',
  violationEdge: '#dc2626',
  /** the halo of a fault the search added or moved (Explore) */
  searchAdded: '#d97706',
  /** L1 is liveness, not safety: amber, as the "Stuck" verdict */
  stuck: 'rgba(217, 119, 6, 0.16)',
  stuckEdge: '#d97706',
  /** unlock sent, reply pending: the critical section is over, the lock not yet free */
  releasing: 'rgba(30, 58, 138, 0.18)',
  /** a lease Redis gives the thread before it believes it holds the lock (MultiLock parts) */
  partial: 'rgba(30, 58, 138, 0.35)',
  /** a node's new role, tagged where it changes */
  roleTag: '#0f766e',
  cursor: '#111827',
  text: '#374151',
};
