/**
 * The compare view's label column: each lane's name, a node's role once it changes and a cluster
 * node's slots, as the timeline's labels show them. Its width comes from the texts themselves, so
 * "slots 10923–16383" fits, and stays put while the cursor moves (every text the labels can show
 * over the run is measured, not just the ones at the cursor).
 */
import { LABEL_W } from '../timeline/LaneMenu';
import type { LaneModel } from '../timeline/model';

export type LabelLineKind = 'id' | 'role' | 'slots';

export interface LabelLine {
  kind: LabelLineKind;
  text: string;
}

/** The widest a label column grows: a fifth of a 1440 px screen, so the lanes keep their room. */
export const MAX_LABEL_W = 240;
/** the label's padding either side and the column's border */
const PAD = 14;

/** Every line any lane label of `model` can show, whatever the cursor. */
export function labelLines(
  model: LaneModel,
  role: (role: string) => string,
  slots: (slots: string) => string,
): LabelLine[] {
  const out: LabelLine[] = model.threads.map((l) => ({ kind: 'id', text: l.id }));
  for (const n of model.nodes) {
    out.push({ kind: 'id', text: n.id });
    for (const r of n.roles)
      if (!n.id.startsWith(r.role)) out.push({ kind: 'role', text: `→ ${role(r.role)}` });
    for (const s of n.slots ?? []) if (s.slots) out.push({ kind: 'slots', text: slots(s.slots) });
  }
  return out;
}

/** The column's width: the widest line plus padding, between the timeline's and MAX_LABEL_W. */
export function labelColumnWidth(lines: readonly LabelLine[], measure: (line: LabelLine) => number): number {
  let w = 0;
  for (const l of lines) w = Math.max(w, measure(l));
  return Math.min(MAX_LABEL_W, Math.max(LABEL_W, Math.ceil(w) + PAD));
}

let ctx: CanvasRenderingContext2D | null | undefined;

/** The fonts the compare labels use (topology.css): mono for names and roles, sans for slots. */
function font(kind: LabelLineKind): string {
  const mono = getComputedStyle(document.documentElement).getPropertyValue('--mono').trim() || 'monospace';
  return kind === 'slots' ? '11px system-ui, sans-serif' : `${kind === 'role' ? '600 ' : ''}12px ${mono}`;
}

/** A line's width in px as the browser draws it; an estimate where there is no canvas. */
export function measureLine(line: LabelLine, estimate: (s: string, size: number) => number): number {
  if (ctx === undefined)
    ctx = typeof document === 'undefined' ? null : document.createElement('canvas').getContext('2d');
  if (!ctx) return estimate(line.text, line.kind === 'slots' ? 11 : 12);
  ctx.font = font(line.kind);
  return ctx.measureText(line.text).width;
}
