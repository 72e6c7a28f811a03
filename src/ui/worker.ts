/// <reference lib="webworker" />
/** The engine worker: runs scenarios off the main thread so the page never freezes. */
import { needsDeploymentModels } from '../engine/topology/deployment_models';
import { createEngineHost } from './engine-host';
import { createWarmup } from './worker-warmup';
import { LESSON_REQUESTS, type LessonRequest } from './lessons/lesson-protocol';
import type { FromWorker, ToWorker } from './explore/protocol';
import { toWire, type IncidentsRequest, type Request } from './worker-protocol';

const handle = createEngineHost();
const warmup = createWarmup();
const post = (res: unknown) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(res);

// Explore's search shards run in instances of this same worker: one engine bundle, not two (the
// search code loads on its first message). Its message types never collide with the engine's.
const EXPLORE_REQUESTS = new Set<string>(['plan', 'search', 'bound', 'shrink']);
let explore: Promise<(m: ToWorker) => void> | null = null;

self.onmessage = (ev: MessageEvent<Request>) => {
  if (EXPLORE_REQUESTS.has(ev.data.type)) {
    explore ??= import('./explore/shard').then((m) => m.createShard((r: FromWorker) => post(r)));
    const msg = ev.data as unknown as ToWorker;
    void explore.then((handle) => handle(msg));
    return;
  }
  if ((ev.data as unknown as IncidentsRequest).type === 'incidents') {
    const { id } = ev.data as unknown as IncidentsRequest;
    void import('./engine-adapter-incidents')
      .then((m) => post({ type: 'incidents', id, result: m.listAllBuiltins() }))
      .catch((e: unknown) =>
        post({ type: 'error', id, message: e instanceof Error ? e.message : String(e) }),
      );
    return;
  }
  if (LESSON_REQUESTS.has(ev.data.type)) {
    // The lessons and their evaluator load on the first lesson request, not with the worker.
    const req = ev.data as unknown as LessonRequest;
    void import('./lessons/lesson-host')
      .then((m) => m.handleLessonRequest(req))
      .then(post, (e: unknown) =>
        post({ type: 'error', id: req.id, message: e instanceof Error ? e.message : String(e) }),
      );
    return;
  }
  engineRequest(ev.data);
};

/**
 * Redis Cluster's and Sentinel's models load before the first run that has such a deployment
 * (not with the worker's first chunk). Requests are answered in the order they came: while the
 * models load, the ones behind wait for them.
 */
let deployments: Promise<void> | null = null;
let deploymentsReady = false;
let queue: Promise<void> | null = null;
/** The same for the release table's words (redisson/versions_text.ts), before the first `traits` request. */
let traitText: Promise<void> | null = null;
let traitTextReady = false;

function engineRequest(req: Request): void {
  if (req.type === 'run') warmup.stop();
  const answer = () => {
    const res = handle(req);
    post(toWire(res));
    warmup.after(req, res);
  };
  let wait: Promise<void> | null = null;
  if (!deploymentsReady && req.type === 'run' && needsDeploymentModels(req.scenario))
    wait = deployments ??= import('../engine/topology/deployments').then(() => {
      deploymentsReady = true;
    });
  // the release table's words, for the version picker only (redisson/versions_text.ts)
  if (!traitTextReady && req.type === 'traits')
    wait = traitText ??= import('../engine/redisson/versions_text').then(() => {
      traitTextReady = true;
    });
  if (wait === null && queue === null) return answer();
  const next: Promise<void> = (queue ?? Promise.resolve())
    .then(() => wait)
    .then(answer, (e: unknown) => {
      deployments = null; // the next such run tries again
      traitText = null;
      post({ type: 'error', id: req.id, message: e instanceof Error ? e.message : String(e) });
    })
    .finally(() => {
      if (queue === next) queue = null;
    });
  queue = next;
}
