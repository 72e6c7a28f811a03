import { describe, expect, it } from 'vitest';
import { placeTags, tagSize, type Rect } from './tag-placement';

const tag = (x: number, y: number): Rect => ({ x, y, ...tagSize('V1', 10) });
const overlap = (a: Rect, b: Rect) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('violation tags on the timeline', () => {
  it('stay at their box’s corner when nothing is in the way', () => {
    expect(placeTags([tag(40, 10), tag(200, 10)], [], 600)).toEqual([tag(40, 10), tag(200, 10)]);
  });

  it('V1 and V3 a few pixels apart on the same lanes: the second goes below the first', () => {
    // choosing-a-lock 5/6: V1 at 12.0 s, V3 at 13.0 s, 20 px apart at the whole run's zoom
    const [v1, v3] = placeTags([tag(560, 26), tag(580, 26)], [], 600);
    expect(overlap(v1, v3)).toBe(false);
    expect(v3.x).toBe(Math.min(580, 600 - v3.w));
    expect(v3.y).toBe(v1.y + v1.h + 1);
  });

  it('an L1 tag under a crash’s diamond moves right past it', () => {
    const diamond = { x: 94, y: 27, w: 12, h: 12 };
    const [l1] = placeTags([tag(100, 26)], [diamond], 600);
    expect(overlap(l1, diamond)).toBe(false);
    expect(l1.x).toBe(diamond.x + diamond.w + 1);
    expect(l1.y).toBe(26);
  });

  it('hang leftwards at the plot’s right edge, also when a diamond is there', () => {
    const [edge] = placeTags([tag(595, 10)], [], 600);
    expect(edge.x + edge.w).toBeLessThanOrEqual(600);
    const diamond = { x: 585, y: 10, w: 12, h: 12 };
    const [moved] = placeTags([tag(590, 10)], [diamond], 600);
    expect(overlap(moved, diamond)).toBe(false);
    expect(moved.x + moved.w).toBeLessThanOrEqual(diamond.x);
  });

  it('three at one moment stack, none over another', () => {
    const out = placeTags([tag(50, 0), tag(52, 0), tag(54, 0)], [], 600);
    for (let i = 0; i < out.length; i++)
      for (let j = i + 1; j < out.length; j++) expect(overlap(out[i], out[j])).toBe(false);
  });
});
