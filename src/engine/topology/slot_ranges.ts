/** Arithmetic on lists of slot ranges, as a node's beliefs and a client's slot map hold them. */
import type { SlotRange } from '../redis/cluster_slots';

export function overlaps(slots: readonly SlotRange[], r: SlotRange): boolean {
  return slots.some((s) => s.start <= r.end && r.start <= s.end);
}

export function subtract(slots: readonly SlotRange[], r: SlotRange): SlotRange[] {
  const out: SlotRange[] = [];
  for (const s of slots) {
    if (s.end < r.start || s.start > r.end) out.push(s);
    else {
      if (s.start < r.start) out.push({ start: s.start, end: r.start - 1 });
      if (s.end > r.end) out.push({ start: r.end + 1, end: s.end });
    }
  }
  return out;
}

export function intersect(slots: readonly SlotRange[], r: SlotRange): SlotRange[] {
  const out: SlotRange[] = [];
  for (const s of slots) {
    const start = Math.max(s.start, r.start);
    const end = Math.min(s.end, r.end);
    if (start <= end) out.push({ start, end });
  }
  return out;
}

export function sameSlots(a: readonly SlotRange[], b: readonly SlotRange[]): boolean {
  return a.length === b.length && a.every((r, i) => r.start === b[i].start && r.end === b[i].end);
}

export function rangeEnd(slots: readonly SlotRange[], slot: number): number {
  for (const r of slots) if (slot >= r.start && slot <= r.end) return r.end;
  return slot;
}
