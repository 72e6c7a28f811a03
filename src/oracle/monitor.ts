/**
 * MONITOR on every data node, through `redis-cli monitor`, parsed into commands. A line is
 * `<unix s.us> [<db> <ip:port>|lua] "CMD" "arg" …` with arguments escaped as Redis's sdscatrepr
 * does (\" \\ \n \r \t \a \b \xHH).
 */
import { createInterface } from 'node:readline';
import { start, stop, type Proc } from './procs';

export interface MonitorLine {
  node: string;
  /** unix epoch ms (microsecond precision) */
  epochMs: number;
  /** the sending connection's "ip:port", or "lua" for a command a script ran */
  from: string;
  argv: string[];
}

export interface Monitor {
  readonly lines: MonitorLine[];
  attach(node: string, port: number, host?: string): void;
  stopAll(): Promise<void>;
}

/**
 * A MONITOR connection does not survive everything a run does to its node: Sentinel ends every
 * normal client of a replica it promotes or re-points (`CLIENT KILL TYPE normal`, which includes
 * monitors), and a crashed node takes it down. So each node's monitor is started again whenever
 * it ends, at once after it had been connected and every 200 ms while the node does not answer;
 * `attach` again (a restarted node) tries at once.
 */
export function startMonitor(): Monitor {
  const lines: MonitorLine[] = [];
  const procs = new Set<Proc>();
  const retry = new Map<string, () => void>();
  let stopped = false;
  return {
    lines,
    attach(node, port, host = '127.0.0.1') {
      const again = retry.get(node);
      if (again) return again();
      let timer: NodeJS.Timeout | null = null;
      let connected = false;
      let live: Proc | null = null;
      const open = () => {
        if (timer) clearTimeout(timer);
        timer = null;
        if (stopped || live !== null) return;
        const p = start(`monitor ${node}`, 'redis-cli', ['-h', host, '-p', String(port), 'monitor']);
        procs.add(p);
        live = p;
        connected = false;
        p.child.stderr?.resume();
        const rl = createInterface({ input: p.child.stdout! });
        rl.on('line', (l) => {
          connected = true;
          const parsed = parseMonitorLine(node, l);
          if (parsed) lines.push(parsed);
        });
        void p.exited.then(() => {
          procs.delete(p);
          live = null;
          if (!stopped && timer === null) timer = globalThis.setTimeout(open, connected ? 0 : 200);
        });
      };
      retry.set(node, open);
      open();
    },
    async stopAll() {
      stopped = true;
      await Promise.all([...procs].map((p) => stop(p)));
    },
  };
}

const LINE = /^(\d+)\.(\d+) \[\d+ ([^\]]+)\] (.*)$/;

export function parseMonitorLine(node: string, line: string): MonitorLine | null {
  const m = LINE.exec(line);
  if (!m) return null;
  return {
    node,
    epochMs: Number(m[1]) * 1000 + Number(m[2].padEnd(6, '0')) / 1000,
    from: m[3],
    argv: parseArgs(m[4]),
  };
}

function parseArgs(s: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    if (s[i] !== '"') {
      i++;
      continue;
    }
    i++;
    const bytes: number[] = [];
    while (i < s.length && s[i] !== '"') {
      if (s[i] === '\\' && i + 1 < s.length) {
        const c = s[i + 1];
        if (c === 'x') {
          bytes.push(parseInt(s.slice(i + 2, i + 4), 16));
          i += 4;
          continue;
        }
        const map: Record<string, number> = { n: 10, r: 13, t: 9, a: 7, b: 8, '"': 34, '\\': 92 };
        bytes.push(map[c] ?? c.charCodeAt(0));
        i += 2;
        continue;
      }
      for (const b of Buffer.from(s[i], 'utf8')) bytes.push(b);
      i++;
    }
    i++;
    out.push(Buffer.from(bytes).toString('utf8'));
  }
  return out;
}
