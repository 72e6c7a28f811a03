import { describe, expect, it } from 'vitest';
import type { Trace } from '../../engine/trace/types';
import type { PlaygroundState } from '../store';
import { legendUntil, veilT } from './predict-cursor';

// a run whose events have not been parsed: reading them throws
function unparsedRun(): NonNullable<PlaygroundState['run']> {
  const trace = { events: [{ t: 5, kind: 'thread.start', actor: 'A:1' }] } as unknown as Trace;
  let parsed = false;
  const run = { trace, outline: { events: 1, lastT: 5, pace: 1, moments: [] } };
  Object.defineProperty(trace, 'events', {
    get() {
      if (!parsed) throw new Error('the events were read before the first draw');
      return [{ t: 5, kind: 'thread.start', actor: 'A:1' }];
    },
  });
  return Object.assign(run, { parse: () => (parsed = true) }) as unknown as NonNullable<
    PlaygroundState['run']
  >;
}

describe('predict mode before the first event', () => {
  it('the legend and the veil read nothing of the events at cursor -1', () => {
    const run = unparsedRun();
    expect(legendUntil({ predict: true, run, cursor: -1 })).toBe(0);
    expect(veilT({ predict: true, run, cursor: -1 })).toBe(-1);
    expect(legendUntil({ predict: false, run, cursor: -1 })).toBeUndefined();
    expect(veilT({ predict: false, run, cursor: -1 })).toBeNull();
  });

  it('read the event at the cursor once there is one', () => {
    const run = unparsedRun();
    (run as unknown as { parse: () => void }).parse();
    expect(legendUntil({ predict: true, run, cursor: 0 })).toBe(5);
    expect(veilT({ predict: true, run, cursor: 0 })).toBe(5);
  });
});
