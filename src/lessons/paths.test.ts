import { describe, expect, it } from 'vitest';
import { loadAllLessons } from './index';
import { COURSE_PATHS, pathMinutes, pathNeighbour } from './paths';

const lessons = await loadAllLessons();
const summary = lessons.map((l) => ({ id: l.id, minutes: l.minutes, steps: l.steps.length }));

describe('the 25-, 50- and 90-minute paths (LA12)', () => {
  it('name real steps of real lessons, in course order', () => {
    for (const p of COURSE_PATHS) {
      let last = -1;
      for (const s of p.stops) {
        const at = lessons.findIndex((l) => l.id === s.lesson);
        expect(at, `${p.id}: ${s.lesson}`).toBeGreaterThan(last);
        last = at;
        for (const n of s.steps) expect(n).toBeLessThanOrEqual(lessons[at].steps.length);
        expect([...s.steps].sort((a, b) => a - b)).toEqual(s.steps);
      }
    }
  });

  it('every path ends on the course’s last step, the choice of a lock', () => {
    const last = lessons[lessons.length - 1];
    for (const p of COURSE_PATHS) {
      const end = p.stops[p.stops.length - 1];
      expect(end.lesson, p.id).toBe(last.id);
      expect(end.steps[end.steps.length - 1], p.id).toBe(last.steps.length);
    }
  });

  it('take about as long as they say', () => {
    for (const p of COURSE_PATHS) {
      const m = pathMinutes(p, summary);
      expect(m, p.id).toBeGreaterThanOrEqual(Number(p.id) * 0.8);
      expect(m, p.id).toBeLessThanOrEqual(Number(p.id) * 1.1);
    }
  });

  it('Next follows the path across lessons, and stops at its end', () => {
    const p = COURSE_PATHS.find((x) => x.id === '25')!;
    expect(pathNeighbour(p, 'why-lock', 2, 1)).toEqual({ lesson: 'expiry', step: 1 });
    expect(pathNeighbour(p, 'expiry', 1, -1)).toEqual({ lesson: 'why-lock', step: 2 });
    expect(pathNeighbour(p, 'expiry', 2, 1)).toEqual({ lesson: 'expiry', step: 3 });
    // the argument ends on the choice of a lock, the course's last step
    expect(pathNeighbour(p, 'replication', 5, 1)).toEqual({ lesson: 'choosing-a-lock', step: 6 });
    expect(pathNeighbour(p, 'choosing-a-lock', 6, 1)).toBeNull();
  });
});
