/**
 * Starts the engine worker from index.html, before the page's own code has arrived. Chromium
 * starts a dedicated worker's thread from a task on the page's main thread once the worker's
 * script has arrived; created from the page's code, the worker's request left only when that code
 * had been fetched and was evaluating, and its thread started after the evaluation or the first
 * render (docs/performance.md, "third pass: time to interactive"). Created here, its request
 * leaves with the page's. The page's engine client adopts this worker (src/ui/engine-client.ts);
 * where there is none (the dev server, a failed start) it makes its own.
 * Plain .mjs so that Vite's config loader takes it as it is.
 */

/** The global the page takes the worker from: src/ui/engine-client.ts EARLY_WORKER (a test compares). */
export const EARLY_WORKER_GLOBAL = '__lockscopeEngineWorker';

/** The inline script that creates the worker from `url` and leaves it for the page. */
export function earlyWorkerScript(url) {
  const g = JSON.stringify(EARLY_WORKER_GLOBAL);
  return `try { window[${g}] = new Worker(${JSON.stringify(url)}, { type: 'module' }); } catch (e) {}`;
}

export function earlyWorkerPlugin() {
  return {
    name: 'lockscope:early-worker',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        // The engine's worker bundle (worker.ts; Explore's shards are instances of the same file).
        const files = Object.keys(ctx.bundle ?? {}).filter((f) => /(^|\/)worker-[\w-]+\.js$/.test(f));
        if (files.length !== 1) return html;
        // Before the stylesheet and the page's script: an inline script after a stylesheet waits
        // for it, and the worker's request should leave with the page's, not after them.
        const tag = `<script>${earlyWorkerScript(`./${files[0]}`)}</script>`;
        const charset = /<meta charset[^>]*>/i;
        return charset.test(html)
          ? html.replace(charset, (m) => `${m}\n    ${tag}`)
          : html.replace('<head>', `<head>\n    ${tag}`);
      },
    },
  };
}
