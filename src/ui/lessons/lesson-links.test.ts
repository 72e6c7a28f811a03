import { describe, expect, it } from 'vitest';
import { decodeHash, decodeLessonHash, encodeLessonHash, isPresent } from '../url-state';

describe('lesson links', () => {
  it('round-trips a lesson and a step (1-based in the link, 0-based inside)', () => {
    expect(encodeLessonHash({ lesson: 'waiting', step: 2 })).toBe('#lesson=waiting&step=3');
    expect(decodeLessonHash('#lesson=waiting&step=3')).toEqual({ lesson: 'waiting', step: 2 });
    expect(decodeLessonHash('lesson=why-lock')).toEqual({ lesson: 'why-lock', step: 0 });
    expect(decodeLessonHash('#lesson=why-lock&step=0')).toEqual({ lesson: 'why-lock', step: 0 });
  });

  it('refuses what is not a lesson link, and the scenario decoder ignores lesson links', () => {
    for (const h of ['', '#', '#s=abc&c=1', '#lesson=', '#lesson=../x', '#lesson=A&step=1', '#lessons=x'])
      expect(decodeLessonHash(h)).toBeNull();
    expect(decodeHash('#lesson=waiting&step=3')).toEqual({ kind: 'none' });
  });

  it('reads ?present=1', () => {
    expect(isPresent('?present=1')).toBe(true);
    expect(isPresent('?embed=1&present=1')).toBe(true);
    expect(isPresent('?present=0')).toBe(false);
    expect(isPresent('')).toBe(false);
  });
});
