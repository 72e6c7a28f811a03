import { afterEach, describe, expect, it } from 'vitest';
import type { IndexHtmlTransformContext } from 'vite';
import { EARLY_WORKER_GLOBAL, earlyWorkerPlugin, earlyWorkerScript } from '../../scripts/vite-early-worker.mjs';
import { EARLY_WORKER, EngineClient } from './engine-client';

class FakeWorker {
  posted: unknown[] = [];
  onmessage: unknown = null;
  onerror: unknown = null;
  constructor(
    readonly url: string,
    readonly opts: { type?: string },
  ) {}
  postMessage(m: unknown) {
    this.posted.push(m);
  }
  terminate() {}
}

const g = globalThis as unknown as Record<string, unknown>;

afterEach(() => {
  delete g.Worker;
  delete g[EARLY_WORKER];
  delete g.window;
});

describe('the engine worker started from index.html', () => {
  it('is left where the engine client takes it', () => {
    expect(EARLY_WORKER_GLOBAL).toBe(EARLY_WORKER);
    g.window = g;
    g.Worker = FakeWorker;
    new Function(earlyWorkerScript('./assets/worker-abc.js'))();
    const w = g[EARLY_WORKER] as FakeWorker;
    expect(w).toBeInstanceOf(FakeWorker);
    expect(w.url).toBe('./assets/worker-abc.js');
    expect(w.opts.type).toBe('module');
  });

  it('is the worker the client talks to, taken once', () => {
    const early = new FakeWorker('early', { type: 'module' });
    g[EARLY_WORKER] = early;
    g.Worker = FakeWorker;
    void new EngineClient().init();
    expect(early.posted).toEqual([{ type: 'init', id: 1 }]);
    expect(g[EARLY_WORKER]).toBeUndefined();
  });

  it('goes into the built page after the charset, before the stylesheet and the script', () => {
    const plugin = earlyWorkerPlugin();
    const hook = plugin.transformIndexHtml as {
      handler: (html: string, ctx: IndexHtmlTransformContext) => string;
    };
    const html = [
      '<head>',
      '<meta charset="UTF-8" />',
      '<script type="module" src="./assets/index-x.js"></script>',
      '<link rel="stylesheet" href="./assets/index-y.css">',
      '</head>',
    ].join('\n');
    const bundle = { 'assets/worker-F26TcCT9.js': {}, 'assets/index-x.js': {} };
    const out = hook.handler(html, { bundle } as unknown as IndexHtmlTransformContext);
    const at = (s: string) => out.indexOf(s);
    expect(at('assets/worker-F26TcCT9.js')).toBeGreaterThan(at('charset'));
    expect(at('assets/worker-F26TcCT9.js')).toBeLessThan(at('index-x.js'));
    // No bundle (the dev server) or no single worker: the page makes its own.
    expect(hook.handler(html, {} as IndexHtmlTransformContext)).toBe(html);
  });
});
