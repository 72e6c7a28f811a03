import { describe, expect, it } from 'vitest';
import { coreBuiltins } from '../engine/scenario/builtins/core';
import { builtinInfo } from './engine-adapter';
// the worker loads Redis Cluster's and Sentinel's models before a run that has them (worker.ts)
import '../engine/topology/deployments';
import '../engine/redisson/versions_text';
import { createEngineHost } from './engine-host';
import { en } from './i18n/en';
import { enExplore } from './i18n/en-explore';
import { zh } from './i18n/zh';
import type { InitResult, Response, RunOutcome, RunPayload } from './worker-protocol';

// The page's contract with the engine, run in-process: every built-in validates, runs and turns
// into lanes; bad input comes back as an error reply, never as an exception.
const host = createEngineHost();
let id = 1;
const call = (req: Record<string, unknown>) => host({ ...req, id: id++ } as never) as Response;

describe('engine host', () => {
  const init = call({ type: 'init' });
  // the first screen's list is the default alone; the page asks for the rest after it (worker.ts)
  const first = init.type === 'init' ? (init.result as InitResult).builtins : [];
  const builtins = coreBuiltins.map(builtinInfo);

  it('lists the default built-in alone, with its scenario, and names it the default', () => {
    expect(init.type).toBe('init');
    expect(first.map((b) => b.id)).toEqual([(init as { result: InitResult }).result.defaultId]);
    expect(first[0]).toEqual(builtins.find((b) => b.id === first[0].id));
  });

  it('names the kinds of change Explore offers, each with a label in both languages', () => {
    const kinds = (init as { result: InitResult }).result.exploreKinds;
    expect(kinds).toContain('pause');
    // the kinds' English labels come with the search panel's chunk (i18n/en-explore.ts)
    for (const table of [{ ...en, ...enExplore }, zh])
      for (const k of kinds) expect(Object.keys(table)).toContain(`explore.kind.${k}`);
  });

  it('offers the version picker the releases where behaviour changes, and each one’s table', () => {
    const releases = (init as { result: InitResult }).result.releases;
    expect(releases[0]).toBe('3.11.6');
    expect(releases).toContain('3.27.2');
    const traits = call({ type: 'traits', version: '3.11' });
    expect(traits.type).toBe('traits');
    const rows = traits.type === 'traits' ? traits.result : [];
    // 3.11.6 writes HSET on the first acquire (versions.ts, first-acquire), 4.7.0 HINCRBY
    expect(rows.find((r) => r.id === 'first-acquire')?.value).toBe('HSET');
    const latest = call({ type: 'traits', version: 'latest' });
    expect(latest.type === 'traits' && latest.result.find((r) => r.id === 'first-acquire')?.value).toBe(
      'HINCRBY',
    );
  });

  // about 80 runs: 3.7-4.3 s alone at load 15, over vitest's 5 s beside the other test files
  it('runs every built-in (but the big one) into a trace and lanes', { timeout: 60_000 }, () => {
    for (const b of builtins.filter((x) => x.id !== 'contention-100')) {
      const res = call({ type: 'run', scenario: b.scenario, verbose: true });
      expect(res.type, b.id).toBe('run');
      const run = (res as { result: RunOutcome }).result as RunOutcome & RunPayload;
      expect(run.ok, b.id).toBe(true);
      expect(run.nodeIds, b.id).toEqual(expect.arrayContaining(run.model.nodes.map((n) => n.id)));
      expect(run.trace.events.length, b.id).toBeGreaterThan(0);
      expect(run.model.threads.length, b.id).toBeGreaterThan(0);
      expect(run.model.violations.length, b.id).toBe(run.trace.violations.length);
      const state = call({ type: 'stateAt', runId: run.runId, index: run.trace.events.length - 1 });
      expect(state.type, b.id).toBe('stateAt');
    }
  });

  it('brings the state at the cursor the page asks for, landed as the page lands it', () => {
    const b = builtins.find((x) => x.id === 'gc-pause-lease-expiry') ?? builtins[0];
    const runAt = (at: unknown) =>
      (call({ type: 'run', scenario: b.scenario, at }) as { result: Extract<RunOutcome, { ok: true }> })
        .result;
    const plain = runAt(undefined);
    const events = plain.trace.events;
    const stateAt = (index: number) => call({ type: 'stateAt', runId: plain.runId, index });
    expect(plain.first).toEqual({ index: -1, state: (stateAt(-1) as { result: unknown }).result });
    const mid = events[Math.floor(events.length / 2)].t;
    const byClock = runAt({ clock: mid });
    const last = events.filter((e) => e.t <= mid).length - 1;
    expect(byClock.first?.index).toBe(last);
    expect(byClock.first?.state).toEqual((stateAt(last) as { result: unknown }).result);
    expect(runAt({ index: 1e9 }).first?.index).toBe(events.length - 1);
    expect(runAt({ index: 2.4 }).first?.index).toBe(2);
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

  it('answers a refused scenario with its issues, without running it', () => {
    for (const scenario of [{ format: 'nope' }, null, { format: 'lockscope/1', clients: 'x' }]) {
      const res = call({ type: 'run', scenario });
      expect(res).toMatchObject({ type: 'run', result: { ok: false } });
      const { issues } = (res as { result: { issues: { path: string }[] } }).result;
      expect(issues.length).toBeGreaterThan(0);
    }
  });

  it('records script lines for small scenarios unless told otherwise', () => {
    const b = builtins.find((x) => x.id === 'basic-lock') ?? builtins[0];
    const auto = (call({ type: 'run', scenario: b.scenario }) as { result: RunPayload }).result;
    expect(auto.verbose).toBe(true);
    const clients = Array.from({ length: 17 }, (_, i) => ({
      id: `c${i}`,
      threads: [{ id: 1, start: 0, program: [{ op: 'sleep', ms: 1 }] }],
    }));
    const big = { ...(b.scenario as object), clients, faults: [] };
    const many = (call({ type: 'run', scenario: big }) as { result: RunOutcome & RunPayload }).result;
    expect(many.ok).toBe(true);
    expect(many.verbose).toBe(false);
    const off = (call({ type: 'run', scenario: b.scenario, verbose: false }) as { result: RunPayload })
      .result;
    expect(off.verbose).toBe(false);
  });

  it('refuses what the runner cannot run yet with the field to change, not an error', () => {
    const scenario = {
      format: 'lockscope/1',
      redis: { topology: 'sentinel', replicas: [] },
      clients: [{ id: 'A', threads: [{ id: 1, start: 0, program: [] }] }],
    };
    expect(call({ type: 'run', scenario })).toMatchObject({
      type: 'run',
      result: { ok: false, issues: [{ path: 'redis.replicas' }] },
    });
  });

  it('turns unknown runs into error replies', () => {
    expect(call({ type: 'stateAt', runId: 9999, index: 0 }).type).toBe('error');
  });
});
