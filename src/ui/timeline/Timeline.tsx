/**
 * The Jepsen-style timeline: canvas for the lanes (repainted on zoom, resize or a new trace), a
 * second canvas for the cursor (repainted on every cursor move, cheap), DOM only for the few
 * things that need it (violation labels, draggable faults, lane menus, the tooltip).
 *
 * Its parts: useTimeZoom (x scale, zoom, resize), useHitTest (which event is under the pointer),
 * FaultHandles (fault markers and their drag), LaneMenu (lane labels and their fault menus).
 */
import { axisTop } from 'd3-axis';
import { select } from 'd3-selection';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { faultsOf } from '../../engine/scenario/edit';
import { describeEvent } from '../describe-event';
import { useT } from '../hooks/useT';
import { KeyMoments } from '../shell/KeyMoments';
import { UndoRedo } from '../shell/UndoRedo';
import { indexAtTime, setCursor, usePlayground } from '../store';
import { drawTimeline } from './draw';
import { FaultHandles, faultEnd } from './FaultHandles';
import { labelWidth, LaneLabels, roleWord } from './LaneMenu';
import { nameOwners } from './owners';
import { computeLayout, violationRows } from './layout';
import { violationTitle, violationWho } from './violation-text';
import { CanvasPainter } from './painter';
import { Legend } from './Legend';
import { useHitTest, type Hit } from './useHitTest';
import { useTimeZoom } from './useTimeZoom';
import { ViolationList } from './ViolationList';

const AXIS_H = 24;
const TIP_GAP = 6;

/**
 * The hover tooltip, fixed to the viewport so the scroll box cannot clip it: below the lane, or
 * above it when there is no room below, and kept inside the window sideways.
 */
interface TipAnchor {
  x: number;
  top: number;
  bottom: number;
}

function Tooltip({ anchor, children }: { anchor: TipAnchor; children: React.ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const { width: w, height: h } = el.getBoundingClientRect();
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const below = anchor.bottom + TIP_GAP;
    const top = below + h <= vh - 4 ? below : Math.max(4, anchor.top - TIP_GAP - h);
    el.style.left = `${Math.max(4, Math.min(anchor.x + 8, vw - w - 4))}px`;
    el.style.top = `${top}px`;
    el.style.visibility = 'visible';
  });
  return (
    <div ref={ref} className="timeline__tooltip" role="tooltip" data-testid="tooltip">
      {children}
    </div>
  );
}

function formatTick(ms: number, t: ReturnType<typeof useT>): string {
  if (Math.abs(ms) >= 1000) return t('unit.s', { n: +(ms / 1000).toFixed(3) });
  return t('unit.ms', { n: ms });
}

