/**
 * The scenario's faults as markers on their lanes. Dragging one moves the fault: the scenario is
 * re-run live (throttled) while the pointer moves and once more on release. During a drag the
 * time scale holds still (`onHold`), so the marker follows the pointer although every re-run
 * changes the trace's length.
 */
import type { LinearScale } from './linear-scale';
import { useRef, useState, type RefObject } from 'react';
import { faultsOf, moveFault } from '../../engine/scenario/edit';
import type { Fault } from '../../engine/scenario/schema';
import { checkpoint, loadScenario } from '../controller';
import { useExplore } from '../explore/store';
import { useT } from '../hooks/useT';
import { usePlayground } from '../store';
import type { Layout, Row } from './layout';
import type { LaneModel } from './model';

const LIVE_RERUN_MS = 120;
/** Where the canvas writes a header's name ("Redis nodes"): markers there would cover it. */
const HEADER_TEXT_W = 110;

function faultRow(f: Fault, layout: Layout, model: LaneModel): Row | undefined {
  if ('node' in f && f.node !== undefined) return layout.byId.get(f.node);
  // a spike on one endpoint's links sits on that node's or client's lane
  const one = f.kind === 'latency' && f.endpoints?.length === 1 ? f.endpoints[0] : undefined;
  if (one !== undefined) {
    const lane =
      layout.byId.get(one) ?? layout.byId.get(model.threads.find((t) => t.client === one)?.id ?? '');
    if (lane) return lane;
  }
  if ('client' in f && f.client !== undefined) {
    const th = 'thread' in f ? `${f.client}:${f.thread}` : null;
    const lane = (th && layout.byId.get(th)) || model.threads.find((t) => t.client === f.client);
    return lane ? layout.byId.get(lane.id) : undefined;
  }
  return layout.rows.find((r) => r.kind === 'header-nodes');
}

function faultTarget(f: Fault): string {
  if (f.kind === 'latency') return `+${f.ms} ms ${f.endpoints?.join(', ') ?? ''}`.trim();
  return ('node' in f && f.node) || ('client' in f && f.client) || '';
}

/** The diamond's half-diagonal: a 12 px square turned 45° reaches 8.5 px from its centre. */
const DIAMOND_R = 8.5;

/** Where a fault's diamond sits on the plot (its centre: `left`, its row's top + 1 + 6), or null. */
export function faultSpot(
  f: Fault,
  at: number,
  layout: Layout,
  model: LaneModel,
  x: (t: number) => number,
): { left: number; row: Row } | null {
  const left = x(at);
  let row = faultRow(f, layout, model);
  // A partition sits on the nodes' header, except where the header's name is written.
  if (row?.kind === 'header-nodes' && left < HEADER_TEXT_W)
    row = layout.rows[layout.rows.indexOf(row) + 1] ?? row;
  return row ? { left, row } : null;
}

/** The box each fault's diamond covers on the plot (for what must not hide under it). */
export function faultBoxes(
  faults: readonly Fault[],
  layout: Layout,
  model: LaneModel,
  x: (t: number) => number,
): { x: number; y: number; w: number; h: number }[] {
  return faults.flatMap((f) => {
    const spot = faultSpot(f, f.at, layout, model, x);
    if (spot === null) return [];
    const cy = spot.row.y + 1 + 6;
    return [{ x: spot.left - DIAMOND_R, y: cy - DIAMOND_R, w: 2 * DIAMOND_R, h: 2 * DIAMOND_R }];
  });
}

export function faultEnd(faults: readonly Fault[]): number {
  return faults.reduce((m, f) => Math.max(m, f.at), 0);
}

export function FaultHandles({
  layout,
  model,
  x,
  width,
  tEnd,
  plotRef,
  onHold,
}: {
  layout: Layout;
  model: LaneModel;
  x: LinearScale;
  width: number;
  tEnd: number;
  plotRef: RefObject<HTMLDivElement | null>;
  /** the time scale's end to keep during a drag; null when the drag ends */
  onHold(end: number | null): void;
}) {
  const t = useT();
  const scenario = usePlayground((s) => s.scenario);
  const faults = faultsOf(scenario);
  // The faults a search added or moved, while its counterexample is the scenario on screen.
  const found = useExplore((s) => (s.status.phase === 'found' ? s.status.found : null));
  const marked = found?.scenario === scenario ? found.shrunk.marked : [];
  const [drag, setDrag] = useState<{ index: number; at: number } | null>(null);
  const lastRun = useRef(0);
  const checkpointed = useRef(false);

  // One undo step per drag: the document before it, not each live re-run.
  const rerun = (index: number, at: number) => {
    if (at === faults[index]?.at && !checkpointed.current) return;
    if (!checkpointed.current) checkpoint();
    checkpointed.current = true;
    void loadScenario(moveFault(usePlayground.getState().scenario ?? {}, index, at), {
      keepTime: true,
      history: false,
    });
  };

  const onPointerDown = (index: number) => (ev: React.PointerEvent<HTMLButtonElement>) => {
    ev.preventDefault();
    ev.stopPropagation();
    ev.currentTarget.setPointerCapture(ev.pointerId);
    checkpointed.current = false;
    setDrag({ index, at: faults[index].at });
    onHold(tEnd);
  };
  const onPointerMove = (ev: React.PointerEvent<HTMLButtonElement>) => {
    if (!drag || !plotRef.current) return;
    const r = plotRef.current.getBoundingClientRect();
    const at = Math.max(0, Math.round(x.invert(ev.clientX - r.left)));
    setDrag({ ...drag, at });
    const now = performance.now();
    if (now - lastRun.current > LIVE_RERUN_MS) {
      lastRun.current = now;
      rerun(drag.index, at);
    }
  };
  const onPointerUp = () => {
    if (!drag) return;
    rerun(drag.index, drag.at);
    setDrag(null);
    onHold(null);
  };

  return (
    <>
      {faults.map((f, i) => {
        const at = drag?.index === i ? drag.at : f.at;
        const spot = faultSpot(f, at, layout, model, x);
        if (!spot) return null;
        const { left, row } = spot;
        if (left < -8 || left > width + 8) return null;
        const added = marked.includes(i) ? ` (${t('legend.searchAdded')})` : '';
        const what = `${f.kind} ${faultTarget(f)} @ ${at} ms${added} — ${t('timeline.faultDrag')}`;
        return (
          <button
            key={i}
            type="button"
            className={`fault-handle fault-handle--${f.kind.replace(/[^a-z]/g, '')}${marked.includes(i) ? ' fault-handle--added' : ''}`}
            data-added={marked.includes(i) || undefined}
            style={{ left: left - 6, top: row.y + 1 }}
            aria-label={`${t('timeline.fault')}: ${what}`}
            title={what}
            onPointerDown={onPointerDown(i)}
            onPointerMove={onPointerMove}
            onPointerUp={onPointerUp}
          />
        );
      })}
    </>
  );
}
