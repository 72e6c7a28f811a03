/**
 * The Jepsen-style timeline: canvas for the lanes (repainted on zoom, resize or a new trace), a
 * second canvas for the cursor (repainted on every cursor move, cheap), DOM only for the few
 * things that need it (violation labels, draggable faults, lane menus, the tooltip).
 */
import { axisTop } from 'd3-axis';
import { scaleLinear } from 'd3-scale';
import { select } from 'd3-selection';
import { zoom as d3zoom, zoomIdentity, type ZoomBehavior, type ZoomTransform } from 'd3-zoom';
import { memo, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Trace } from '../../engine/trace/types';
import { describeEvent } from '../describe-event';
import { loadScenario } from '../controller';
import { useT } from '../hooks/useT';
import { addFault, faultsOf, moveFault, type Fault } from '../scenario-edit';
import { clockAt, indexAtTime, setCursor, usePlayground } from '../store';
import { drawTimeline } from './draw';
import { computeLayout, type Layout, type Row } from './layout';
import type { LaneModel } from './model';
import { isThreadActor } from './model';
import { clientOf, threadActor } from '../../engine/trace/actors';
import { CanvasPainter } from './painter';
import { Legend } from './Legend';
import { ViolationList } from './ViolationList';

export const LABEL_W = 112;
const AXIS_H = 24;

function formatTick(ms: number): string {
  if (Math.abs(ms) >= 1000) return `${+(ms / 1000).toFixed(3)} s`;
  return `${ms} ms`;
}

/** Event indices per lane, sorted by time, for hover hit-tests (once per trace). */
function laneEventIndex(trace: Trace, model: LaneModel): Map<string, number[]> {
  const m = new Map<string, number[]>();
  const add = (lane: string, i: number) => {
    let a = m.get(lane);
    if (!a) m.set(lane, (a = []));
    a.push(i);
  };
  const threadsOf = new Map<string, string[]>();
  for (const t of model.threads) {
    const list = threadsOf.get(t.client) ?? [];
    list.push(t.id);
    threadsOf.set(t.client, list);
  }
  trace.events.forEach((e, i) => {
    if (e.kind === 'script.line' || e.kind === 'script.call') return;
    if (isThreadActor(e.actor)) add(e.actor, i);
    else if (e.actor && threadsOf.has(e.actor)) for (const th of threadsOf.get(e.actor)!) add(th, i);
    if (typeof e.node === 'string') add(e.node, i);
    else if (e.actor && !threadsOf.has(e.actor) && !isThreadActor(e.actor)) add(e.actor, i);
  });
  return m;
}

function faultRow(f: Fault, layout: Layout, model: LaneModel): Row | undefined {
  if (typeof f.node === 'string') return layout.byId.get(f.node);
  if (typeof f.client === 'string') {
    const th =
      typeof f.thread === 'number' || typeof f.thread === 'string' ? threadActor(f.client, f.thread) : null;
    const lane = (th && layout.byId.get(th)) || model.threads.find((t) => t.client === f.client);
    return lane ? layout.byId.get(lane.id) : undefined;
  }
  return layout.rows.find((r) => r.kind === 'header-nodes');
}

interface Hover {
  index: number;
  left: number;
  top: number;
}