export function Timeline() {
  const t = useT();
  const run = usePlayground((s) => s.run);
  const scenario = usePlayground((s) => s.scenario);
  const embed = usePlayground((s) => s.embed);
  // Only the empty timeline says a run is on its way: a run shown is not re-rendered for it (an
  // edit's answer waited for that render of every lane label).
  const running = usePlayground((s) => s.running && s.run === null);
  // Presenter mode (playground and lessons share it): large canvas text.
  const presenter = usePlayground((s) => s.presenter);
  const predict = usePlayground((s) => s.predict);
  // In predict mode the moment at the cursor: a violation that begins there is drawn over the veil
  // (a step may point at it: why-lock 1's first V3), one that begins later not at all.
  const nowT = usePlayground((s) => (s.predict ? (s.run?.trace.events[s.cursor]?.t ?? -1) : null));
  const lang = usePlayground((s) => s.lang);
  const model = run?.model;
  // A projector of 720-820 px height gets a little less: the lanes a step talks about must fit.
  const scale = presenter ? (window.innerHeight <= 820 ? 1.25 : 1.5) : 1;
  const layout = useMemo(() => (model ? computeLayout(model, scale) : null), [model, scale]);

  const plotRef = useRef<HTMLDivElement>(null);
  const baseRef = useRef<HTMLCanvasElement>(null);
  const overRef = useRef<HTMLDivElement>(null);
  const cursorRef = useRef<HTMLDivElement>(null);
  const dotRef = useRef<HTMLDivElement>(null);
  const veilRef = useRef<HTMLDivElement>(null);
  const axisRef = useRef<SVGSVGElement>(null);
  const [hover, setHover] = useState<(Hit & { anchor: TipAnchor }) | null>(null);
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

  // Faults after the last event stay reachable; a fault drag holds the scale still.
  const [heldEnd, setHeldEnd] = useState<number | null>(null);
  const tEnd = heldEnd ?? Math.max(model?.tEnd ?? 1, faultEnd(faultsOf(scenario)));
  const { x, width, resetZoom } = useTimeZoom(plotRef, overRef, layout, tEnd);
  const hitTest = useHitTest(run, layout, x);

  const labels = useMemo(
    () => ({
      threads: t('timeline.threads'),
      nodes: t('timeline.nodes'),
      down: t('inspect.down'),
      failover: (node: string | null) =>
        node === null ? t('timeline.failoverRunning') : t('timeline.failover', { node }),
      role: (role: string) => roleWord(role, t),
      moreKeys: (names: number, peak: number) => t('timeline.moreKeys', { n: names, peak }),
    }),
    [t],
  );

  // Predict mode hides the verdict too (it would give the answer away): a class on <html>.
  useEffect(() => {
    document.documentElement.classList.toggle('predict', predict);
  }, [predict]);

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
    performance.mark('lockscope:lanes-drawn', { detail: { threads: model.threads.length } });
  }, [model, layout, width, x, labels, yRange]);

  // The viewport is known once the lanes are laid out, and again after every scroll and every
  // resize of the scroll box: a box that grows later (presenter mode, a lesson step's layout)
  // left the lanes below its first height unpainted (watchdog-cost's 100 lanes at 1280×720).
  useEffect(() => {
    const el = scrollRef.current;
    if (!el || !layout) return;
    // The same range is the same state: a new one would repaint every lane for nothing (an edit
    // painted them three times: the new layout, this call, the observer's first callback).
    const update = () =>
      setYRange((r) =>
        r[0] === el.scrollTop && r[1] === el.scrollTop + el.clientHeight
          ? r
          : [el.scrollTop, el.scrollTop + el.clientHeight],
      );
    update();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(update);
    ro.observe(el);
    return () => ro.disconnect();
  }, [layout]);

  // Axis (SVG, d3-axis).
  useEffect(() => {
    if (!axisRef.current) return;
    const ax = axisTop(x)
      // presenter mode's 18 px labels need more room each ("100 ms200 ms" ran together)
      .ticks(Math.max(2, Math.floor(width / (presenter ? 140 : 90))))
      .tickFormat((d) => formatTick(Number(d), t));
    select(axisRef.current)
      .select<SVGGElement>('g')
      .attr('transform', `translate(0,${AXIS_H - 1})`)
      .call(ax);
  }, [x, width, t, presenter]);

  // The cursor: two DOM elements moved by transform on every cursor move, without re-rendering
  // React or repainting any canvas (the compositor does it).
  const paintCursor = useCallback(() => {
    const line = cursorRef.current;
    const dot = dotRef.current;
    if (!line || !dot || !layout) return;
    const s = usePlayground.getState();
    const ev = s.run?.trace.events[s.cursor];
    // The veil covers everything right of the cursor (all of it before the first event).
    const veil = veilRef.current;
    if (veil) {
      const vx = Math.max(0, Math.round(ev ? x(ev.t) + 1 : 0));
      veil.style.transform = `translateX(${vx}px)`;
      // Its label goes left of the cursor when the plot has no room for it on the right (it was cut).
      const label = veil.firstElementChild as HTMLElement | null;
      veil.classList.toggle('timeline__veil--flip', label !== null && width - vx < label.offsetWidth + 24);
    }
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
  }, [layout, x, width]);

  useEffect(() => {
    paintCursor();
    return usePlayground.subscribe((s, prev) => {
      if (s.cursor !== prev.cursor || s.run !== prev.run || s.predict !== prev.predict) paintCursor();
    });
  }, [paintCursor, predict]);

  const onMove = (ev: React.MouseEvent<HTMLDivElement>) => {
    if (ev.buttons) return;
    const r = ev.currentTarget.getBoundingClientRect();
    const h = hitTest(ev.clientX - r.left, ev.clientY - r.top);
    if (!h || hidden(h.index)) return setHover(null);
    // h.top is the bottom of the hit lane; the tooltip goes below it, or above when it must.
    const rowH = layout?.rows.find((row) => row.y + row.h === h.top)?.h ?? 16;
    setHover({ ...h, anchor: { x: r.left + h.left, top: r.top + h.top - rowH, bottom: r.top + h.top } });
  };

  /** Predict mode: an event after the cursor is not shown, not even in a tooltip. */
  const hidden = (index: number) => {
    const s = usePlayground.getState();
    return s.predict && index > s.cursor;
  };

  const onClick = (ev: React.MouseEvent<HTMLDivElement>) => {
    if (!run) return;
    const r = ev.currentTarget.getBoundingClientRect();
    const found = hitTest(ev.clientX - r.left, ev.clientY - r.top);
    const h = found && !hidden(found.index) ? found : null;
    usePlayground.setState({ playing: false });
    setCursor(h ? h.index : indexAtTime(run.trace, x.invert(ev.clientX - r.left)));
  };

  if (!run || !model || !layout) {
    return (
      <section className="timeline timeline--empty" data-testid="timeline" aria-label={t('timeline.label')}>
        <div className="timeline__placeholder">{running ? t('run.running') : t('verdict.none')}</div>
      </section>
    );
  }

  const hoverEvent = hover ? run.trace.events[hover.index] : null;
  const hoverText = hoverEvent ? describeEvent(hoverEvent, lang) : null;

  return (
    <section className="timeline" data-testid="timeline" aria-label={t('timeline.label')}>
      <div className="timeline__top">
        <Legend />
        <div className="timeline__tools">
          {!embed && <UndoRedo />}
          <label className="timeline__predict" title={t('timeline.predictHint')}>
            <input
              type="checkbox"
              checked={predict}
              data-testid="predict-toggle"
              onChange={(e) => usePlayground.setState({ predict: e.target.checked })}
            />
            {t('timeline.predict')}
          </label>
          <button type="button" className="btn btn--small" onClick={resetZoom}>
            {t('timeline.resetZoom')}
          </button>
        </div>
      </div>
      <div className="timeline__axis" style={{ paddingLeft: labelWidth(model) }}>
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
            if (nowT !== null && v.from > nowT) return null;
            const left = Math.max(0, x(v.from));
            const right = Math.min(width, x(nowT === null ? v.to : Math.min(v.to, nowT)));
            if (right < 0 || left > width) return null;
            const { top, bottom } = violationRows(v, layout);
            const explanation = violationTitle(v, t);
            return (
              <div
                key={i}
                className={`timeline__violation${nowT === null ? '' : ' timeline__violation--now'}`}
                data-testid="violation"
                data-kind={v.kind}
                style={{ left, top, width: Math.max(2, right - left), height: bottom - top }}
                title={`${explanation} — ${violationWho(v, t)}`}
              >
                {/* at the right edge the tag hangs leftwards, or the plot would cut it off */}
                <span
                  className="timeline__violation-tag"
                  style={
                    left + 28 > width ? { left: 'auto', right: 0, borderRadius: '0 0 0 3px' } : undefined
                  }
                >
                  {v.kind}
                </span>
              </div>
            );
          })}
          <FaultHandles
            layout={layout}
            model={model}
            x={x}
            width={width}
            tEnd={tEnd}
            plotRef={plotRef}
            onHold={setHeldEnd}
          />
          {predict && (
            <div className="timeline__veil" ref={veilRef} data-testid="predict-veil">
              <span>{t('timeline.predictVeil')}</span>
            </div>
          )}
          {hover && hoverText && (
            <Tooltip anchor={hover.anchor}>
              <strong>{nameOwners(hoverText.head, model.owners)}</strong>
              {hoverText.details.slice(0, 5).map((d, i) => (
                <div key={i}>{nameOwners(d, model.owners, true)}</div>
              ))}
            </Tooltip>
          )}
        </div>
      </div>
      {!embed && !predict && <KeyMoments />}
      {!embed && <ViolationList />}
    </section>
  );
}
