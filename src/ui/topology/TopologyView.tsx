/**
 * The deployment as a diagram at the cursor, in the spirit of RaftScope: clients, masters,
 * replicas and Sentinels, the links between them (cut by a partition), the messages on the wire
 * moving along them, roles recoloured at a failover. With `menus`, a node or client opens the
 * faults the timeline's lane menu offers, added at the cursor's time.
 */
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useT } from '../hooks/useT';
import { MenuItem } from '../shell/MenuItem';
import type { MessageKey } from '../i18n';
import { BAND_COLOR, COLORS } from '../timeline/palette';
import { CUT_S, cutOffHere, faultHere, PAUSE_MS } from './faults';
import {
  indexTopology,
  reachable,
  slowMs,
  topologyFrame,
  type ClientState,
  type MessageKind,
  type NodeState,
  type TopologyFrame,
  type TopologyRun,
} from './frame';
import { layoutTopology, NODE_R, SENTINEL_R, type Point, type TopologyLayout } from './layout';
import './topology.css';
import { addEnglish } from '../i18n';
import { enTopology } from '../i18n/en-topology';

// the strings only this view uses come with its chunk (i18n/en-topology.ts)
addEnglish(enTopology);

const MSG_COLOR: Record<MessageKind, string> = {
  cmd: '#2563eb',
  reply: '#15803d',
  repl: COLORS.repl,
  pubsub: COLORS.pubsub,
  replicaof: '#b45309',
};

const MSG_LEGEND: Record<MessageKind, MessageKey> = {
  cmd: 'topo.msg.cmd',
  reply: 'topo.msg.reply',
  repl: 'topo.msg.repl',
  pubsub: 'topo.msg.pubsub',
  replicaof: 'topo.msg.replicaof',
};

/** Partition sides, one colour each (a ring around every endpoint of the side). */
const SIDE_COLOR = ['#7c3aed', '#ea580c', '#0891b2', '#be185d'];

/** Message labels are printed only while few messages are on the wire. */
const MAX_LABELLED = 8;

/** The element's width in px, followed as it resizes (less `minus`, at least `min`). */
export function useWidth(ref: React.RefObject<HTMLElement | null>, min = 280, minus = 0): number {
  const [w, setW] = useState(420);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setW(Math.max(min, Math.floor(el.clientWidth) - minus));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref, min, minus]);
  return w;
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** The point where a link leaves a client box: the middle of its bottom edge. */
function clientPort(layout: TopologyLayout, id: string): Point | undefined {
  const b = layout.clients.get(id);
  return b && { x: b.x + b.w / 2, y: b.y + b.h };
}

function endpoint(layout: TopologyLayout, id: string): Point | undefined {
  return layout.nodes.get(id) ?? clientPort(layout, id);
}

interface Link {
  id: string;
  a: Point;
  b: Point;
  kind: 'client' | 'repl' | 'sentinel';
  cut: boolean;
  /** extra one-way ms of a latency spike (0: none) */
  slowMs: number;
}

function linksOf(frame: TopologyFrame, layout: TopologyLayout): Link[] {
  const out: Link[] = [];
  const add = (id: string, from: string, to: string, kind: Link['kind']) => {
    const a = endpoint(layout, from);
    const b = layout.nodes.get(to);
    if (a && b)
      out.push({
        id,
        a,
        b,
        kind,
        cut: !reachable(frame.partition, from, to),
        slowMs: slowMs(frame.slow, from, to),
      });
  };
  for (const c of frame.clients) for (const m of c.masters) add(`c:${c.id}:${m}`, c.id, m, 'client');
  for (const n of frame.nodes) {
    if (n.master) add(`r:${n.id}`, n.id, n.master, 'repl');
    if (n.kind === 'sentinel' && frame.watched) add(`s:${n.id}`, n.id, frame.watched, 'sentinel');
  }
  return out;
}

function sideOf(frame: TopologyFrame, id: string): number {
  return frame.partition ? frame.partition.findIndex((g) => g.includes(id)) : -1;
}

/**
 * A node or client: a button opening its fault menu (Enter or Space too, kept from the page's
 * Space-to-play), or an image with the same description.
 */
function markProps(label: string, menuLabel: string, onOpen?: (el: Element) => void) {
  if (!onOpen) return { role: 'img', 'aria-label': label };
  return {
    role: 'button',
    tabIndex: 0,
    'aria-haspopup': 'menu' as const,
    'aria-label': `${label}. ${menuLabel}`,
    onClick: (e: React.MouseEvent) => onOpen(e.currentTarget),
    onKeyDown: (e: React.KeyboardEvent) => {
      if (e.key !== 'Enter' && e.key !== ' ') return;
      e.preventDefault();
      e.stopPropagation();
      onOpen(e.currentTarget);
    },
  };
}

