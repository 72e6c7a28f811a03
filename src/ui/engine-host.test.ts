import { describe, expect, it } from 'vitest';
import { createEngineHost } from './engine-host';
import type { InitResult, Response, RunPayload } from './worker-protocol';

// The page's contract with the engine, run in-process: every built-in validates, runs and turns
// into lanes; bad input comes back as an error reply, never as an exception.
const host = createEngineHost();
let id = 1;
const call = (req: Record<string, unknown>) => host({ ...req, id: id++ } as never) as Response;

describe('engine host', () => {
  const init = call({ type: 'init' });
  const builtins = init.type === 'init' ? (init.result as InitResult).builtins : [];

  it('lists the built-ins and names a default among them', () => {
    expect(init.type).toBe('init');
    expect(builtins.length).toBeGreaterThan(3);
    expect(builtins.map((b) => b.id)).toContain((init as { result: InitResult }).result.defaultId);
  });

  it('runs every built-in (but the big one) into a trace and lanes', () => {
    for (const b of builtins.filter((x) => x.id !== 'contention-100')) {
      const res = call({ type: 'run', scenario: b.scenario, verbose: true });
      expect(res.type, b.id).toBe('run');
      const run = (res as { result: RunPayload }).result;
      expect(run.trace.events.length, b.id).toBeGreaterThan(0);
      expect(run.model.threads.length, b.id).toBeGreaterThan(0);
      expect(run.model.violations.length, b.id).toBe(run.trace.violations.length);
      const state = call({ type: 'stateAt', runId: run.runId, index: run.trace.events.length - 1 });
      expect(state.type, b.id).toBe('stateAt');
    }
  });

  it('answers console reads and flags writes', () => {
    const b = builtins.find((x) => x.id === 'basic-lock') ?? builtins[0];
    const run = (call({ type: 'run', scenario: b.scenario, verbose: false }) as { result: RunPayload })
      .result;
    const read = call({
      type: 'console',
      runId: run.runId,
      index: 0,
      node: 'master',
      line: 'PTTL nosuchkey',
    });
    expect(read).toMatchObject({ type: 'console', result: { kind: 'read', text: '(integer) -2' } });
    const write = call({ type: 'console', runId: run.runId, index: 0, node: 'master', line: 'SET a "b c"' });
    expect(write).toMatchObject({ type: 'console', result: { kind: 'write', argv: ['SET', 'a', 'b c'] } });
    const bad = call({
      type: 'console',
      runId: run.runId,
      index: 0,
      node: 'master',
      line: 'GET "unterminated',
    });
    expect(bad).toMatchObject({ type: 'console', result: { kind: 'error' } });
  });

  it('turns refused scenarios and unknown runs into error replies', () => {
    expect(call({ type: 'run', scenario: { format: 'nope' }, verbose: false }).type).toBe('error');
    expect(call({ type: 'run', scenario: null, verbose: false }).type).toBe('error');
    expect(call({ type: 'stateAt', runId: 9999, index: 0 }).type).toBe('error');
    const v = call({ type: 'validate', json: { format: 'lockscope/1', clients: 'x' } });
    expect(v).toMatchObject({ type: 'validate', result: { ok: false } });
  });
});
