/**
 * The page's side of a search: starts one worker per shard, merges their progress, tells the
 * others when one of them found a violation (indices above it cannot be the answer any more),
 * picks the lowest violating index, has it shrunk, and terminates every worker at the end or on
 * cancel. Nothing here runs a schedule: the main thread only adds numbers, so it stays free.
 */
import type { FromWorker, Hit, SearchOptions, SearchScope, ShrinkOutcome, ToWorker } from './protocol';

export interface WorkerLike {
  postMessage(message: ToWorker): void;
  terminate(): void;
  onmessage: ((ev: MessageEvent<FromWorker>) => void) | null;
  onerror: ((ev: ErrorEvent) => void) | null;
}

export type SearchPhase = 'planning' | 'searching' | 'shrinking';

export interface SearchProgress {
  phase: SearchPhase;
  tried: number;
  /** violating schedules seen so far (every shard stops at its first) */
  hits: number;
  shards: number;
}

export type SearchOutcome =
  | {
      kind: 'found';
      hit: Hit;
      tried: number;
      scope: SearchScope;
      shrunk: ShrinkOutcome;
    }
  | { kind: 'none'; tried: number; scope: SearchScope };

/** At most this many workers, whatever the machine reports: each holds its own engine. */
export const MAX_SHARDS = 8;

export function shardCount(hardwareConcurrency: number | undefined): number {
  const n = Math.floor(hardwareConcurrency ?? 1);
  return Math.max(1, Math.min(MAX_SHARDS, Number.isFinite(n) ? n : 1));
}

export class SearchCancelled extends Error {
  constructor() {
    super('cancelled');
  }
}

export interface SearchHandle {
  done: Promise<SearchOutcome>;
  cancel(): void;
}

export function startSearch(
  scenario: unknown,
  options: SearchOptions,
  spawn: () => WorkerLike,
  shards: number,
  progress: (p: SearchProgress) => void,
): SearchHandle {
  const workers: WorkerLike[] = [];
  let finished = false;
  // A terminated worker's messages already queued still arrive: nothing reports after the end.
  const onProgress = (p: SearchProgress) => {
    if (!finished) progress(p);
  };
  let fail: (e: Error) => void = () => {};
  const stopAll = () => {
    finished = true;
    for (const w of workers) w.terminate();
  };

  // One request, one answer of the given type, from one worker; errors reject.
  const ask = <T extends FromWorker['type']>(w: WorkerLike, req: ToWorker, type: T) =>
    new Promise<Extract<FromWorker, { type: T }>>((resolve, reject) => {
      w.onmessage = (ev) => {
        const m = ev.data;
        if (m.type === 'error') reject(new Error(m.message));
        else if (m.type === type) resolve(m as Extract<FromWorker, { type: T }>);
      };
      w.postMessage(req);
    });

  const spawnOne = () => {
    const w = spawn();
    w.onerror = (ev) => {
      ev.preventDefault?.();
      fail(new Error(ev.message || 'a search worker failed'));
    };
    workers.push(w);
    return w;
  };

  const run = async (): Promise<SearchOutcome> => {
    onProgress({ phase: 'planning', tried: 0, hits: 0, shards });
    const first = spawnOne();
    // The other workers load their engine while the first one plans.
    for (let k = 1; k < shards; k++) spawnOne();
    const { plan, scope } = await ask(first, { type: 'plan', scenario, options }, 'plan');

    const tried = new Array<number>(shards).fill(0);
    const hitsSeen = new Array<number>(shards).fill(0);
    const report = () =>
      onProgress({
        phase: 'searching',
        tried: tried.reduce((a, b) => a + b, 0),
        hits: hitsSeen.reduce((a, b) => a + b, 0),
        shards,
      });
    report();
    let best: Hit | null = null;
    await new Promise<void>((resolve, reject) => {
      let open = shards;
      workers.forEach((w, k) => {
        w.onmessage = (ev) => {
          const m = ev.data;
          if (m.type === 'error') return reject(new Error(m.message));
          if (m.type === 'progress') {
            tried[k] = m.tried;
            hitsSeen[k] = m.hits;
          } else if (m.type === 'done') {
            tried[k] = m.tried;
            if (m.hit) {
              hitsSeen[k] = 1;
              if (best === null || m.hit.index < best.index) {
                best = m.hit;
                for (const o of workers) if (o !== w) o.postMessage({ type: 'bound', index: m.hit.index });
              }
            }
            if (--open === 0) resolve();
          }
          report();
        };
        w.postMessage({ type: 'search', plan, shard: k, shards, budget: options.budget });
      });
    });
    const total = tried.reduce((a, b) => a + b, 0);
    const hit = best as Hit | null;
    if (hit === null) return { kind: 'none', tried: total, scope };
    onProgress({ phase: 'shrinking', tried: total, hits: hitsSeen.reduce((a, b) => a + b, 0), shards });
    const { result } = await ask(first, { type: 'shrink', plan, index: hit.index }, 'shrunk');
    return { kind: 'found', hit, tried: total, scope, shrunk: result };
  };

  const done = new Promise<SearchOutcome>((resolve, reject) => {
    fail = (e) => {
      if (finished) return;
      stopAll();
      reject(e);
    };
    run().then(
      (outcome) => {
        if (finished) return;
        stopAll();
        resolve(outcome);
      },
      (e: unknown) => fail(e instanceof Error ? e : new Error(String(e))),
    );
  });
  return { done, cancel: () => fail(new SearchCancelled()) };
}
