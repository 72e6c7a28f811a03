/**
 * Starts a scenario's clients and their threads: one RedissonClient per scenario client, one
 * ThreadRunner (program.ts) per thread, spawned as that client's process.
 */
import type { ProcHandle, SimContext } from '../sim/api';
import type { ClientsHandle } from './api';
import { expandedLength, type Scenario } from './schema';
import { RedissonClient } from '../redisson/RedissonClient';
import { ProtectedResource } from '../resource/ProtectedResource';
import { threadActor } from '../trace/actors';
import { ThreadRunner } from './program';

/** What startClients hands back: the runner's ClientsHandle plus the resource for final state. */
export interface Clients extends ClientsHandle {
  readonly resource: ProtectedResource;
  client(id: string): RedissonClient | undefined;
  /** true once every thread's program has ended (finished or killed); cheap enough to call per step */
  allDone(): boolean;
}

export function startClients(ctx: SimContext, scenario: Scenario): Clients {
  const resource = new ProtectedResource(ctx, scenario.resource);
  const clients = new Map<string, RedissonClient>();
  const procs = new Map<string, ProcHandle>();
  const runners = new Map<string, ThreadRunner>();
  const all: ProcHandle[] = [];
  let firstLive = 0;
  for (const spec of scenario.clients) {
    const client = new RedissonClient(
      ctx,
      spec.id,
      scenario.redisson,
      scenario.redis.topology === 'cluster'
        ? { cluster: true }
        : scenario.redis.topology === 'sentinel'
          ? { sentinel: true }
          : undefined,
    );
    clients.set(spec.id, client);
    for (const thread of spec.threads) {
      const runner = new ThreadRunner(ctx, client, resource, thread, scenario.redis.topology);
      const handle = ctx.spawn(spec.id, runner.actor, runner.run(), expandedLength(thread.program));
      procs.set(runner.actor, handle);
      runners.set(runner.actor, runner);
      all.push(handle);
    }
  }
  return {
    resource,
    client: (id) => clients.get(id),
    allDone() {
      while (firstLive < all.length && all[firstLive].done) firstLive++;
      return firstLive === all.length;
    },
    threadProc(client, thread) {
      const p = procs.get(threadActor(client, thread));
      return p && !p.done ? p : undefined;
    },
    cancel(client, thread) {
      const actor = threadActor(client, thread);
      const p = procs.get(actor);
      return p !== undefined && !p.done && runners.get(actor)!.cancel(p);
    },
    onCrash(client) {
      resource.forget(client);
    },
  };
}
