/**
 * The timeline's own wheel, drag and pinch, in place of d3-zoom (whose transition, drag, timer,
 * ease and dispatch modules were about 8 KB gzip of the first screen, for gestures this plot uses
 * only in x). It keeps d3-zoom's arithmetic and feel as the timeline configured it: the wheel
 * zooms by 2^(-deltaY × 0.002) around the pointer (× 10 with Ctrl, lines and pages scaled as
 * d3-zoom does), a drag pans, two touches pinch, the scale stays within its extent and the view
 * within the plot; a wheel that cannot zoom further scrolls the page, a drag that moved swallows
 * the click that ends it, and a double click does nothing (the timeline turned d3's off).
 */
import type { LinearScale } from './linear-scale';

/** d3-zoom's transform: x' = x × k + tx (y likewise; the timeline reads x only). */
export interface ZoomTransform {
  readonly k: number;
  readonly x: number;
  readonly y: number;
}

export const zoomIdentity: ZoomTransform = { k: 1, x: 0, y: 0 };

export const isIdentity = (t: ZoomTransform) => t.k === 1 && t.x === 0 && t.y === 0;

/** The scale seen through the transform (d3-zoom's transform.rescaleX). */
export function rescaleX(base: LinearScale, t: ZoomTransform): LinearScale {
  return base.copy().domain(base.range().map((r) => base.invert((r - t.x) / t.k)));
}

type Point = readonly [number, number];
const invert = (t: ZoomTransform, p: Point): Point => [(p[0] - t.x) / t.k, (p[1] - t.y) / t.k];

/** t at scale k (clamped to the extent), moved so the plot point `l` shows at pixel `p`. */
export function anchored(t: ZoomTransform, k: number, p: Point, l: Point, extent: Point): ZoomTransform {
  const k1 = Math.max(extent[0], Math.min(extent[1], k));
  return { k: k1, x: p[0] - l[0] * k1, y: p[1] - l[1] * k1 };
}

/**
 * d3-zoom's default constraint with its extent and translate extent both [[0, 0], [w, h]]: the
 * view never shows outside the plot (at k ≥ 1, tx within [w(1 − k), 0], ty within [h(1 − k), 0]).
 */
export function constrain(t: ZoomTransform, w: number, h: number): ZoomTransform {
  const shift = (lo: number, hi: number) => (hi > lo ? (lo + hi) / 2 : Math.min(0, lo) || Math.max(0, hi));
  const dx = shift(-t.x / t.k, (w - t.x) / t.k - w);
  const dy = shift(-t.y / t.k, (h - t.y) / t.k - h);
  return dx === 0 && dy === 0 ? t : { k: t.k, x: t.x + t.k * dx, y: t.y + t.k * dy };
}

/** d3-zoom's wheel step: a wheel notch of deltaY pixels zooms by 2^(−deltaY × 0.002). */
export function wheelDelta(ev: Pick<WheelEvent, 'deltaY' | 'deltaMode' | 'ctrlKey'>): number {
  return -ev.deltaY * (ev.deltaMode === 1 ? 0.05 : ev.deltaMode ? 1 : 0.002) * (ev.ctrlKey ? 10 : 1);
}

export interface PanZoomOptions {
  width: number;
  height: number;
  scaleExtent: Point;
  /** the transform now (kept by the caller, so it outlives a re-attach on resize) */
  get(): ZoomTransform;
  zoom(t: ZoomTransform): void;
}

/** A wheel gesture ends after this long without a wheel event (d3-zoom's wheelDelay). */
const WHEEL_IDLE_MS = 150;