type MenuTarget = { id: string; kind: 'node' | 'client'; x: number; y: number };

function NodeMark({
  n,
  at,
  side,
  chars,
  onOpen,
}: {
  n: NodeState;
  at: Point;
  side: number;
  /** room for a key's label */
  chars: number;
  onOpen?: (el: Element) => void;
}) {
  const t = useT();
  const sentinel = n.kind === 'sentinel';
  const r = sentinel ? SENTINEL_R : NODE_R;
  const master = n.role === 'master';
  const fill = !n.up ? '#d1d5db' : sentinel ? '#f3e8ff' : master ? COLORS.hold : '#e0ecff';
  const stroke = !n.up ? '#6b7280' : sentinel ? '#7c3aed' : COLORS.hold;
  const roleText = t(sentinel ? 'topo.role.sentinel' : master ? 'topo.role.master' : 'topo.role.replica');
  const flags = [
    n.sdown ? 'sdown' : '',
    n.odown ? 'odown' : '',
    n.leader !== undefined ? t('topo.leader', { e: n.leader }) : '',
  ].filter(Boolean);
  const label = `${n.id}: ${roleText}${n.up ? '' : `, ${t('inspect.down')}`}${
    n.master ? `, ${t('topo.replicaOf', { id: n.master })}` : ''
  }${n.keys.map((k) => `, ${k.key} ${k.label}`).join('')}${flags.length ? `, ${flags.join(', ')}` : ''}`;
  const interactive = onOpen !== undefined;
  return (
    <g
      className={`topo-node${interactive ? ' topo-node--menu' : ''}`}
      data-testid="topo-node"
      data-id={n.id}
      data-role={n.role}
      data-up={n.up ? 'true' : 'false'}
      transform={`translate(${at.x},${at.y})`}
      {...markProps(label, t('timeline.laneMenu', { lane: n.id }), onOpen)}
    >
      <title>{label}</title>
      {side >= 0 && <circle r={r + 5} fill="none" stroke={SIDE_COLOR[side % 4]} strokeWidth={3} />}
      <circle
        r={r}
        fill={fill}
        stroke={stroke}
        strokeWidth={1.5}
        strokeDasharray={n.up ? undefined : '4 3'}
      />
      <text className="topo-node__glyph" dy="0.35em" fill={master && n.up && !sentinel ? '#fff' : '#1f2937'}>
        {sentinel ? 'S' : master ? 'M' : 'R'}
      </text>
      <text className="topo-node__id" y={r + 14}>
        {n.id}
      </text>
      {!sentinel && (
        <text className="topo-node__role" y={r + 28} fill={n.up ? '#374151' : COLORS.violationEdge}>
          {n.up ? (n.id.startsWith(n.role) ? '' : `→ ${roleText}`) : t('inspect.down')}
        </text>
      )}
      {/* A Sentinel sits at the right edge: its conclusions, one a line, end inside the picture. */}
      {sentinel &&
        [...(n.up ? [] : [t('inspect.down')]), ...flags].map((f, i) => (
          <text key={f} className="topo-node__flag" x={r + 20} y={r + 28 + i * 13}>
            {f}
          </text>
        ))}
      {!sentinel &&
        n.keys.slice(0, 2).map((k, i) => (
          <text
            key={k.key}
            className="topo-node__key"
            y={r + 42 + i * 13}
            fill={k.ttl ? COLORS.keyText : COLORS.violationEdge}
          >
            {clip(`${k.key} ${k.label}`, chars)}
          </text>
        ))}
    </g>
  );
}