export function Timeline() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  const scenario = usePlayground((s) => s.scenario);
  const embed = usePlayground((s) => s.embed);
  const running = usePlayground((s) => s.running);
  const model = run?.model;
  const layout = useMemo(() => (model ? computeLayout(model) : null), [model]);
  const laneEvents = useMemo(
    () => (run ? laneEventIndex(run.trace, run.model) : new Map<string, number[]>()),
    [run],
  );

  const plotRef = useRef<HTMLDivElement>(null);
  const baseRef = useRef<HTMLCanvasElement>(null);
  const overRef = useRef<HTMLDivElement>(null);
  const cursorRef = useRef<HTMLDivElement>(null);
  const dotRef = useRef<HTMLDivElement>(null);
  const axisRef = useRef<SVGSVGElement>(null);
  const zoomRef = useRef<ZoomBehavior<HTMLDivElement, unknown> | null>(null);
  const [width, setWidth] = useState(800);
  const [zt, setZt] = useState<ZoomTransform>(zoomIdentity);
  const [hover, setHover] = useState<Hover | null>(null);
  const [drag, setDrag] = useState<{ index: number; at: number; end: number } | null>(null);
  const pendingZt = useRef<ZoomTransform>(zoomIdentity);
  const zoomRaf = useRef(0);
  const scrollRef = useRef<HTMLDivElement>(null);
  const [yRange, setYRange] = useState<[number, number]>([0, 2000]);
  const scrollRaf = useRef(0);
  const onScroll = () => {
    if (scrollRaf.current) return;
    scrollRaf.current = requestAnimationFrame(() => {
      scrollRaf.current = 0;
      const el = scrollRef.current;
      if (el) setYRange([el.scrollTop, el.scrollTop + el.clientHeight]);
    });
  };

  const faults = faultsOf(scenario);
  // Faults after the last event stay reachable; during a drag the scale holds still, so the
  // marker follows the pointer even though every live re-run changes the trace's length.
  const faultEnd = faults.reduce((m, f) => Math.max(m, typeof f.at === 'number' ? f.at : 0), 0);
  const liveEnd = Math.max(model?.tEnd ?? 1, faultEnd);
  const tEnd = drag ? drag.end : liveEnd;
  const x = useMemo(() => {
    const base = scaleLinear()
      .domain([0, tEnd * 1.02])
      .range([6, Math.max(50, width - 10)]);
    return zt.rescaleX(base);
  }, [tEnd, width, zt]);

  const hasRun = run !== null;
  useEffect(() => {
    const el = plotRef.current;
    if (!el) return;
    const ro = new ResizeObserver(() => setWidth(Math.max(200, Math.floor(el.clientWidth))));
    ro.observe(el);
    return () => ro.disconnect();
  }, [hasRun]);

  // Zoom and pan in x only; one behaviour per canvas, reset when the trace changes length.
  useEffect(() => {
    const el = overRef.current;
    if (!el || !layout) return;
    const z = d3zoom<HTMLDivElement, unknown>()
      .scaleExtent([1, 5000])
      .translateExtent([
        [0, 0],
        [width, layout.height],
      ])
      .extent([
        [0, 0],
        [width, layout.height],
      ])
      .on('zoom', (ev: { transform: ZoomTransform }) => {
        // Wheel events come faster than frames: render once per frame with the latest transform.
        pendingZt.current = ev.transform;
        if (!zoomRaf.current)
          zoomRaf.current = requestAnimationFrame(() => {
            zoomRaf.current = 0;
            setZt(pendingZt.current);
          });
      });
    zoomRef.current = z;
    select(el).call(z).on('dblclick.zoom', null);
    return () => {
      select(el).on('.zoom', null);
    };
  }, [layout, width]);

  // Picking a scenario starts unzoomed; edits of the same scenario keep the view.
  const builtinId = usePlayground((s) => s.builtinId);
  useEffect(() => {
    if (builtinId && overRef.current && zoomRef.current)
      select(overRef.current).call(zoomRef.current.transform, zoomIdentity);
  }, [builtinId]);

  const labels = useMemo(
    () => ({ threads: t('timeline.threads'), nodes: t('timeline.nodes'), down: t('inspect.down') }),
    [t],
  );

  // Base layer: lanes. Repainted only when the model, size, zoom, scroll or language change. The
  // canvas covers the scroll viewport only, so a hundred lanes cost no more than the visible ones.
  useEffect(() => {
    const c = baseRef.current;
    if (!c || !model || !layout) return;
    const top = Math.max(0, Math.min(yRange[0], layout.height));
    const h = Math.max(1, Math.min(layout.height, yRange[1]) - top);
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(width * dpr);
    c.height = Math.round(h * dpr);
    c.style.width = `${width}px`;
    c.style.height = `${h}px`;
    c.style.top = `${top}px`;
    const ctx = c.getContext('2d');
    if (!ctx) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, -top * dpr);
    ctx.clearRect(0, top, width, h);
    drawTimeline(new CanvasPainter(ctx), model, layout, x, width, labels, [top, top + h]);
  }, [model, layout, width, x, labels, yRange]);

  // The viewport is known once the lanes are laid out (and again after every scroll).
  useEffect(() => {
    const el = scrollRef.current;
    if (el && layout) setYRange([el.scrollTop, el.scrollTop + el.clientHeight]);
  }, [layout]);

  // Axis (SVG, d3-axis).
  useEffect(() => {
    if (!axisRef.current) return;
    const ax = axisTop(x)
      .ticks(Math.max(2, Math.floor(width / 90)))
      .tickFormat((d) => formatTick(Number(d)));
    select(axisRef.current)
      .select<SVGGElement>('g')
      .attr('transform', `translate(0,${AXIS_H - 1})`)
      .call(ax);
  }, [x, width]);

  // The cursor: two DOM elements moved by transform on every cursor move, without re-rendering
  // React or repainting any canvas (the compositor does it).
  const paintCursor = useCallback(() => {
    const line = cursorRef.current;
    const dot = dotRef.current;
    if (!line || !dot || !layout) return;
    const s = usePlayground.getState();
    const ev = s.run?.trace.events[s.cursor];
    if (!ev) {
      line.style.visibility = 'hidden';
      dot.style.visibility = 'hidden';
      return;
    }
    const cx = Math.round(x(ev.t));
    line.style.visibility = 'visible';
    line.style.transform = `translateX(${cx - 1}px)`;
    const row = layout.byId.get(String(ev.actor)) ?? layout.byId.get(String(ev.node));
    dot.style.visibility = row ? 'visible' : 'hidden';
    if (row) dot.style.transform = `translate(${cx - 4}px, ${row.y + row.h / 2 - 4}px)`;
  }, [layout, x]);

  useEffect(() => {
    paintCursor();
    return usePlayground.subscribe((s, prev) => {
      if (s.cursor !== prev.cursor || s.run !== prev.run) paintCursor();
    });
  }, [paintCursor]);

  const hitTest = useCallback(
    (px: number, py: number): Hover | null => {
      if (!layout || !run) return null;
      const row = layout.rows.find((r) => py >= r.y && py < r.y + r.h);
      if (!row || !row.id) return null;
      const list = laneEvents.get(row.id);
      if (!list || !list.length) return null;
      const tAt = x.invert(px);
      let lo = 0;
      let hi = list.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (run.trace.events[list[mid]].t < tAt) lo = mid + 1;
        else hi = mid;
      }
      let best = -1;
      let bestD = 7;
      for (const j of [lo - 1, lo, lo + 1]) {
        if (j < 0 || j >= list.length) continue;
        const d = Math.abs(x(run.trace.events[list[j]].t) - px);
        if (d < bestD) {
          bestD = d;
          best = list[j];
        }
      }
      return best < 0 ? null : { index: best, left: px, top: row.y + row.h };
    },
    [layout, run, laneEvents, x],
  );

  const onMove = (ev: React.MouseEvent<HTMLDivElement>) => {
    if (ev.buttons) return;
    const r = ev.currentTarget.getBoundingClientRect();
    setHover(hitTest(ev.clientX - r.left, ev.clientY - r.top));
  };

  const onClick = (ev: React.MouseEvent<HTMLDivElement>) => {
    if (!run) return;
    const r = ev.currentTarget.getBoundingClientRect();
    const h = hitTest(ev.clientX - r.left, ev.clientY - r.top);
    usePlayground.setState({ playing: false });
    setCursor(h ? h.index : indexAtTime(run.trace, x.invert(ev.clientX - r.left)));
  };

  const lastDragRun = useRef(0);

  const onFaultPointerDown = (index: number) => (ev: React.PointerEvent<HTMLButtonElement>) => {
    ev.preventDefault();
    ev.stopPropagation();
    ev.currentTarget.setPointerCapture(ev.pointerId);
    setDrag({ index, at: faults[index].at, end: tEnd });
  };
  const onFaultPointerMove = (ev: React.PointerEvent<HTMLButtonElement>) => {
    if (!drag || !plotRef.current) return;
    const r = plotRef.current.getBoundingClientRect();
    const at = Math.max(0, Math.round(x.invert(ev.clientX - r.left)));
    setDrag({ ...drag, at });
    // Live re-run while dragging, throttled; the final position is committed on release.
    const now = performance.now();
    if (now - lastDragRun.current > 120) {
      lastDragRun.current = now;
      void loadScenario(moveFault(usePlayground.getState().scenario, drag.index, at), { keepTime: true });
    }
  };
  const onFaultPointerUp = () => {
    if (!drag) return;
    void loadScenario(moveFault(usePlayground.getState().scenario, drag.index, drag.at), { keepTime: true });
    setDrag(null);
  };

  if (!run || !model || !layout) {
    return (
      <section className="timeline timeline--empty" data-testid="timeline" aria-label={t('timeline.label')}>
        <div className="timeline__placeholder">{running ? t('run.running') : t('verdict.none')}</div>
      </section>
    );
  }

  const hoverEvent = hover ? run.trace.events[hover.index] : null;

  return (
    <section className="timeline" data-testid="timeline" aria-label={t('timeline.label')}>
      <div className="timeline__top">
        <Legend />
        <button
          type="button"
          className="btn btn--small"
          onClick={() => {
            if (overRef.current && zoomRef.current)
              select(overRef.current).call(zoomRef.current.transform, zoomIdentity);
          }}
        >
          {t('timeline.resetZoom')}
        </button>
      </div>
      <div className="timeline__axis" style={{ paddingLeft: LABEL_W }}>
        <svg ref={axisRef} width={width} height={AXIS_H} aria-hidden="true">
          <g />
        </svg>
      </div>
      <div
        className={`timeline__scroll${embed ? ' timeline__scroll--embed' : ''}`}
        ref={scrollRef}
        onScroll={onScroll}
      >
        <LaneLabels layout={layout} model={model} />
        <div className="timeline__plot" ref={plotRef} style={{ height: layout.height }}>
          <canvas ref={baseRef} className="timeline__canvas" aria-hidden="true" />
          <div className="timeline__cursor" ref={cursorRef} style={{ height: layout.height }} />
          <div className="timeline__cursor-dot" ref={dotRef} />
          <div
            ref={overRef}
            className="timeline__hit"
            role="img"
            aria-label={t('timeline.zoomHint')}
            title={t('timeline.zoomHint')}
            onMouseMove={onMove}
            onMouseLeave={() => setHover(null)}
            onClick={onClick}
          />
          {model.violations.map((v, i) => {
            const left = Math.max(0, x(v.from));
            const right = Math.min(width, x(v.to));
            if (right < 0 || left > width) return null;
            const ys = v.holders.map((h) => layout.byId.get(h)).filter((r) => r !== undefined);
            const top = ys.length ? Math.min(...ys.map((r) => r.y)) : 0;
            const bottom = ys.length ? Math.max(...ys.map((r) => r.y + r.h)) : layout.height;
            const explanation = t(`violation.${v.kind}`, { lock: v.lock });
            return (
              <div
                key={i}
                className="timeline__violation"
                data-testid="violation"
                data-kind={v.kind}
                style={{ left, top, width: Math.max(2, right - left), height: bottom - top }}
                title={`${explanation} — ${t('violation.holders', { holders: v.holders.join(', ') })}`}
              >
                <span className="timeline__violation-tag">{v.kind}</span>
              </div>
            );
          })}
          {faults.map((f, i) => {
            if (typeof f.at !== 'number') return null;
            const row = faultRow(f, layout, model);
            if (!row) return null;
            const at = drag?.index === i ? drag.at : f.at;
            const left = x(at);
            if (left < -8 || left > width + 8) return null;
            return (
              <button
                key={i}
                type="button"
                className={`fault-handle fault-handle--${String(f.kind).replace(/[^a-z]/g, '')}`}
                style={{ left: left - 6, top: row.y + 1 }}
                aria-label={`${t('timeline.fault')}: ${f.kind} ${f.node ?? f.client ?? ''} @ ${at} ms — ${t('timeline.faultDrag')}`}
                title={`${f.kind} ${f.node ?? f.client ?? ''} @ ${at} ms — ${t('timeline.faultDrag')}`}
                onPointerDown={onFaultPointerDown(i)}
                onPointerMove={onFaultPointerMove}
                onPointerUp={onFaultPointerUp}
              />
            );
          })}
          {hover && hoverEvent && (
            <div
              className="timeline__tooltip"
              role="tooltip"
              style={{ left: Math.min(hover.left + 8, width - 260), top: hover.top + 2 }}
            >
              <strong>{describeEvent(hoverEvent).head}</strong>
              {describeEvent(hoverEvent)
                .details.slice(0, 5)
                .map((d, i) => (
                  <div key={i}>{d}</div>
                ))}
            </div>
          )}
        </div>
      </div>
      {!embed && <ViolationList />}
    </section>
  );
}

