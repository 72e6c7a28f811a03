// `node --import ./scripts/fengari-file-loader.mjs`: see fengari-file-hooks.mjs.
import { register } from 'node:module';

register('./fengari-file-hooks.mjs', import.meta.url);
