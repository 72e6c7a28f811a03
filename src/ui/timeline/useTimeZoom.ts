/**
 * The timeline's x axis: plot width (followed with a ResizeObserver) and the wheel/drag/pinch
 * transform (pan-zoom.ts) in x only, applied to a linear time scale. Picking another built-in resets the zoom; edits of the
 * same scenario keep the view. The visible window is published (view-window.ts) for share links,
 * and windows others ask for (a jump, a link's zoom) are applied once the plot has its width.
 */
import { scaleLinear, type LinearScale } from './linear-scale';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { usePlayground } from '../store';
import { requestView, useViewWindow } from '../view-window';
import type { Layout } from './layout';
import { attachPanZoom, isIdentity, rescaleX, zoomIdentity, type ZoomTransform } from './pan-zoom';

export interface TimeZoom {
  x: LinearScale;
  width: number;
  resetZoom(): void;
}

export function useTimeZoom(
  plotRef: RefObject<HTMLDivElement | null>,
  overRef: RefObject<HTMLDivElement | null>,
  layout: Layout | null,
  tEnd: number,
): TimeZoom {
  const [width, setWidth] = useState(800);
  const [measured, setMeasured] = useState(false);
  const [zt, setZt] = useState<ZoomTransform>(zoomIdentity);
  /** the transform the gestures start from (d3-zoom kept it on the element), ahead of `zt` */
  const current = useRef<ZoomTransform>(zoomIdentity);
  const zoomRaf = useRef(0);
  // Wheel events come faster than frames: render once per frame with the latest transform.
  const zoomTo = useCallback((t: ZoomTransform) => {
    current.current = t;
    if (!zoomRaf.current)
      zoomRaf.current = requestAnimationFrame(() => {
        zoomRaf.current = 0;
        setZt(current.current);
      });
  }, []);

  const x = useMemo(() => {
    const base = scaleLinear()
      .domain([0, tEnd * 1.02])
      .range([6, Math.max(50, width - 10)]);
    return rescaleX(base, zt);
  }, [tEnd, width, zt]);

  const hasLayout = layout !== null;
  // A layout effect measures before the first paint: the 800 px guess, drawn for one frame, is
  // wider than a phone and scrolled the page sideways (D28).
  useLayoutEffect(() => {
    const el = plotRef.current;
    if (!el) return;
    const measure = () => {
      setWidth(Math.max(200, Math.floor(el.clientWidth)));
      setMeasured(true);
    };
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [plotRef, hasLayout]);

  // The gestures, attached again when the lanes or the width change (the transform stays).
  useEffect(() => {
    const el = overRef.current;
    if (!el || !layout) return;
    return attachPanZoom(el, {
      width,
      height: layout.height,
      scaleExtent: [1, 5000],
      get: () => current.current,
      zoom: zoomTo,
    });
  }, [overRef, layout, width, zoomTo]);

  const resetZoom = useCallback(() => zoomTo(zoomIdentity), [zoomTo]);

  const builtinId = usePlayground((s) => s.builtinId);
  useEffect(() => {
    if (builtinId) resetZoom();
  }, [builtinId, resetZoom]);

  // Publish the window (null at the full view); rounded so a link does not change on every pixel.
  // When an edit changes the run's length, the zoom transform (in pixels) would now show other
  // times: ask for the window that was showing instead. A new scenario starts at the full view.
  const seen = useRef({ tEnd, builtinId });
  useEffect(() => {
    const before = seen.current;
    seen.current = { tEnd, builtinId };
    const prev = useViewWindow.getState().view;
    if (before.tEnd !== tEnd && prev && !(builtinId && builtinId !== before.builtinId)) {
      requestView(prev[0], prev[1]);
      return;
    }
    const [from, to] = x.domain();
    const full = isIdentity(zt);
    const view: [number, number] | null = full ? null : [Math.max(0, Math.round(from)), Math.round(to)];
    if (view?.[0] !== prev?.[0] || view?.[1] !== prev?.[1]) useViewWindow.setState({ view });
  }, [x, zt, tEnd, builtinId]);

  // Apply a requested window: scale and shift so [from, to] fills the plot's range.
  const request = useViewWindow((s) => s.request);
  useEffect(() => {
    if (!request || !measured || !overRef.current || !layout) return;
    const base = scaleLinear()
      .domain([0, tEnd * 1.02])
      .range([6, Math.max(50, width - 10)]);
    const [r0, r1] = base.range();
    const span = Math.max(1e-9, base(request.to) - base(request.from));
    const k = Math.min(5000, Math.max(1, (r1 - r0) / span));
    const tx = r0 - k * base(request.from);
    zoomTo({ k, x: tx, y: 0 });
    useViewWindow.setState({ request: null });
  }, [request, measured, overRef, layout, width, tEnd, zoomTo]);

  return { x, width, resetZoom };
}
