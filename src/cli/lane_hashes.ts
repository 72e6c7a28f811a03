/**
 * `npm run -s lane-hashes [-- --check FILE]`: the SHA-256 of every built-in's lane model, plain and
 * verbose, as JSON (lane_hash.ts). A change to the lanes that must not change what they show keeps
 * every hash: `--check src/cli/lane-hashes.json` (the committed hashes, main's at 6f71d02). Exit 1
 * lists the ids whose lanes changed.
 */
import { printOrCheck } from './hash_check';
import { laneHashes } from './lane_hash';

printOrCheck(laneHashes(), process.argv.slice(2));
