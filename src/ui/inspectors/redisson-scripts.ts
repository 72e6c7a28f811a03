/**
 * What the script view loads the first time it shows one of Redisson's scripts: every release's
 * texts with their Java lines, and LockScope's notes over them. A chunk of its own, so the page's
 * first screen does without both.
 */
export { redissonScriptOf } from '../../engine/redisson/scripts/index';
export { SCRIPT_NOTES } from './script-notes';
