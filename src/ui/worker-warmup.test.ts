import { describe, expect, it } from 'vitest';
import { builtin } from '../engine/scenario/builtins/index';
import { createEngineHost, makeRun } from './engine-host';
import { createWarmup, WARM_BUDGET_MS, WARM_SLOW_MS } from './worker-warmup';
import type { Request } from './worker-protocol';

const host = createEngineHost();
const ask = (id: string): [Request, ReturnType<typeof host>] => {
  const req: Request = { type: 'run', id: 1, scenario: structuredClone(builtin(id)!.scenario) };
  return [req, host(req)];
};

/** A warm-up whose re-runs are counted and whose tasks run when the test says. */
function harness(runs = 3) {
  const tasks: (() => void)[] = [];
  const reruns: unknown[] = [];
  const w = createWarmup({ runs, schedule: (f) => tasks.push(f), once: (s) => reruns.push(s) });
  // the worker's first run (the first screen's) is never warmed with
  const [req, res] = ask('gc-pause-lease-expiry');
  w.after(req, res);
  const drain = () => {
    while (tasks.length) tasks.shift()!();
  };
  return { w, tasks, reruns, drain };
}

describe('worker warm-up', () => {
  it('re-runs a small scenario it has not warmed with, one task per re-run, the request as asked', () => {
    const { w, tasks, reruns, drain } = harness(3);
    const [req, res] = ask('fair-lock-fifo');
    w.after(req, res);
    expect(reruns).toHaveLength(0); // nothing before the worker is idle
    expect(tasks).toHaveLength(1);
    drain();
    expect(reruns).toHaveLength(3);
    expect(reruns[0]).toBe(req);
  });

  it('does not warm again for an edit of the same scenario (same title)', () => {
    const { w, reruns, drain } = harness(2);
    const [req, res] = ask('basic-lock');
    w.after(req, res);
    drain();
    w.after(req, res);
    drain();
    expect(reruns).toHaveLength(2);
    const [other, otherRes] = ask('fair-lock-fifo');
    w.after(other, otherRes);
    drain();
    expect(reruns).toHaveLength(4);
  });

  it('stops when a run is asked for', () => {
    const { w, tasks, reruns } = harness(5);
    const [req, res] = ask('basic-lock');
    w.after(req, res);
    tasks.shift()!();
    w.stop();
    while (tasks.length) tasks.shift()!();
    expect(reruns).toHaveLength(1);
  });

  it('re-runs the slowest small built-in as the page runs it (verbose, 3,539 events)', () => {
    const { w, tasks } = harness(2);
    const req: Request = {
      type: 'run',
      id: 7,
      scenario: structuredClone(builtin('incident-multilock-opposite-order')!.scenario),
    };
    const res = host(req);
    expect(res.type === 'run' && res.result.ok && res.result.outline?.events).toBeGreaterThan(3_000);
    w.after(req, res);
    expect(tasks).toHaveLength(1);
  });

  it('never re-runs a large run, a refused scenario or another answer', () => {
    const { w, tasks } = harness(2);
    w.after(...ask('contention-100'));
    const bad: Request = { type: 'run', id: 2, scenario: { format: 'nope' } };
    w.after(bad, host(bad));
    const init: Request = { type: 'init', id: 3 };
    w.after(init, host(init));
    expect(tasks).toHaveLength(0);
  });

  it('leaves the first run alone', () => {
    const tasks: (() => void)[] = [];
    const w = createWarmup({ runs: 2, schedule: (f) => tasks.push(f), once: () => {} });
    w.after(...ask('basic-lock'));
    expect(tasks).toHaveLength(0);
    w.after(...ask('basic-lock'));
    expect(tasks).toHaveLength(1);
  });

  it('stops once the re-runs have taken its budget, or one re-run was slow, or one threw', () => {
    let t = 0;
    const tasks: (() => void)[] = [];
    const drain = () => {
      while (tasks.length) tasks.shift()!();
    };
    const warm = (took: number, fail = false) => {
      let n = 0;
      const w = createWarmup({
        runs: 1000,
        schedule: (f) => tasks.push(f),
        now: () => t,
        once: () => {
          n++;
          if (fail) throw new Error('a bug');
          t += took;
        },
      });
      w.after(...ask('basic-lock')); // the first run
      w.after(...ask('fair-lock-fifo'));
      drain();
      return n;
    };
    expect(warm(10)).toBe(Math.ceil(WARM_BUDGET_MS / 10));
    expect(warm(WARM_SLOW_MS)).toBe(1);
    expect(warm(1, true)).toBe(1);
  });

  it('warms again for another scenario of the same title (other clients), not for an edit of a number', () => {
    const { w, reruns, drain } = harness(1);
    const [req, res] = ask('basic-lock');
    w.after(req, res);
    drain();
    const scenario = structuredClone(builtin('basic-lock')!.scenario) as unknown as { clients: unknown[] };
    const edited: Request = { type: 'run', id: 5, scenario: { ...scenario, until: 9000 } };
    w.after(edited, host(edited));
    drain();
    expect(reruns).toHaveLength(1);
    const idle = { id: 'B', threads: [{ id: 1, start: 0, program: [{ op: 'work', ms: 10 }] }] };
    const more: Request = { type: 'run', id: 6, scenario: { ...scenario, clients: [...scenario.clients, idle] } };
    w.after(more, host(more));
    drain();
    expect(reruns).toHaveLength(2);
  });

  it('a re-run is the host run of the request: the same trace, its results not kept', () => {
    const tasks: (() => void)[] = [];
    const made: number[] = [];
    const w = createWarmup({
      runs: 2,
      schedule: (f) => tasks.push(f),
      once: (r) => {
        const m = makeRun(r);
        made.push(m.ok ? m.result.trace.events.length : -1);
      },
    });
    w.after(...ask('basic-lock'));
    const [req, res] = ask('gc-pause-lease-expiry');
    w.after(req, res);
    while (tasks.length) tasks.shift()!();
    const events = res.type === 'run' && res.result.ok ? res.result.trace.events.length : -2;
    expect(made).toEqual([events, events]);
    const runId = res.type === 'run' && res.result.ok ? res.result.runId : -1;
    expect(host({ type: 'stateAt', id: 4, runId, index: 0 }).type).toBe('stateAt');
  });
});
