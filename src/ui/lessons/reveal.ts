/**
 * After a prediction is answered the step plays the events that decide it, from where the cursor
 * waited to the step's own cursor: a few frames, not every verbose event (a script's line-by-line
 * events would make a long, flickering walk).
 */
export interface RevealEvent {
  kind: string;
}

/** At most this many cursor moves; the last one is always the step's cursor. */
export const REVEAL_FRAMES = 8;
/** ms between two frames: the whole walk stays under ~2.5 s. */
export const REVEAL_MS = 300;

/**
 * The event indices the cursor visits after `from` up to and including `to`: the events a reader
 * can see (no `script.line`), evenly thinned to `max`, ending on `to`.
 */
export function revealFrames(
  events: readonly RevealEvent[],
  from: number,
  to: number,
  max = REVEAL_FRAMES,
): number[] {
  if (to <= from) return [to];
  const seen: number[] = [];
  for (let i = Math.max(0, from + 1); i < to && i < events.length; i++)
    if (events[i].kind !== 'script.line') seen.push(i);
  const room = max - 1;
  const picked =
    seen.length <= room
      ? seen
      : Array.from({ length: room }, (_, k) => seen[Math.floor(((k + 1) * seen.length) / (room + 1))]);
  return [...new Set([...picked, to])];
}
