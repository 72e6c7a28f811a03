// Module hooks that let one process load the engine on a fengari other than the installed one.
//
// - Whole process: `LOCKSCOPE_FENGARI_FILE=path node --import ./scripts/fengari-file-loader.mjs ...`
//   makes every `import 'fengari-web'` load that file (e.g. a reverted copy, for profiling).
// - Side by side: `register(this file, { data: { shippedFile } })`, then import an engine module with
//   the query `?lockscope-fengari=shipped`. That module and everything it imports from the project
//   load again as separate instances (the query is passed down), bound to `shippedFile`, while the
//   plain imports keep the installed fengari. `npm run bench` measures both this way, interleaved.
import { pathToFileURL } from 'node:url';

const TAG = 'lockscope-fengari=shipped';
let shippedFile = null;

export async function initialize(data) {
  if (data && typeof data.shippedFile === 'string') shippedFile = data.shippedFile;
}

export async function resolve(specifier, context, next) {
  const tagged = shippedFile !== null && (context.parentURL ?? '').includes(TAG);
  if (specifier === 'fengari-web') {
    if (tagged)
      return { url: `${pathToFileURL(shippedFile).href}?${TAG}`, shortCircuit: true, format: 'commonjs' };
    const file = process.env.LOCKSCOPE_FENGARI_FILE;
    if (file) return { url: pathToFileURL(file).href, shortCircuit: true, format: 'commonjs' };
  }
  const r = await next(specifier, context);
  if (tagged && r.url.startsWith('file:') && r.url.endsWith('.ts')) return { ...r, url: `${r.url}?${TAG}` };
  return r;
}
