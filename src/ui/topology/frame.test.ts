import { describe, expect, it } from 'vitest';
import { builtin } from '../../engine/scenario/builtins/index';
import { runScenario } from '../../engine/scenario/run';
import { validateScenario } from '../../engine/scenario/schema';
import { nodeIds } from '../../engine/topology/nodes';
import { deriveLaneModel } from '../timeline/model';
import { indexTopology, reachable, slowMs, topologyFrame, type TopologyRun } from './frame';

function runOf(id: string): TopologyRun {
  const v = validateScenario(builtin(id)!.scenario);
  if (!v.ok) throw new Error(id);
  const r = runScenario(v.scenario);
  return {
    trace: r.trace,
    model: deriveLaneModel(r.trace, (i) => r.stateAt(i)),
    nodeIds: nodeIds(v.scenario.redis),
    scenario: v.scenario,
  };
}

const at = (run: TopologyRun, index: number) => topologyFrame(run, indexTopology(run), index);
const node = (f: ReturnType<typeof at>, id: string) => f.nodes.find((n) => n.id === id)!;
const indexOf = (run: TopologyRun, pred: (e: TopologyRun['trace']['events'][number]) => boolean) =>
  run.trace.events.findIndex(pred);

describe('topologyFrame', () => {
  const failover = runOf('failover-lost-lock');

  it('takes nodes and roles from the trace: replicas follow master, Sentinels apart', () => {
    const f = at(failover, -1);
    expect(f.nodes.map((n) => [n.id, n.role, n.master])).toEqual([
      ['master', 'master', null],
      ['replica-1', 'replica', 'master'],
      ['replica-2', 'replica', 'master'],
      ['sentinel-1', 'sentinel', null],
      ['sentinel-2', 'sentinel', null],
      ['sentinel-3', 'sentinel', null],
    ]);
    expect(f.clients.map((c) => [c.id, c.masters])).toEqual([
      ['A', ['master']],
      ['B', ['master']],
    ]);
    expect(f.watched).toBe('master');
  });

  it('draws the promoted replica as master from its node.role on, not before', () => {
    const switchAt = indexOf(failover, (e) => e.kind === 'node.role' && e.node === 'replica-1');
    expect(node(at(failover, switchAt - 1), 'replica-1').role).toBe('replica');
    const after = at(failover, switchAt);
    expect(node(after, 'replica-1').role).toBe('master');
    expect(node(after, 'replica-1').master).toBeNull();
    expect(node(after, 'master').up).toBe(false);
  });

  it('follows Sentinel: sdown, odown and the leader, cleared by the promotion', () => {
    const leader = indexOf(failover, (e) => e.kind === 'sentinel.leader');
    const f = at(failover, leader);
    const s2 = node(f, 'sentinel-2');
    expect([s2.sdown, s2.odown, s2.leader]).toEqual([true, true, 1]);
    const promote = indexOf(failover, (e) => e.kind === 'failover.promote');
    const g = at(failover, promote);
    expect(g.watched).toBe('replica-1');
    expect(node(g, 'sentinel-2').leader).toBeUndefined();
    const moved = at(
      failover,
      indexOf(failover, (e) => e.kind === 'client.master' && e.client === 'B'),
    );
    expect(moved.clients.find((c) => c.id === 'B')!.masters).toEqual(['replica-1']);
  });

  it('shows who holds the lock in the client and where the key lives', () => {
    const acquired = indexOf(failover, (e) => e.kind === 'lock.acquired' && e.actor === 'A:1');
    const f = at(failover, acquired + 1);
    const a1 = f.clients.find((c) => c.id === 'A')!.threads.find((th) => th.id === 'A:1')!;
    expect(a1.holds.map((h) => h.lock)).toEqual(['myLock']);
    expect(node(f, 'master').keys.map((k) => k.key)).toEqual(['myLock']);
    expect(at(failover, -1).clients[0].threads[0].holds).toEqual([]);
  });

  it('before the first event, nothing has run: threads idle, nothing on the wire', () => {
    const basic = runOf('basic-lock');
    const f = at(basic, -1);
    expect(f.messages).toEqual([]);
    expect(f.clients.flatMap((c) => c.threads.map((th) => th.state))).toEqual(['idle']);
    // one event on, A:1 runs (thread.start at 0 ms)
    expect(at(basic, 0).clients[0].threads[0].state).toBe('running');
  });

  it('puts a command on the wire before its cmd event and the reply after it', () => {
    const cmd = indexOf(failover, (e) => e.kind === 'cmd' && e.actor === 'A:1');
    const before = at(failover, cmd - 1).messages;
    expect(before).toEqual([expect.objectContaining({ kind: 'cmd', from: 'A', to: 'master' })]);
    const after = at(failover, cmd).messages;
    expect(after).toEqual([expect.objectContaining({ kind: 'reply', from: 'master', to: 'A', p: 0 })]);
    const role = indexOf(failover, (e) => e.kind === 'node.role' && e.node === 'replica-1');
    expect(at(failover, role - 1).messages.map((m) => [m.kind, m.from, m.to])).toContainEqual([
      'replicaof',
      'sentinel-2',
      'replica-1',
    ]);
  });

  it('carries the partition groups, "sentinels" spelled out, until the heal', () => {
    const split = runOf('split-brain-partition');
    const p = indexOf(split, (e) => e.kind === 'net.partition');
    const f = at(split, p);
    expect(f.partition).toEqual([
      ['master', 'A'],
      ['replica-1', 'replica-2', 'B', 'sentinel-1', 'sentinel-2', 'sentinel-3'],
    ]);
    expect(reachable(f.partition, 'B', 'master')).toBe(false);
    expect(reachable(f.partition, 'A', 'master')).toBe(true);
    expect(at(split, p - 1).partition).toBeNull();
    expect(
      at(
        split,
        indexOf(split, (e) => e.kind === 'net.heal'),
      ).partition,
    ).toBeNull();
  });

  it('carries the latency spikes in force, each until its own end', () => {
    const v = validateScenario({
      ...builtin('failover-lost-lock')!.scenario,
      faults: [
        { kind: 'latency', at: 100, ms: 300, endAt: 900, endpoints: ['A', 'sentinels'] },
        { kind: 'latency', at: 200, ms: 50, endAt: 400 },
      ],
    });
    if (!v.ok) throw new Error(JSON.stringify(v.issues));
    const r = runScenario(v.scenario);
    const run = {
      trace: r.trace,
      model: deriveLaneModel(r.trace, (i) => r.stateAt(i)),
      nodeIds: nodeIds(v.scenario.redis),
      scenario: v.scenario,
    };
    const last = (t: number) => run.trace.events.filter((e) => e.t <= t).length - 1;
    const both = at(run, last(300)).slow;
    expect(slowMs(both, 'A', 'master')).toBe(350);
    expect(slowMs(both, 'sentinel-2', 'master')).toBe(350);
    expect(slowMs(both, 'B', 'master')).toBe(50);
    // the shorter spike ended first: only A's and the Sentinels' links stay slow
    const one = at(run, last(500)).slow;
    expect(slowMs(one, 'A', 'master')).toBe(300);
    expect(slowMs(one, 'B', 'master')).toBe(0);
    expect(at(run, last(1000)).slow).toEqual([]);
  });

  it('marks paused clients and replication in flight', () => {
    const gc = runOf('gc-pause-lease-expiry');
    const pause = indexOf(gc, (e) => e.kind === 'client.pause');
    expect(at(gc, pause).clients.find((c) => c.paused)).toBeDefined();
    const helps = runOf('failover-wait-helps');
    const apply = indexOf(helps, (e) => e.kind === 'repl.apply');
    expect(at(helps, apply).messages.some((m) => m.kind === 'repl' && m.p === 1)).toBe(true);
  });
});
