/**
 * How a Redisson client sends one command in a cluster (RedisExecutor): to the node its slot map
 * gives, on to the node a MOVED names (only this command; the map waits for the next scan), again
 * after a CLUSTERDOWN, and on without the thread when an interrupt left the call.
 */
import { sleep, type Process } from '../sim/effects';
import { error, type Reply } from '../redis/reply';
import { decodedAsClusterDown } from './errors';
import type { Attempts } from './executor';
import type { RedissonClient } from './RedissonClient';

/**
 * RedisExecutor follows redirects without counting them as attempts and, from 3.24.2, without a
 * bound; the model stops after this many so that a loop between two nodes stays finite.
 */
const MAX_REDIRECTS = 5;

/** Where send's loop stands: the node it sends to, the address the last MOVED named, the redirects taken. */
interface Route {
  target: string;
  /** RedisExecutor's source.getAddr() after a MOVED */
  redirected: string | null;
  hops: number;
}

/** What the routing uses of its client. */
export type RouteClient = Pick<
  RedissonClient,
  'name' | 'ctx' | 'config' | 'clusterMode' | 'master' | 'connection' | 'callStep' | 'retryDelay'
>;

export class ClusterRoute {
  constructor(private readonly c: RouteClient) {}

  /**
   * One call to `node`, following MOVED to the node it names (RedisExecutor.checkAttemptPromise):
   * only this command goes there, the slot map waits for the next scan. A MOVED answered by the
   * node a MOVED led to ends the call with "MOVED redirection loop detected": any such MOVED
   * before 3.24.2, only one naming that same node from 3.24.2 (c0bf257ab, #4656).
   * A CLUSTERDOWN reply is a RedisClusterDownException from 3.13.2 (52f786ed5), which RedisExecutor
   * re-sends retryInterval later (RetryDelay.calcDelay(attempt), attempt from 0), while the
   * executor's `attempts` (shared with its response-timeout re-sends) are below retryAttempts,
   * to the node the slot map gives `key` then (or the MOVED target it was redirected to).
   * Returns the reply and the node that gave it.
   */
  *send(
    node: string,
    argv: readonly string[],
    key: string | undefined,
    onAbandoned?: (reply: Reply, at: string) => void,
    attempts: Attempts = { n: 0 },
  ): Process<[Reply, string]> {
    return yield* this.sendOn({ target: node, redirected: null, hops: 0 }, argv, key, onAbandoned, attempts);
  }

  /** send's loop from where `route` stands. */
  private *sendOn(
    route: Route,
    argv: readonly string[],
    key: string | undefined,
    onAbandoned: ((reply: Reply, at: string) => void) | undefined,
    attempts: Attempts,
  ): Process<[Reply, string]> {
    for (;;) {
      const abandoned =
        onAbandoned === undefined
          ? undefined
          : this.routedWhenAbandoned({ ...route }, argv, key, onAbandoned, attempts);
      const reply = (yield this.c.callStep(this.c.connection(route.target), argv, abandoned)) as Reply;
      if (!this.c.clusterMode || reply.t !== 'error') return [reply, route.target];
      const done = yield* this.nextHop(reply, route, key, attempts);
      if (done !== null) return done;
    }
  }

  /**
   * What send does with an error reply in a cluster: the call's outcome, or null once `route` has
   * moved on (a MOVED followed, a CLUSTERDOWN waited out) and the command is to be sent again.
   */
  private *nextHop(
    reply: Reply & { t: 'error' },
    route: Route,
    key: string | undefined,
    attempts: Attempts,
  ): Process<[Reply, string] | null> {
    if (isClusterDown(reply.v) && this.c.config.traits.clusterDownRetry) {
      if (attempts.n >= this.c.config.retryAttempts)
        return [decodedAsClusterDown({ ...reply }), route.target];
      yield* sleep(this.c.retryDelay(attempts.n));
      attempts.n++;
      if (route.redirected === null) route.target = this.c.master(key);
      return null;
    }
    const moved = /^MOVED \d+ (\S+)$/.exec(reply.v);
    if (moved === null || route.hops >= MAX_REDIRECTS) return [reply, route.target];
    if (
      route.redirected !== null &&
      (moved[1] === route.redirected || !this.c.config.traits.movedLoopSameNodeOnly)
    )
      return [error(movedLoop(route.redirected, moved[1])), route.target];
    const next = this.c.ctx.redirect?.(this.c.name, moved[1]) ?? null;
    if (next === null) return [reply, route.target];
    route.hops++;
    route.redirected = moved[1];
    route.target = next;
    return null;
  }

  /**
   * A call's reply once an interrupted get() left it. The get() gives up on a future derived from
   * the command's, not on RedisExecutor's own, so the executor still follows a MOVED and re-sends
   * after a CLUSTERDOWN (4.7.0 RedisExecutor.checkAttemptPromise); what is chained on the command
   * gets the reply of the node that finally answered, and that node (where a NOSCRIPT is loaded:
   * evalAsync's loadScript(executor.getRedisClient())).
   */
  private routedWhenAbandoned(
    route: Route,
    argv: readonly string[],
    key: string | undefined,
    onAbandoned: (reply: Reply, at: string) => void,
    attempts: Attempts,
  ): (reply: Reply) => void {
    return (reply) => {
      if (!this.c.clusterMode || reply.t !== 'error') onAbandoned(reply, route.target);
      else
        this.c.ctx.spawn(
          this.c.name,
          `${this.c.name}/redirect`,
          this.routeLeft(reply, route, argv, key, onAbandoned, attempts),
        );
    };
  }

  /** The rest of send's loop for a call nobody waits for, on the client's own process. */
  private *routeLeft(
    reply: Reply & { t: 'error' },
    route: Route,
    argv: readonly string[],
    key: string | undefined,
    onAbandoned: (reply: Reply, at: string) => void,
    attempts: Attempts,
  ): Process<void> {
    const [r, at] =
      (yield* this.nextHop(reply, route, key, attempts)) ??
      (yield* this.sendOn(route, argv, key, undefined, attempts));
    onAbandoned(r, at);
  }
}

/** RedisExecutor's error after a second MOVED (RedisURI prints as redis://host:port). */
function movedLoop(from: string, to: string): string {
  return `MOVED redirection loop detected. Node redis://${from} has further redirect to redis://${to}`;
}

/** CommandDecoder: an error reply starting CLUSTERDOWN ("The cluster is down", "Hash slot not served"). */
function isClusterDown(message: string): boolean {
  return message.startsWith('CLUSTERDOWN');
}
