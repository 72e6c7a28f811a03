import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Trace } from '../engine/trace/types';
import type { RunOutcome } from './worker-protocol';

const run = vi.fn<(scenario: unknown, opts: unknown) => Promise<RunOutcome>>();
vi.mock('./engine-client', () => ({
  engineClient: { run: (scenario: unknown, opts: unknown) => run(scenario, opts) },
  RunTimeoutError: class extends Error {},
  RUN_TIMEOUT_MS: 60_000,
}));
const { loadScenario } = await import('./controller');
const { usePlayground } = await import('./store');

const EVENTS = [0, 10, 20, 30].map((t, i) => ({ t, kind: 'thread.start', actor: `A:${i + 1}` }));

/** An answer whose events count their reads, as the deferred parse's getter would parse them. */
function answer(firstIndex: number) {
  const reads = { n: 0 };
  const trace = { format: 'lockscope-trace/1', verdict: 'safe', violations: [] } as unknown as Trace;
  Object.defineProperty(trace, 'events', {
    enumerable: true,
    get() {
      reads.n++;
      return EVENTS;
    },
  });
  const outcome = {
    ok: true,
    runId: 1,
    scenario: {},
    nodeIds: ['master'],
    trace,
    model: { nodes: [] },
    outline: { events: EVENTS.length, lastT: 30, pace: EVENTS.length, moments: [] },
    verbose: false,
    first: { index: firstIndex, state: { nodes: {}, threads: {} } },
    timing: { run: 1, lanes: 1, posted: performance.timeOrigin + performance.now() },
  } as unknown as RunOutcome;
  return { outcome, reads };
}

const doc = { format: 'lockscope/1', clients: [] };

describe('loadScenario and the deferred events', () => {
  beforeEach(() => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] }));
  afterEach(() => vi.useRealTimers());

  it('an edit lands the cursor where the worker did, reading no event before the draw', async () => {
    const shown = answer(-1);
    run.mockResolvedValueOnce(shown.outcome);
    await loadScenario(doc, { persist: false, history: false });
    vi.runAllTimers();
    usePlayground.setState({ cursor: 2 }); // at t=20, the events parsed
    const edit = answer(2);
    run.mockResolvedValueOnce(edit.outcome);
    expect(await loadScenario(doc, { keepTime: true, persist: false })).toBe(true);
    expect(run.mock.lastCall?.[1]).toMatchObject({ at: { clock: 20 } });
    expect(usePlayground.getState().cursor).toBe(2);
    expect(edit.reads.n).toBe(0);
    // then, in a task of its own, the run on screen has its events parsed
    vi.runAllTimers();
    expect(edit.reads.n).toBe(1);
  });

  it('does not parse a run that a newer one replaced before its parse came', async () => {
    const older = answer(-1);
    const newer = answer(-1);
    run.mockResolvedValueOnce(older.outcome).mockResolvedValueOnce(newer.outcome);
    await loadScenario(doc, { persist: false, history: false });
    await loadScenario(doc, { persist: false, history: false });
    vi.runAllTimers();
    expect(older.reads.n).toBe(0);
    expect(newer.reads.n).toBe(1);
  });
});