/** A node's role beside its name, only when the name does not already say it (a promoted replica). */
function NodeRole({ id, model }: { id: string; model: LaneModel }) {
  const lane = model.nodes.find((n) => n.id === id);
  const last = lane?.roles[lane.roles.length - 1]?.role ?? lane?.role;
  if (!last || id.startsWith(last)) return null;
  return <span className="lane-label__role">→ {last}</span>;
}

const LaneLabels = memo(function LaneLabels({ layout, model }: { layout: Layout; model: LaneModel }) {
  const t = useT();
  const [open, setOpen] = useState<string | null>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  // The menu closes on Escape or a click anywhere else.
  useEffect(() => {
    if (!open) return;
    const onDown = (e: PointerEvent) => {
      if (!boxRef.current?.contains(e.target as Node)) setOpen(null);
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(null);
    };
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);
  const act = (fault: Fault) => {
    setOpen(null);
    void loadScenario(addFault(usePlayground.getState().scenario, fault), { keepTime: true });
  };
  // Cut one node or client off from every other node and client (and the Sentinels) for 10 s.
  const isolate = (endpoint: string, at: number): Fault => {
    const others = new Set<string>();
    for (const n of model.nodes) if (n.id !== endpoint) others.add(n.id);
    for (const th of model.threads) {
      const c = clientOf(th.id);
      if (c !== endpoint) others.add(c);
    }
    const sc = usePlayground.getState().scenario as { redis?: { topology?: string } } | null;
    if (sc?.redis?.topology === 'sentinel') others.add('sentinels');
    return { at, kind: 'partition', groups: [[endpoint], [...others]], healAt: at + 10_000 };
  };
  const nodeDownAt = (id: string, at: number) =>
    model.nodes.find((n) => n.id === id)?.down.some((d) => d.from <= at && at < d.to) ?? false;
  return (
    <div className="timeline__labels" ref={boxRef} style={{ width: LABEL_W, height: layout.height }}>
      {layout.rows.map((r) =>
        r.id ? (
          <div key={r.id} className={`lane-label lane-label--${r.kind}`} style={{ top: r.y, height: r.h }}>
            <button
              type="button"
              className="lane-label__btn"
              aria-label={t('timeline.laneMenu', { lane: r.id })}
              aria-haspopup="menu"
              aria-expanded={open === r.id}
              onClick={() => setOpen(open === r.id ? null : r.id)}
            >
              {r.id}
              {r.kind === 'node' && <NodeRole id={r.id} model={model} />}
            </button>
            {open === r.id && (
              <div className="lane-menu" role="menu">
                {r.kind === 'node' ? (
                  (() => {
                    const at = clockAt(usePlayground.getState());
                    const down = nodeDownAt(r.id, at);
                    return (
                      <>
                        <button
                          type="button"
                          role="menuitem"
                          onClick={() => act({ at, kind: down ? 'restart' : 'crash', node: r.id })}
                        >
                          {t(down ? 'timeline.restartNode' : 'timeline.crashNode', { lane: r.id })}
                        </button>
                        <button type="button" role="menuitem" onClick={() => act(isolate(r.id, at))}>
                          {t('timeline.partitionLane', { lane: r.id })}
                        </button>
                      </>
                    );
                  })()
                ) : (
                  <>
                    <button
                      type="button"
                      role="menuitem"
                      onClick={() =>
                        act({
                          at: clockAt(usePlayground.getState()),
                          kind: 'pause',
                          client: clientOf(r.id),
                          ms: 5000,
                        })
                      }
                    >
                      {t('timeline.pauseClient', { lane: clientOf(r.id) })}
                    </button>
                    <button
                      type="button"
                      role="menuitem"
                      onClick={() =>
                        act({
                          at: clockAt(usePlayground.getState()),
                          kind: 'crash',
                          client: clientOf(r.id),
                        })
                      }
                    >
                      {t('timeline.crashClient', { lane: clientOf(r.id) })}
                    </button>
                    <button
                      type="button"
                      role="menuitem"
                      onClick={() => act(isolate(clientOf(r.id), clockAt(usePlayground.getState())))}
                    >
                      {t('timeline.partitionLane', { lane: clientOf(r.id) })}
                    </button>
                  </>
                )}
              </div>
            )}
          </div>
        ) : null,
      )}
    </div>
  );
});
