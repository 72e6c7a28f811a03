/**
 * The scale scenario of issue 23, "what does the watchdog cost": `clients` Redisson clients with
 * `threadsPerClient` threads each, every thread taking its own `locksPerThread` locks without a
 * lease (so the watchdog renews each of them every lockWatchdogTimeout / 3) and holding them past
 * `until`. Used by the bench (headless time and memory) and the page's performance spec. Plain
 * JSON, as a user would write it: it goes through `validateScenario` like any other.
 */
export interface WatchdogCostShape {
  clients: number;
  threadsPerClient: number;
  locksPerThread: number;
  /** virtual ms simulated */
  until: number;
}

/** 1,000 threads over 10,000 locks for 60 s: the figure. */
export const WATCHDOG_COST_FULL: WatchdogCostShape = {
  clients: 10,
  threadsPerClient: 100,
  locksPerThread: 10,
  until: 60_000,
};

export function watchdogCostScenario(shape: WatchdogCostShape = WATCHDOG_COST_FULL): unknown {
  const { clients, threadsPerClient, locksPerThread, until } = shape;
  const clientId = (c: number) => `C${c + 1}`;
  return {
    format: 'lockscope/1',
    title: `Watchdog cost: ${clients * threadsPerClient} threads over ${clients * threadsPerClient * locksPerThread} locks`,
    until,
    clients: Array.from({ length: clients }, (_, c) => ({
      id: clientId(c),
      threads: Array.from({ length: threadsPerClient }, (_, t) => {
        const locks = Array.from(
          { length: locksPerThread },
          (_, l) => `lock:${clientId(c)}:${t + 1}:${l + 1}`,
        );
        return {
          id: t + 1,
          program: [
            ...locks.map((lock) => ({ op: 'lock', lock })),
            // held past `until`: the watchdog renews every lock for the whole run
            { op: 'work', ms: until + 1000 },
            ...locks.map((lock) => ({ op: 'unlock', lock })),
          ],
        };
      }),
    })),
  };
}
