/// <reference lib="webworker" />
/** The engine worker: runs scenarios off the main thread so the page never freezes. */
import { createEngineHost } from './engine-host';
import type { Request } from './worker-protocol';

const handle = createEngineHost();

self.onmessage = (ev: MessageEvent<Request>) => {
  (self as unknown as DedicatedWorkerGlobalScope).postMessage(handle(ev.data));
};
