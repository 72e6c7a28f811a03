/**
 * Where the timeline's small DOM tags go (a violation's "V1", "L1"): each at its box's corner,
 * then moved so it neither sits under a fault's diamond (a crash that opens an L1 puts both at the
 * same moment on the same lane) nor covers another tag (choosing-a-lock's V1 and V3, a second
 * apart, were one "VV3" at the whole run's zoom). Pure: plot pixels in, plot pixels out.
 */

export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** a tag's size at a font size: the text's width (two glyphs, "V1") plus its padding */
export function tagSize(text: string, fontPx: number): { w: number; h: number } {
  return { w: Math.ceil(text.length * fontPx * 0.68 + 8), h: Math.ceil(fontPx * 1.35) + 1 };
}

const meets = (a: Rect, b: Rect) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

/**
 * The tags' places, in the order given. A tag past the plot's right edge hangs leftwards from it;
 * one under a diamond moves right past it (left of it when the plot ends there); one over a tag
 * already placed moves down below that tag.
 */
export function placeTags(tags: readonly Rect[], obstacles: readonly Rect[], width: number): Rect[] {
  const placed: Rect[] = [];
  for (const want of tags) {
    const r = { ...want, x: Math.max(0, Math.min(want.x, width - want.w)) };
    // a few moves settle it: each one leaves what it met behind
    for (let i = 0; i < 8; i++) {
      const o = obstacles.find((ob) => meets(r, ob));
      if (o !== undefined) {
        r.x = o.x + o.w + 1 + r.w <= width ? o.x + o.w + 1 : Math.max(0, o.x - r.w - 1);
        continue;
      }
      const t = placed.find((p) => meets(r, p));
      if (t === undefined) break;
      r.y = t.y + t.h + 1;
    }
    placed.push(r);
  }
  return placed;
}
