import { useEffect } from 'react';
import { indexAtTime, usePlayground } from '../store';

/**
 * Advances the cursor in virtual time while playing: `speed` virtual ms per real ms. The cursor
 * is the last event at or before the playhead, so quiet stretches pass at the same pace as busy
 * ones, as on a real clock.
 */
export function usePlayback(): void {
  const playing = usePlayground((s) => s.playing);
  useEffect(() => {
    if (!playing) return;
    let raf = 0;
    let last = performance.now();
    const s0 = usePlayground.getState();
    const ev0 = s0.run?.trace.events[s0.cursor];
    let head = ev0 ? ev0.t : 0;
    const frame = (now: number) => {
      const s = usePlayground.getState();
      const trace = s.run?.trace;
      if (!trace || trace.events.length === 0) return;
      head += (now - last) * s.speed;
      last = now;
      const cursor = Math.max(s.cursor, indexAtTime(trace, head));
      const atEnd = cursor >= trace.events.length - 1;
      if (cursor !== s.cursor || atEnd) usePlayground.setState({ cursor, playing: !atEnd });
      if (!atEnd) raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(raf);
  }, [playing]);
}

export function togglePlay(): void {
  usePlayground.setState((s) => {
    const n = s.run?.trace.events.length ?? 0;
    if (n === 0) return {};
    // Playing from the end starts over.
    if (!s.playing && s.cursor >= n - 1) return { playing: true, cursor: -1 };
    return { playing: !s.playing };
  });
}
