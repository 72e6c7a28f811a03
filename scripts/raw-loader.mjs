// Lets Node (the CLIs, run through tsx) import files with Vite's `?raw` suffix, so the Lua scripts
// live as plain .lua files and are imported the same way in the browser bundle, Vitest and Node.
import { register } from 'node:module';

register('./raw-hooks.mjs', import.meta.url);
