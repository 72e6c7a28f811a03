/** Process entry of `npm run -s explore -- <scenario.json | built-in id> [options]` (explore_main.ts). */
import { exploreMain } from './explore_main';

process.exitCode = exploreMain(process.argv.slice(2), {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
});
