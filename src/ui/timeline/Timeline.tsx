/**
 * The Jepsen-style timeline: canvas for the lanes (repainted on zoom, resize or a new trace), a
 * second canvas for the cursor (repainted on every cursor move, cheap), DOM only for the few
 * things that need it (violation labels, draggable faults, lane menus, the tooltip).
 *
 * Its parts: useTimeZoom (x scale, zoom, resize), useHitTest (which event is under the pointer),
 * FaultHandles (fault markers and their drag), LaneMenu (lane labels and their fault menus).
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { faultsOf } from '../../engine/scenario/edit';
import type { Fault } from '../../engine/scenario/schema';
import { describeEvent } from '../describe-event';
import { eventAt } from '../run-outline';
import { useT } from '../hooks/useT';
import { KeyMoments } from '../shell/KeyMoments';
import { UndoRedo } from '../shell/UndoRedo';
import { indexAtTime, setCursor, usePlayground } from '../store';
import { drawTimeline, markLabelBox, MIN_TEXT_PX } from './draw';
import { faultBoxes, FaultHandles, faultEnd } from './FaultHandles';
import { labelWidth, LaneLabels, roleWord } from './LaneMenu';
import { nameOwners } from './owners';
import { computeLayout, veilLabelTop, violationRows, type Layout } from './layout';
import { violationTitle, violationWho } from './violation-text';
import { CanvasPainter } from './painter';
import { Legend } from './Legend';
import type { LaneModel } from './model';
import { placeTags, tagSize, type Rect } from './tag-placement';
import { useHitTest, type Hit } from './useHitTest';
import { useTimeZoom } from './useTimeZoom';
import { drawAxisTop } from './axis';
import { tickLabel } from './tick-label';
import { ViolationList } from './ViolationList';
import { veilT } from './predict-cursor';

const AXIS_H = 24;
const NO_FOCUS: readonly string[] = [];
/** the narrowest the predict veil's label wraps to (px); a narrower veil shows no label */
const VEIL_LABEL_MIN = 110;
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

type Labelled = readonly { lane: string; m: { t: number; kind: string; label?: string } }[];

/**
 * Each violation's box on the plot (null: not drawn; in predict mode cut at the cursor's moment
 * `nowT`), and its tag's place, clear of the fault diamonds, the write tokens the canvas prints
 * ("#34") and the other tags.
 */
function violationPlaces(
  model: LaneModel,
  layout: Layout,
  x: (t: number) => number,
  width: number,
  nowT: number | null,
  faults: readonly Fault[],
  labelled: Labelled,
  presenter: boolean,
) {
  const boxes = model.violations.map((v) => {
    if (nowT !== null && v.from > nowT) return null;
    const left = Math.max(0, x(v.from));
    const right = Math.min(width, x(nowT === null ? v.to : Math.min(v.to, nowT)));
    if (right < 0 || left > width) return null;
    return { left, right, ...violationRows(v, layout) };
  });
  const fs = MIN_TEXT_PX * layout.scale;
  const tokens = labelled.flatMap(({ lane, m }) => {
    const row = layout.byId.get(lane);
    const box = row ? markLabelBox(m, x(m.t), row, fs, width, nowT === null) : null;
    return box ? [box] : [];
  });
  const obstacles = [...faultBoxes(faults, layout, model, x), ...tokens];
  return { boxes, tags: placeViolationTags(model, boxes, obstacles, width, presenter) };
}