/** Attaches the gestures to `el`; returns their removal. */
export function attachPanZoom(el: HTMLElement, o: PanZoomOptions): () => void {
  const at = (ev: { clientX: number; clientY: number }): Point => {
    const r = el.getBoundingClientRect();
    return [ev.clientX - r.left - el.clientLeft, ev.clientY - r.top - el.clientTop];
  };
  const fit = (t: ZoomTransform) => constrain(t, o.width, o.height);

  // The wheel: the plot point under the pointer at the gesture's start stays under it.
  let wheel: { timer?: ReturnType<typeof setTimeout>; p: Point; l: Point } | null = null;
  const onWheel = (ev: WheelEvent) => {
    if (ev.button) return;
    const t = o.get();
    const k = Math.max(o.scaleExtent[0], Math.min(o.scaleExtent[1], t.k * 2 ** wheelDelta(ev)));
    const p = at(ev);
    if (wheel) {
      if (wheel.p[0] !== p[0] || wheel.p[1] !== p[1]) wheel = { ...wheel, p, l: invert(t, p) };
      clearTimeout(wheel.timer);
    } else if (t.k === k)
      return; // nothing to zoom: the page scrolls
    else wheel = { p, l: invert(t, p) };
    ev.preventDefault();
    ev.stopImmediatePropagation();
    wheel.timer = setTimeout(() => (wheel = null), WHEEL_IDLE_MS);
    o.zoom(fit(anchored(t, k, wheel.p, wheel.l, o.scaleExtent)));
  };

  // Pointers: one drags (mouse, pen or touch), two pinch. Each keeps the plot point it grabbed.
  const held = new Map<number, { p: Point; l: Point }>();
  let moved = false;
  let start: Point = [0, 0];
  const regrab = () => {
    const t = o.get();
    for (const h of held.values()) h.l = invert(t, h.p);
  };
  // No text selection or native drag while a pointer is held (d3's dragDisable).
  const noSelect = (ev: Event) => ev.preventDefault();
  const selecting = (on: boolean) => {
    for (const type of ['selectstart', 'dragstart'])
      if (on) window.addEventListener(type, noSelect, true);
      else window.removeEventListener(type, noSelect, true);
  };
  const onDown = (ev: PointerEvent) => {
    if (ev.button || ev.ctrlKey || held.size >= 2) return;
    el.setPointerCapture?.(ev.pointerId);
    if (held.size === 0) {
      moved = false;
      start = [ev.clientX, ev.clientY];
      selecting(true);
    }
    const p = at(ev);
    held.set(ev.pointerId, { p, l: invert(o.get(), p) });
    if (held.size === 2) regrab();
  };
  const onMove = (ev: PointerEvent) => {
    const h = held.get(ev.pointerId);
    if (!h) return;
    ev.preventDefault();
    if (!moved) moved = ev.clientX !== start[0] || ev.clientY !== start[1];
    h.p = at(ev);
    const t = o.get();
    const [a, b] = [...held.values()];
    if (b === undefined) {
      o.zoom(fit(anchored(t, t.k, a.p, a.l, [t.k, t.k])));
      return;
    }
    const k = Math.hypot(b.p[0] - a.p[0], b.p[1] - a.p[1]) / Math.hypot(b.l[0] - a.l[0], b.l[1] - a.l[1]);
    const mid = (u: Point, v: Point): Point => [(u[0] + v[0]) / 2, (u[1] + v[1]) / 2];
    if (Number.isFinite(k)) o.zoom(fit(anchored(t, k, mid(a.p, b.p), mid(a.l, b.l), o.scaleExtent)));
  };
  const swallowClick = (ev: MouseEvent) => {
    ev.preventDefault();
    ev.stopImmediatePropagation();
  };
  const onUp = (ev: PointerEvent) => {
    if (!held.delete(ev.pointerId)) return;
    regrab();
    if (held.size > 0) return;
    selecting(false);
    if (!moved) return;
    // the click that ends a drag is not a click on the plot
    window.addEventListener('click', swallowClick, true);
    setTimeout(() => window.removeEventListener('click', swallowClick, true), 0);
  };

  const prevTouch = el.style.touchAction;
  el.style.touchAction = 'none';
  el.addEventListener('wheel', onWheel, { passive: false });
  el.addEventListener('pointerdown', onDown);
  el.addEventListener('pointermove', onMove);
  el.addEventListener('pointerup', onUp);
  el.addEventListener('pointercancel', onUp);
  return () => {
    if (wheel) clearTimeout(wheel.timer);
    held.clear();
    el.style.touchAction = prevTouch;
    el.removeEventListener('wheel', onWheel);
    el.removeEventListener('pointerdown', onDown);
    el.removeEventListener('pointermove', onMove);
    el.removeEventListener('pointerup', onUp);
    el.removeEventListener('pointercancel', onUp);
    selecting(false);
  };
}
