/**
 * A node lane's key sub-rows when a node holds more keys than a lane can show one by one (issue
 * 23's 10,000 locks): the first MAX_KEY_ROWS names keep their rows, the rest share one row that
 * counts them. 10,000 lock keys as 24 px rows would be a lane 240,000 px tall no one can read.
 */
import type { NodeLane } from './model';

export const MAX_KEY_ROWS = 24;

/** Moves the segments of every key past the first MAX_KEY_ROWS names into `moreKeys`. */
export function aggregateKeys(lane: NodeLane): void {
  if (lane.keyNames.length <= MAX_KEY_ROWS) return;
  const rest = new Set(lane.keyNames.slice(MAX_KEY_ROWS));
  lane.keyNames = lane.keyNames.slice(0, MAX_KEY_ROWS);
  const steps: [number, number][] = [];
  lane.keys = lane.keys.filter((k) => {
    if (!rest.has(k.name)) return true;
    if (k.label && k.to > k.from) steps.push([k.from, 1], [k.to, -1]);
    return false;
  });
  steps.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const live: { from: number; to: number; count: number }[] = [];
  let count = 0;
  for (let i = 0; i < steps.length; i++) {
    count += steps[i][1];
    const t = steps[i][0];
    const next = steps[i + 1]?.[0];
    if (next === undefined || next === t) continue;
    const last = live[live.length - 1];
    if (last !== undefined && last.count === count && last.to === t) last.to = next;
    else if (count > 0) live.push({ from: t, to: next, count });
  }
  lane.moreKeys = { names: rest.size, live };
}
