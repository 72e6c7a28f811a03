/** Process entry of `npm run oracle -- <built-in id | file.json> [--release 4.7.0] [--record] [--compare]`. */
import { oracleMain } from './oracle_main';
import { stopAll, stopAllOnExit } from './procs';

stopAllOnExit();
void oracleMain(process.argv.slice(2)).then(async (code) => {
  await stopAll();
  // pending wait timers (a JVM's start-up deadline) must not hold the process open
  process.exit(code);
});
