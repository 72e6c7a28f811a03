import { describe, expect, it } from 'vitest';
import { revealFrames } from './reveal';

const evs = (kinds: string[]) => kinds.map((kind) => ({ kind }));

describe('revealFrames', () => {
  it('visits every visible event between the waiting cursor and the step’s, skipping script lines', () => {
    const e = evs(['cmd', 'script.line', 'cmd', 'script.line', 'lock.acquired', 'violation.start']);
    expect(revealFrames(e, 0, 5)).toEqual([2, 4, 5]);
  });

  it('thins a long walk to at most `max` frames, in order, ending on the step’s cursor', () => {
    const e = evs(Array.from({ length: 200 }, () => 'cmd'));
    const f = revealFrames(e, 10, 150, 6);
    expect(f).toHaveLength(6);
    expect(f[f.length - 1]).toBe(150);
    expect([...f].sort((a, b) => a - b)).toEqual(f);
    expect(f[0]).toBeGreaterThan(10);
  });

  it('is just the step’s cursor when there is nothing in between', () => {
    expect(revealFrames(evs(['cmd', 'cmd']), 1, 1)).toEqual([1]);
    expect(revealFrames(evs(['cmd', 'cmd']), 0, 1)).toEqual([1]);
  });
});
