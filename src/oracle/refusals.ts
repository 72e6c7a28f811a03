/**
 * What the oracle cannot reproduce faithfully on one machine, each as one line. A scenario with
 * any of these is refused, never approximated.
 */
import type { Scenario } from '../engine/scenario/schema';

/** The Redisson releases whose harness behaviour has been checked (docs/oracle.md). */
export const ORACLE_RELEASES = ['4.7.0', '3.27.2', '3.11.6'] as const;

/** Loopback is about 0.1 ms each way: a scenario latency above this is not what the real run has. */
export const MAX_LATENCY_MS = 2;

export function refusals(s: Scenario, release: string): string[] {
  const out: string[] = [];
  for (const f of s.faults) {
    // a partition runs in network namespaces (netns.ts), which the harness builds for these topologies only
    if (f.kind === 'partition' && s.redis.topology === 'cluster')
      out.push(`partition at ${f.at} ms in a cluster: the network-namespace harness builds single, replicated, Sentinel and independent deployments`);
    else if (f.kind === 'partition' && f.reset === true)
      out.push(`partition at ${f.at} ms that resets connections: the harness's partitions drop packets, they do not reset connections`);
    else if (f.kind === 'clock')
      out.push(`clock jump of ${f.node} at ${f.at} ms: a real redis-server's clock cannot be stepped on its own on a shared machine`);
    else if (f.kind === 'latency')
      out.push(`latency spike at ${f.at} ms: loopback cannot be slowed per link faithfully`);
    else if (f.kind === 'starve')
      out.push(
        `starve of ${f.client} at ${f.at} ms: a JVM's netty event loop cannot be kept off the CPU from outside while its other threads run`,
      );
  }
  if (s.network.latencyMs > MAX_LATENCY_MS)
    out.push(`network latency ${s.network.latencyMs} ms: real loopback takes about 0.1 ms; only latencies up to ${MAX_LATENCY_MS} ms are comparable`);
  if (s.redisson.scripts !== undefined)
    out.push('edited scripts (redisson.scripts): the real client always sends its own scripts');
  if (s.redis.topology === 'cluster' && s.redis.replicas.some((r) => r.lagMs > MAX_LATENCY_MS))
    out.push('replica lag in a cluster: cluster replicas connect to their master\'s own address, so no lag proxy can sit between them');
  const types = lockTypes(s);
  if (types.has('set-nx-px-renew')) out.push('lock type set-nx-px-renew: the harness has no hand-written renewal thread');
  if (types.has('set-nx-px-watch')) out.push('lock type set-nx-px-watch: the harness has no WATCH/MULTI/EXEC release');
  if (usesOp(s, 'commit') || s.resource.transactional)
    out.push('a transactional resource (commit): the harness has no transaction to commit');
  if (release.startsWith('3.11.') && (types.has('SpinLock') || types.has('FencedLock')))
    out.push(`${release} has no SpinLock or FencedLock`);
  return out;
}

function usesOp(s: Scenario, op: string): boolean {
  const walk = (ops: readonly unknown[]): boolean =>
    (ops as { op: string; body?: unknown[]; catch?: unknown[]; finally?: unknown[] }[]).some(
      (o) => o.op === op || [o.body, o.catch, o.finally].some((b) => b !== undefined && walk(b)),
    );
  return s.clients.some((c) => c.threads.some((t) => walk(t.program)));
}

export function lockTypes(s: Scenario): Set<string> {
  const types = new Set<string>();
  const walk = (ops: readonly unknown[]) => {
    for (const o of ops as { op: string; type?: string; body?: unknown[]; catch?: unknown[]; finally?: unknown[] }[]) {
      if (['lock', 'tryLock', 'lockInterruptibly'].includes(o.op)) types.add(o.type ?? 'RLock');
      else if (o.type !== undefined) types.add(o.type);
      for (const b of [o.body, o.catch, o.finally]) if (b) walk(b);
    }
  };
  for (const c of s.clients) for (const t of c.threads) walk(t.program);
  return types;
}
