/**
 * Starts the engine worker. main.tsx imports this module first, so it is evaluated before the
 * page's other modules: the worker's script is requested while the page's code still evaluates.
 * Chromium starts a dedicated worker's thread from a task on the page's main thread once the
 * script's response has arrived, so the earlier the request leaves, the earlier a gap in the
 * page's work can start the thread (docs/performance.md, "third pass: time to interactive").
 */
import { engineClient } from './engine-client';

engineClient.init().catch(() => {
  // boot() asks again and reports the failure.
});
