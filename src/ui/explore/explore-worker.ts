/// <reference lib="webworker" />
/** A search worker: one shard of an Explore search (shard.ts), off the page's main thread. */
import type { FromWorker, ToWorker } from './protocol';
import { createShard } from './shard';

const handle = createShard((m: FromWorker) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(m));

self.onmessage = (ev: MessageEvent<ToWorker>) => handle(ev.data);
