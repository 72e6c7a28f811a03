import { describe, expect, it } from 'vitest';
import { builtins } from '../engine/scenario/builtins';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import type { TraceEvent } from '../engine/trace/types';
import { MAX_PLAY_S, MIN_PLAY_S, playbackSeconds, speedOf } from './playback-speed';
import { outlineOf } from './run-outline';

const ev = (t: number, kind: TraceEvent['kind'] = 'cmd') => ({ t, seq: t, kind }) as TraceEvent;
const defaultSpeed = (trace: { events: TraceEvent[] }) => speedOf(outlineOf(trace));

describe('the default speed (speedOf a run outline)', () => {
  it('plays every built-in in 10 to 20 seconds', { timeout: 60_000 }, () => {
    for (const b of builtins) {
      const v = validateScenario(b.scenario);
      if (!v.ok) throw new Error(`${b.id} is invalid`);
      const { trace } = runScenario(v.scenario, { verbose: false });
      const s = playbackSeconds(trace, defaultSpeed(trace));
      expect(s, b.id).toBeGreaterThanOrEqual(MIN_PLAY_S);
      expect(s, b.id).toBeLessThanOrEqual(MAX_PLAY_S);
    }
  });

  it('stretches a run with many events towards the long end', () => {
    const few = { events: [ev(0), ev(1000)] };
    const many = { events: Array.from({ length: 400 }, (_, i) => ev(i * 10)) };
    expect(playbackSeconds(few, defaultSpeed(few))).toBeLessThan(13);
    expect(playbackSeconds(many, defaultSpeed(many))).toBeGreaterThan(17);
  });

  it('ignores script lines when judging the pace', () => {
    const plain = { events: [ev(0), ev(1000)] };
    const verbose = { events: [...Array.from({ length: 300 }, () => ev(0, 'script.line')), ev(1000)] };
    expect(defaultSpeed(verbose)).toBe(defaultSpeed(plain));
  });

  it('falls back to 1× when nothing takes time', () => {
    expect(defaultSpeed({ events: [] })).toBe(1);
    expect(defaultSpeed({ events: [ev(0)] })).toBe(1);
  });
});
