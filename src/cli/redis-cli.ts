/**
 * `npm run -s redis-cli [-- --raw | --no-raw] [--clock <ms>] [--cluster]`: feeds stdin, line by
 * line, to one fresh simulated Redis and prints what `redis-cli` 7.0.15 prints when fed the same
 * stdin. With --cluster that Redis is master-1 of a three-master cluster (cluster_static.ts,
 * 127.0.0.1:30001-30003) and the output is redis-cli's talking to a real node without -c: MOVED
 * and the other redirections are printed, not followed.
 *
 * Like redis-cli: raw output when stdout is not a terminal, unless --no-raw; `N cmd` repeats
 * a command; quit/exit stop; a line that does not split prints "Invalid argument(s)".
 * Each command prints one reply; extra frames (UNSUBSCRIBE a b) wait their turn and are
 * printed as the replies of the following commands, as redis-cli's reply stream does. After
 * SUBSCRIBE/PSUBSCRIBE redis-cli only reads messages forever; here nothing can publish, so
 * the confirmations are printed and the rest of stdin is ignored.
 *
 * The virtual clock starts at the wall clock (or --clock) so absolute times (EXPIREAT,
 * PXAT) mean what they mean on a real server; it only moves on DEBUG SLEEP.
 */
import { ManualClock } from '../engine/clock';
import { formatCommandReply, type CliMode } from '../engine/redis/cli_format';
import { clusterNodeAddress } from '../engine/redis/cluster_slots';
import { staticClusterView } from '../engine/redis/cluster_static';
import { splitArgs } from '../engine/redis/redis_argv';
import type { Reply } from '../engine/redis/reply';
import { RedisServer } from '../engine/redis/server';

interface Options {
  mode: CliMode;
  clockStart: number;
  cluster: boolean;
}

function parseOptions(args: string[]): Options {
  let mode: CliMode = process.stdout.isTTY ? 'tty' : 'raw';
  let clockStart = Date.now();
  let cluster = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--raw') mode = 'raw';
    else if (a === '--no-raw') mode = 'tty';
    else if (a === '--clock' && i + 1 < args.length) clockStart = Number(args[++i]);
    else if (a === '--cluster') cluster = true;
    else {
      process.stderr.write(`Unrecognized option or bad number of args for: '${a}'\n`);
      process.exit(1);
    }
  }
  return { mode, clockStart, cluster };
}

/** strtol(argv[0]) consuming the whole word: the repeat count of "3 ping", or null. */
function repeatCount(word: string): number | null {
  if (!/^[\t\n\v\f\r ]*[+-]?\d*$/.test(word)) return null;
  const digits = word.trim();
  const n = digits === '' || digits === '+' || digits === '-' ? 0 : Number(digits);
  return n;
}

function main(): void {
  const opts = parseOptions(process.argv.slice(2));
  const clock = new ManualClock(opts.clockStart);
  const server = new RedisServer({
    clock,
    onSleep: (ms) => clock.advance(ms),
    cluster: opts.cluster ? staticClusterView('master-1', { masters: 3 }) : undefined,
  });
  const address = opts.cluster ? clusterNodeAddress(0) : { host: '127.0.0.1', port: 6379 };
  const conn = server.connect();
  const interactive = process.stdin.isTTY === true;
  const print = (s: string): void => {
    process.stdout.write(Buffer.from(s, 'latin1'));
  };
  const prompt = (): void => {
    if (interactive) print(`${address.host}:${address.port}> `);
  };
  const pending: Reply[] = [];
  let stopped = false;

  /** One input line; false once redis-cli would stop reading (quit, or a subscription). */
  const handle = (line: string): boolean => {
    let argv = splitArgs(line);
    if (argv === null) {
      print('Invalid argument(s)\n');
      return true;
    }
    if (argv.length === 0) return true;
    const name = argv[0].toLowerCase();
    if (name === 'quit' || name === 'exit') return false;
    let repeat = 1;
    if (argv.length > 1) {
      const n = repeatCount(argv[0]);
      if (n !== null) {
        if (!(n > 0) || n > 2 ** 63) {
          print('Invalid redis-cli repeat command option value.\n');
          return true;
        }
        repeat = n;
        argv = argv.slice(1);
      }
    }
    const command = argv[0].toLowerCase();
    const subscribing = command === 'subscribe' || command === 'psubscribe' || command === 'ssubscribe';
    for (let r = 0; r < repeat; r++) {
      pending.push(...server.execFrames(conn, argv));
      if (subscribing) {
        if (opts.mode === 'tty') print('Reading messages... (press Ctrl-C to quit)\n');
        while (pending.length > 0) {
          const frame = pending.shift()!;
          print(formatCommandReply(argv, frame, opts.mode));
          if (frame.t === 'error') return true;
        }
        return false;
      }
      print(formatCommandReply(argv, pending.shift()!, opts.mode));
    }
    return true;
  };

  // Bytes in, bytes out: latin1 maps each byte to one char of a byte string and back.
  process.stdin.setEncoding('latin1');
  let buffered = '';
  prompt();
  process.stdin.on('data', (chunk: string) => {
    if (stopped) return;
    buffered += chunk;
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      if (!handle(line)) {
        stopped = true;
        process.stdin.pause();
        return;
      }
      prompt();
    }
  });
  process.stdin.on('end', () => {
    if (!stopped && buffered !== '') handle(buffered);
  });
}

main();