function ClientMark({
  c,
  layout,
  side,
  onOpen,
}: {
  c: ClientState;
  layout: TopologyLayout;
  side: number;
  onOpen?: (el: Element) => void;
}) {
  const t = useT();
  const b = layout.clients.get(c.id);
  if (!b) return null;
  const status = c.crashed ? t('state.crashed') : c.paused ? t('state.paused') : '';
  const shown = c.threads.slice(0, layout.threadRows);
  const holdsText = (th: ClientState['threads'][number]) =>
    th.holds.map((h) => t(h.releasing ? 'topo.releasing' : 'topo.holds', { lock: h.lock })).join(', ');
  const label = `${t('topo.client', { id: c.id })}${status ? `, ${status}` : ''}. ${c.threads
    .map(
      (th) => `${th.id} ${t(`state.${th.state}` as MessageKey)}${th.holds.length ? ` ${holdsText(th)}` : ''}`,
    )
    .join('; ')}`;
  const interactive = onOpen !== undefined;
  const maxChars = Math.max(6, Math.floor((b.w - 12) / 6.6));
  return (
    <g
      className={`topo-client${interactive ? ' topo-node--menu' : ''}`}
      data-testid="topo-client"
      data-id={c.id}
      data-crashed={c.crashed ? 'true' : 'false'}
      data-paused={c.paused ? 'true' : 'false'}
      transform={`translate(${b.x},${b.y})`}
      {...markProps(label, t('timeline.laneMenu', { lane: c.id }), onOpen)}
    >
      <title>{label}</title>
      <rect
        width={b.w}
        height={b.h}
        rx={6}
        fill={c.crashed ? '#e5e7eb' : c.paused ? BAND_COLOR.paused : '#fff'}
        stroke={side >= 0 ? SIDE_COLOR[side % 4] : '#9ca3af'}
        strokeWidth={side >= 0 ? 3 : 1}
      />
      <text className="topo-client__id" x={8} y={15}>
        {clip(`${t('topo.client', { id: c.id })}${status ? ` · ${status}` : ''}`, maxChars)}
      </text>
      {shown.map((th, i) => {
        const y = 22 + i * 15;
        const holding = th.holds.length > 0;
        return (
          <g key={th.id} transform={`translate(6,${y})`} data-testid="topo-thread" data-id={th.id}>
            <rect
              width={b.w - 12}
              height={13}
              rx={3}
              fill={
                holding ? (th.holds.every((h) => h.releasing) ? COLORS.releasing : COLORS.hold) : '#f3f4f6'
              }
            />
            <rect
              width={4}
              height={13}
              rx={1}
              fill={th.state === 'idle' ? '#e5e7eb' : BAND_COLOR[th.state]}
            />
            <text className="topo-client__thread" x={8} y={10} fill={holding ? '#fff' : '#374151'}>
              {clip(
                holding ? `${th.id} ${holdsText(th)}` : `${th.id} ${t(`state.${th.state}` as MessageKey)}`,
                maxChars - 1,
              )}
            </text>
          </g>
        );
      })}
      {c.threads.length > shown.length && (
        <text className="topo-client__more" x={8} y={b.h - 4}>
          {t('topo.more', { n: c.threads.length - shown.length })}
        </text>
      )}
    </g>
  );
}

function Menu({ target, frame, close }: { target: MenuTarget; frame: TopologyFrame; close(): void }) {
  const t = useT();
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (e: PointerEvent) => {
      if (!ref.current?.contains(e.target as Node)) close();
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [close]);
  const item = (label: string, act: () => void) => <MenuItem label={label} close={close} act={act} />;
  const id = target.id;
  const node = frame.nodes.find((n) => n.id === id);
  return (
    <div
      ref={ref}
      className="lane-menu topo-menu"
      role="menu"
      data-testid="topo-menu"
      aria-label={t('timeline.laneMenu', { lane: id })}
      style={{ left: target.x, top: target.y }}
    >
      {target.kind === 'node' ? (
        <>
          {item(t(node?.up === false ? 'timeline.restartNode' : 'timeline.crashNode', { lane: id }), () =>
            faultHere((at) =>
              node?.up === false ? { at, kind: 'restart', node: id } : { at, kind: 'crash', node: id },
            ),
          )}
          {item(t('timeline.partitionLaneFor', { lane: id, s: CUT_S }), () => cutOffHere(id))}
        </>
      ) : (
        <>
          {item(t('timeline.pauseClientFor', { lane: id, s: PAUSE_MS / 1000 }), () =>
            faultHere((at) => ({ at, kind: 'pause', client: id, ms: PAUSE_MS })),
          )}
          {item(t('timeline.crashClient', { lane: id }), () =>
            faultHere((at) => ({ at, kind: 'crash', client: id })),
          )}
          {item(t('timeline.partitionLaneFor', { lane: id, s: CUT_S }), () => cutOffHere(id))}
        </>
      )}
    </div>
  );
}

export interface TopologyViewProps {
  run: TopologyRun;
  /** the event index to show (-1: before the first) */
  index: number;
  /** fault menus on nodes and clients (the current scenario only) */
  menus?: boolean;
  testId?: string;
}

