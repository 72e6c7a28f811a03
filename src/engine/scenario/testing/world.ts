/**
 * A world of one master node for tests that drive the kernel and the models directly, without a
 * scenario. Only the seed, the threads and the odd knob differ between those tests.
 */
import { createWorld } from '../world';

export function masterWorld(opts: {
  seed: number;
  threads: string[];
  latencyMs?: number;
  scriptBudget?: number;
}) {
  return createWorld({
    seed: opts.seed,
    latencyMs: opts.latencyMs ?? 1,
    callTimeoutMs: 3000,
    scriptBudget: opts.scriptBudget ?? 1_000_000,
    nodes: [{ id: 'master', role: 'master' }],
    threads: opts.threads,
    resource: { value: 0, accepted: 0, rejected: 0 },
  });
}
