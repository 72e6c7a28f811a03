/// <reference lib="webworker" />
/** The engine worker: runs scenarios off the main thread so the page never freezes. */
import { createEngineHost } from './engine-host';
import { LESSON_REQUESTS, type LessonRequest } from './lessons/lesson-protocol';
import type { Request } from './worker-protocol';

const handle = createEngineHost();
const post = (res: unknown) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(res);

self.onmessage = (ev: MessageEvent<Request>) => {
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
  post(handle(ev.data));
};