export function TopologyView({ run, index, menus = false, testId = 'topology' }: TopologyViewProps) {
  const t = useT();
  const boxRef = useRef<HTMLDivElement>(null);
  const width = useWidth(boxRef);
  const ix = useMemo(() => indexTopology(run), [run]);
  const layout = useMemo(() => layoutTopology(ix.shape, width), [ix, width]);
  const frame = topologyFrame(run, ix, index);
  const links = linksOf(frame, layout);
  const [menu, setMenu] = useState<MenuTarget | null>(null);
  const closeMenu = useMemo(() => () => setMenu(null), []);

  const opener = (id: string, kind: MenuTarget['kind']) =>
    menus
      ? (el: Element) => {
          const box = boxRef.current?.getBoundingClientRect();
          const r = el.getBoundingClientRect();
          if (!box) return;
          // Kept inside the panel: a menu is about 15rem wide.
          const x = Math.max(0, Math.min(r.left - box.left, box.width - 240));
          setMenu(menu?.id === id ? null : { id, kind, x, y: r.bottom - box.top + 4 });
        }
      : undefined;

  const labelled = frame.messages.length <= MAX_LABELLED;
  const usedKinds = new Set(frame.messages.map((m) => m.kind));
  return (
    <div
      className="topo"
      ref={boxRef}
      data-testid={testId}
      data-index={index}
      data-event={run.trace.events[index]?.kind ?? ''}
    >
      <svg
        className="topo__svg"
        width={layout.width}
        height={layout.height}
        viewBox={`0 0 ${layout.width} ${layout.height}`}
        role="group"
        aria-label={t('topo.svgLabel', { t: frame.t })}
      >
        <g className="topo__links">
          {links.map((l) => {
            const mx = (l.a.x + l.b.x) / 2;
            const my = (l.a.y + l.b.y) / 2;
            return (
              <g
                key={l.id}
                className={`topo-link topo-link--${l.kind}${l.cut ? ' topo-link--cut' : ''}${l.slowMs > 0 ? ' topo-link--slow' : ''}`}
              >
                <line x1={l.a.x} y1={l.a.y} x2={l.b.x} y2={l.b.y}>
                  {l.slowMs > 0 && <title>{t('topology.slowLink', { ms: l.slowMs })}</title>}
                </line>
                {l.cut && (
                  <g data-testid="topo-cut" transform={`translate(${mx},${my})`}>
                    <circle r={8} fill="#fff" stroke={COLORS.violationEdge} />
                    <path d="M-4,-4L4,4M4,-4L-4,4" stroke={COLORS.violationEdge} strokeWidth={2} />
                  </g>
                )}
              </g>
            );
          })}
        </g>
        {frame.clients.map((c) => (
          <ClientMark
            key={c.id}
            c={c}
            layout={layout}
            side={sideOf(frame, c.id)}
            onOpen={opener(c.id, 'client')}
          />
        ))}
        {frame.nodes.map((n) => {
          const at = layout.nodes.get(n.id);
          if (!at) return null;
          return (
            <NodeMark
              key={n.id}
              n={n}
              at={at}
              side={sideOf(frame, n.id)}
              chars={layout.labelChars}
              onOpen={n.kind === 'data' ? opener(n.id, 'node') : undefined}
            />
          );
        })}
        <g className="topo__messages" aria-hidden="true">
          {frame.messages.map((m) => {
            const a = endpoint(layout, m.from);
            const b = endpoint(layout, m.to);
            if (!a || !b) return null;
            // Never hidden under a node: drawn between 15 % and 85 % of the way.
            const q = 0.15 + 0.7 * m.p;
            const x = a.x + (b.x - a.x) * q;
            const y = a.y + (b.y - a.y) * q;
            const color =
              m.kind === 'reply' && /^(ERR|WRONG|NOSCRIPT|READONLY|NOREPLICAS|-)/.test(m.label)
                ? COLORS.violationEdge
                : MSG_COLOR[m.kind];
            return (
              <g key={m.id} data-testid="topo-msg" data-kind={m.kind} data-from={m.from} data-to={m.to}>
                <line className="topo-msg__path" x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke={color} />
                <g className="topo-msg" style={{ transform: `translate(${x}px, ${y}px)` }}>
                  <circle r={5} fill={color} stroke="#fff" strokeWidth={1.5} />
                  {labelled && (
                    <text className="topo-msg__label" x={8} y={4} fill={color}>
                      {clip(m.label, 18)}
                    </text>
                  )}
                </g>
              </g>
            );
          })}
        </g>
      </svg>
      {frame.partition && (
        <p className="topo__partition" data-testid="topo-partition">
          {t('topo.partition', { groups: frame.partition.map((g) => g.join(', ')).join('  |  ') })}
        </p>
      )}
      <ul className="topo__legend" aria-label={t('legend.title')}>
        {(Object.keys(MSG_COLOR) as MessageKind[])
          .filter((k) => usedKinds.has(k) || k === 'cmd' || k === 'reply')
          .map((k) => (
            <li key={k}>
              <span className="topo__swatch" style={{ background: MSG_COLOR[k] }} />
              {t(MSG_LEGEND[k])}
            </li>
          ))}
        {frame.partition && (
          <li>
            <span className="topo__swatch topo__swatch--cut" />
            {t('topo.cut')}
          </li>
        )}
      </ul>
      {menu && <Menu target={menu} frame={frame} close={closeMenu} />}
    </div>
  );
}
