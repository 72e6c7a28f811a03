import { describe, expect, it } from 'vitest';
import { client, hold, scenario } from '../engine/scenario/build';
import { evaluateLesson, RunCache, stepWindow } from './evaluate';
import { lessonCatalog } from './index';
import { findEvent } from './select';
import type { Lesson } from './types';

const cache = new RunCache();

describe('a step’s time window (Step.zoom)', () => {
  const run = cache.run(
    scenario([
      client('A', hold('myLock', 1000)),
      client('B', [{ op: 'tryLock', lock: 'myLock' }], { start: 100 }),
    ]),
  );
  const events = run.trace.events;
  const acquired = findEvent(events, { kind: 'lock.acquired', actor: 'A:1' });
  const released = findEvent(events, { kind: 'lock.released', actor: 'A:1' });

  it('runs from one event to the other, a twentieth wider each side', () => {
    const [a, b] = [events[acquired].t, events[released].t];
    const pad = (b - a) / 20;
    expect(
      stepWindow(
        events,
        { from: { kind: 'lock.acquired', actor: 'A:1' }, to: { kind: 'lock.released', actor: 'A:1' } },
        0,
      ),
    ).toEqual([Math.max(0, Math.floor(a - pad)), Math.ceil(b + pad)]);
  });

  it('ends at the step’s cursor without `to`, and is never narrower than 4 ms', () => {
    const w = stepWindow(events, { from: { kind: 'lock.acquired', actor: 'A:1' } }, acquired);
    expect(w[1] - w[0]).toBeGreaterThanOrEqual(4);
    expect(w[0]).toBeLessThanOrEqual(events[acquired].t);
    expect(w[1]).toBeGreaterThanOrEqual(events[acquired].t);
  });
});

/** The holds too short to see at the whole run's zoom, and the steps that open on them. */
const SHORT_HOLDS = [
  { lesson: 'pauses-fencing', step: 2, actor: 'B:1', lock: 'myLock' },
  { lesson: 'multilock-redlock', step: 6, actor: 'B:1', lock: 'res' },
];

describe('steps whose hold is too short to see at the whole run open zoomed on it', async () => {
  const lessons = new Map<string, Lesson>(
    await Promise.all(
      SHORT_HOLDS.map(
        async (s) => [s.lesson, await lessonCatalog.find((e) => e.id === s.lesson)!.load()] as const,
      ),
    ),
  );
  for (const { lesson, step, actor, lock } of SHORT_HOLDS)
    it(`${lesson} step ${step}: ${actor}'s hold on ${lock} is five times wider or more`, () => {
      const r = evaluateLesson(lessons.get(lesson)!, cache, { tasks: false }).steps[step - 1];
      expect(r.checks.filter((c) => !c.ok)).toEqual([]);
      const events = r.run!.trace.events;
      const from = events[findEvent(events, { kind: 'lock.acquired', actor, lock })].t;
      const to = events[findEvent(events, { kind: 'lock.released', actor, lock })].t;
      const [a, b] = r.zoom!;
      // the whole hold inside the window, and its share of the plot's width five times what it was
      expect(a).toBeLessThanOrEqual(from);
      expect(b).toBeGreaterThanOrEqual(to);
      const runEnd = events[events.length - 1].t;
      expect((to - from) / (b - a)).toBeGreaterThanOrEqual((5 * (to - from)) / runEnd);
    });
});
