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
  attach(node: string, port: number): void;
  stopAll(): Promise<void>;
}

export function startMonitor(): Monitor {
  const lines: MonitorLine[] = [];
  const procs: Proc[] = [];
  return {
    lines,
    attach(node, port) {
      const p = start(`monitor ${node}`, 'redis-cli', ['-p', String(port), 'monitor']);
      procs.push(p);
      p.child.stderr?.resume();
      const rl = createInterface({ input: p.child.stdout! });
      rl.on('line', (l) => {
        const parsed = parseMonitorLine(node, l);
        if (parsed) lines.push(parsed);
      });
    },
    async stopAll() {
      await Promise.all(procs.map((p) => stop(p)));
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
