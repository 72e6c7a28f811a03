/** Process entry of `npm run -s sim -- <scenario.json | built-in id> [--json] [--verbose]`. */
import { simMain } from './sim_main';

process.exitCode = simMain(process.argv.slice(2), {
  out: (t) => process.stdout.write(t),
  err: (t) => process.stderr.write(t),
});
