/**
 * Fault-free starting scenarios for the search's tests and the bench: built-ins with their faults
 * taken away, so the search has to find on its own what the built-in shows by hand.
 */
import { builtins } from '../../scenario/builtins/index';
import { client, hold } from '../../scenario/build';
import { validateScenario, type Scenario } from '../../scenario/schema';

function builtinJson(id: string): Record<string, unknown> {
  const b = builtins.find((x) => x.id === id);
  if (b === undefined) throw new Error(`no built-in ${id}`);
  return structuredClone(b.scenario);
}

export function validated(json: unknown): Scenario {
  const v = validateScenario(json);
  if (!v.ok) throw new Error(v.issues.map((i) => `${i.path}: ${i.message}`).join('; '));
  return v.scenario;
}

/** basic-lock with a 30 s lease, and a second client B that wants the lock while A holds it. */
export function basicLock30s(): Scenario {
  const json = builtinJson('basic-lock');
  json.clients = [
    client('A', hold('myLock', 1000, { leaseMs: 30_000 })),
    client('B', hold('myLock', 100), { start: 500 }),
  ];
  return validated(json);
}

/** failover-lost-lock without its crash: a Sentinel deployment whose replicas lag 40 ms. */
export function sentinelLagNoFault(): Scenario {
  return validated({ ...builtinJson('failover-lost-lock'), faults: [] });
}

/** naive-get-del-race without its pause: GET, compare, DEL. */
export function naiveGetDelNoFault(): Scenario {
  return validated({ ...builtinJson('naive-get-del-race'), faults: [] });
}

/** fencing-saves-gc-pause without its pause: a FencedLock in front of fenced storage. */
export function fencedNoFault(): Scenario {
  return validated({ ...builtinJson('fencing-saves-gc-pause'), faults: [] });
}

/**
 * A holds a lock with a 1 s lease (no watchdog) for 500 ms while B waits: safe until something
 * (a slow network) makes A's lease run out before A is done.
 */
export function shortLeaseNoFault(): Scenario {
  return validated({
    format: 'lockscope/1',
    // A reply held back past the response timeout fails the acquire instead of arriving late:
    // a long timeout leaves the search room for spikes of several seconds.
    redisson: { timeoutMs: 60_000 },
    clients: [
      client('A', hold('myLock', 500, { leaseMs: 1000 })),
      client('B', hold('myLock', 100), { start: 200 }),
    ],
  });
}
