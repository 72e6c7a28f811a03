/** Process entry of `npm run oracle -- <built-in id | file.json> [--release 4.7.0] [--record] [--compare]`. */
import { oracleMain } from './oracle_main';
import { stopAllOnExit } from './procs';

stopAllOnExit();
void oracleMain(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