/** Each drawn violation's tag place (by the violation's index), clear of the obstacles and of each other. */
function placeViolationTags(
  model: LaneModel,
  boxes: readonly ({ left: number; top: number; bottom: number } | null)[],
  obstacles: readonly Rect[],
  width: number,
  presenter: boolean,
): Map<number, Rect> {
  // app.css: 12 px, 18 px on a projector
  const fontPx = presenter ? 18 : 12;
  const drawn = boxes.flatMap((b, i) =>
    b === null ? [] : [{ b, i, ...tagSize(model.violations[i].kind, fontPx) }],
  );
  // V2's tag hangs at the bottom of its box (app.css), the others' at the top
  const placed = placeTags(
    drawn.map(({ b, i, w, h }) => ({
      x: b.left,
      y: model.violations[i].kind === 'V2' ? b.bottom - h + 1 : b.top - 1,
      w,
      h,
    })),
    obstacles,
    width,
  );
  return new Map(drawn.map(({ i }, k) => [i, placed[k]]));
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
  const nowT = usePlayground(veilT);
  const lang = usePlayground((s) => s.lang);
  const model = run?.model;
  // A projector of 720-820 px height gets a little less: the lanes a step talks about must fit.
  const scale = presenter ? (window.innerHeight <= 820 ? 1.25 : 1.5) : 1;
  // ...and the shards a lesson step does not talk about fold away (a click on one unfolds them)
  const focus = usePlayground((s) => (s.presenter ? s.laneFocus : NO_FOCUS));
  const layout = useMemo(() => (model ? computeLayout(model, scale, focus) : null), [model, scale, focus]);

  // the marks the canvas writes a label beside (a write's token): few, found once per run
  const labelled = useMemo(
    () =>
      (model?.threads ?? []).flatMap((l) => l.marks.filter((m) => m.label).map((m) => ({ lane: l.id, m }))),
    [model],
  );

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
    drawTimeline(new CanvasPainter(ctx), model, layout, x, width, labels, [top, top + h], !predict);
    performance.mark('lockscope:lanes-drawn', { detail: { threads: model.threads.length } });
  }, [model, layout, width, x, labels, yRange, predict]);

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

  // Axis (SVG, axis.ts).
  useEffect(() => {
    const g = axisRef.current?.querySelector('g');
    if (!g) return;
    g.setAttribute('transform', `translate(0,${AXIS_H - 1})`);
    // presenter mode's 18 px labels need more room each ("100 ms200 ms" ran together)
    drawAxisTop(g, x, Math.max(2, Math.floor(width / (presenter ? 140 : 90))), (d) => tickLabel(d, t));
  }, [x, width, t, presenter]);

  // The cursor: two DOM elements moved by transform on every cursor move, without re-rendering
  // React or repainting any canvas (the compositor does it).
  const places = useMemo(
    () =>
      model && layout
        ? violationPlaces(model, layout, x, width, nowT, faultsOf(scenario), labelled, presenter)
        : null,
    [model, layout, x, width, nowT, scenario, labelled, presenter],
  );
  const paintCursor = useCallback(() => {
    const line = cursorRef.current;
    const dot = dotRef.current;
    if (!line || !dot || !layout) return;
    const s = usePlayground.getState();
    const ev = s.run && eventAt(s.run, s.cursor);
    // The veil covers everything right of the cursor (all of it before the first event).
    const veil = veilRef.current;
    if (veil) {
      const vx = Math.max(0, Math.round(ev ? x(ev.t) + 1 : 0));
      veil.style.transform = `translateX(${vx}px)`;
      // Its label stays on the veil, wrapped to the room right of the cursor: left of it, it hid the
      // past, or the threads' header at the top. Where not even a narrow column fits, the hatching
      // says it alone.
      const label = veil.firstElementChild as HTMLElement | null;
      // ...and clear of a violation's tag at the cursor, drawn above the veil in the same lane
      const top = veilLabelTop(layout);
      const ends = [...(places?.tags.values() ?? [])].filter(
        (r) => r.y < top + 24 && r.y + r.h > top && r.x + r.w > vx,
      );
      const clear = Math.max(0, ...ends.map((r) => r.x + r.w - vx));
      const room = width - vx - 24 - clear;
      if (label) {
        label.style.maxWidth = `${Math.max(0, room)}px`;
        label.style.marginLeft = `${12 + clear}px`;
      }
      veil.classList.toggle('timeline__veil--narrow', room < VEIL_LABEL_MIN);
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
  }, [layout, x, width, places]);

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

  const { boxes, tags } = places!;

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
            const box = boxes[i];
            if (box === null) return null;
            const { left, right, top, bottom } = box;
            const tag = tags.get(i)!;
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
                {/* placed clear of the fault diamonds and of the other tags (tag-placement.ts) */}
                <span
                  className="timeline__violation-tag"
                  style={{ left: tag.x - left, top: tag.y - top, right: 'auto', bottom: 'auto' }}
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
            <div
              className="timeline__veil"
              ref={veilRef}
              data-testid="predict-veil"
              // its label in the first lane, clear of the group headers' bands (layout.ts)
              style={{ '--veil-label-top': `${veilLabelTop(layout)}px` } as React.CSSProperties}
            >
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
