/**
 * The simulator's side of a corpus run: one fresh RedisServer per file, each entry split like
 * redis-cli splits a typed line (redis_argv.ts) and its reply formatted like redis-cli prints it
 * (cli_format.ts), i.e. what `npm run -s redis-cli` prints for the same stdin.
 */
import { ManualClock } from '../../clock';
import { bytesFromText } from '../bytes';
import { formatCommandReply, type CliMode } from '../cli_format';
import type { ClusterView } from '../cluster_slots';
import { splitArgs } from '../redis_argv';
import { RedisServer } from '../server';
import type { CorpusEntry } from './corpus';

const SUBSCRIBING = /^[ps]?subscribe$/i;
const READING = 'Reading messages... (press Ctrl-C to quit)\n';

/**
 * `clockStart` is the real server's wall clock when the file starts, so absolute times (PEXPIREAT,
 * PXAT) mean the same on both sides; the virtual clock then stands still. With `cluster` the
 * server is that cluster node (`npm run -s redis-cli -- --cluster`).
 */
export function runSimCli(
  entries: readonly CorpusEntry[],
  mode: CliMode,
  clockStart: number,
  cluster?: ClusterView,
): string[] {
  const server = new RedisServer({ clock: new ManualClock(clockStart), seed: 0, cluster });
  const conn = server.connect();
  return entries.map((e) => {
    // the corpus is UTF-8 text, and that is what redis-cli reads from stdin
    const argv = splitArgs(bytesFromText(e.command));
    if (argv === null) return 'Invalid argument(s)\n';
    if (argv.length === 0) return '';
    const out = formatCommandReply(argv, server.exec(conn, argv), mode);
    // redis-cli announces its subscribe loop before reading the reply (tty mode only)
    return mode === 'tty' && SUBSCRIBING.test(argv[0]) ? READING + out : out;
  });
}
