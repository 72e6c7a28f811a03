/**
 * A call made while its thread's interrupt flag is already set: Redisson's
 * CommandAsyncService.get() waits on a CompletableFuture, whose get() throws InterruptedException at
 * once unless the reply is already there. get() then cancels the future, which is derived from the
 * command's own (ServiceManager.execute's result, a thenApply stage), so the cancel does not reach
 * the command and it still runs on Redis; it sets the flag again and throws a
 * RedisException. A caller that catches it and tries again (RedissonMultiLock.tryLock catches every
 * Exception) therefore spins, one command per turn, until a reply happens to be back before get()
 * looks, or its wait runs out.
 *
 * Measured with the real client (Redisson 4.7.0, redis-server 7.0.15 on localhost, the 2-core
 * machine at load 1–1.7; a thread with a pending interrupt calls MultiLock.tryLock on two free
 * locks, four runs; docs/redisson-differences.md has these and the committed example,
 * oracle/examples/multilock-interrupted-spin.json, which does the same with lock()): 0.5–2 ms per
 * turn; 21 of 1,885 gets on the first lock found their reply, and 4 of the 21 gets right after
 * such a one did; each tryLock returned true after 85–503 ms, the first lock's hold count at
 * 42–1,057.
 *
 * The model spends INTERRUPTED_GET_MS of virtual time on each get that throws and draws whether a
 * get finds its reply from the scenario's seeded PRNG, with those two rates; a get drawn to find
 * its reply throws all the same when no reply is back one round trip later (a partition, a stalled
 * node). The real rates depend on the machine, and were measured over localhost: with a longer
 * round trip a real get would hardly ever find its reply, where the model keeps the same rates.
 * What the model keeps is the shape: a turn costs time, every turn's command reaches Redis, and
 * luck ends the spin.
 */

/** Virtual ms a get() that throws on a pending interrupt costs its thread (exception, cancel, flag). */
export const INTERRUPTED_GET_MS = 1;

/** One in this many gets made with the flag set finds its reply already there... */
export const INTERRUPTED_GET_FINDS_REPLY = 90;

/** ...and one in this many for the same thread's next get, within INTERRUPTED_GET_STREAK_MS of one that did. */
export const INTERRUPTED_GET_FINDS_REPLY_AFTER_ONE = 5;

/** How close a get must follow one that found its reply to be that likely: the measured turns were back to back. */
export const INTERRUPTED_GET_STREAK_MS = 5;

/** The PRNG stream of one thread's interrupted gets (independent of every other stream). */
export function interruptedGetStream(procName: string): string {
  return `interrupted-get:${procName}`;
}
