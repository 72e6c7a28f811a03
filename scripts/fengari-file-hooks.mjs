// Module hooks that make `import 'fengari-web'` load the file named by LOCKSCOPE_FENGARI_FILE
// instead of the installed bundle. `npm run bench` uses them to run fengari as shipped (the
// LockScope patch reverted) beside the patched one; see fengari-file-loader.mjs.
import { pathToFileURL } from 'node:url';

export async function resolve(specifier, context, next) {
  const file = process.env.LOCKSCOPE_FENGARI_FILE;
  if (specifier === 'fengari-web' && file) {
    return { url: pathToFileURL(file).href, shortCircuit: true, format: 'commonjs' };
  }
  return next(specifier, context);
}
