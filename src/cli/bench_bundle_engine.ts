/**
 * The engine of a tree bundled the way the page's build bundles it, for `npm run bench`'s sim
 * figures. Under tsx every module is compiled with esbuild's `keepNames`, which wraps each named
 * function made at run time (an arrow kept in a `const`, a method of an object literal) in a call
 * that defines its `name` property: code the page's bundle (Vite, no keepNames) does not run. The
 * bench measures the tsx engine as before and this one beside it, so both figures are shown.
 *
 * Vite's own `build` (the page's bundler, target es2022, minified as in `vite build`) bundles
 * DIR/src's builtins, runScenario and validateScenario into one ES module in a temporary folder,
 * which is imported and then removed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';
import type { builtins } from '../engine/scenario/builtins/index';
import type { runScenario } from '../engine/scenario/run';
import type { validateScenario } from '../engine/scenario/schema';

/** The engine modules a run needs (bench_sim.ts's Engine). */
export interface BundledEngine {
  builtins: typeof builtins;
  runScenario: typeof runScenario;
  validateScenario: typeof validateScenario;
}

const ENTRY = 'virtual:bench-engine';

/** An entry that re-exports the three from `dir`'s sources (no file is added to that tree). */
function entryPlugin(dir: string): Plugin {
  const src = (path: string) => JSON.stringify(join(dir, 'src', path));
  return {
    name: 'bench-engine-entry',
    // (lib mode hands the entry over resolved against the root)
    resolveId: (id) => (id.endsWith(ENTRY) ? `\0${ENTRY}` : null),
    load: (id) =>
      id === `\0${ENTRY}`
        ? [
            `export { builtins } from ${src('engine/scenario/builtins/index.ts')};`,
            `export { runScenario } from ${src('engine/scenario/run.ts')};`,
            `export { validateScenario } from ${src('engine/scenario/schema.ts')};`,
          ].join('\n')
        : null,
  };
}

/** DIR/src's engine as the page's build bundles it, or why it could not be built. */
export async function bundledEngine(dir: string): Promise<BundledEngine | string> {
  const out = mkdtempSync(join(tmpdir(), 'lockscope-bench-engine-'));
  try {
    const { build } = await import('vite');
    await build({
      configFile: false,
      root: dir,
      publicDir: false,
      logLevel: 'warn',
      plugins: [entryPlugin(dir)],
      build: {
        target: 'es2022',
        outDir: out,
        emptyOutDir: true,
        lib: { entry: { engine: ENTRY }, formats: ['es'] },
        rollupOptions: { output: { entryFileNames: '[name].mjs' } },
      },
    });
    return (await import(pathToFileURL(join(out, 'engine.mjs')).href)) as BundledEngine;
  } catch (e) {
    return `n/a (${e instanceof Error ? e.message.split('\n')[0] : String(e)})`;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
