/**
 * A verbose run reports the line of the Java source each Redisson script instruction comes from
 * (redis/script_layout.ts): Redis compiles the text as one line, the view shows the literals.
 * Checked by where each redis.call lands: the line last reported before it names that command.
 */
import { describe, expect, it } from 'vitest';
import { builtins } from '../scenario/builtins/index';
import { runScenario } from '../scenario/run';
import { validateScenario, type Scenario } from '../scenario/schema';
import { redissonScriptOf } from './scripts/index';
import type { TraceEvent } from '../trace/types';

function verboseRun(id: string, version: string): TraceEvent[] {
  const b = builtins.find((x) => x.id === id)!;
  const doc = JSON.parse(JSON.stringify(b.scenario)) as Scenario;
  doc.redisson = { ...doc.redisson, version };
  const v = validateScenario(doc);
  if (!v.ok) throw new Error(JSON.stringify(v));
  return runScenario(v.scenario, { verbose: true }).trace.events;
}

/** every redis.call of a Redisson script, with the script's line reported last before it */
function callsWithLines(events: TraceEvent[]): { piece: string; cmd: string; line: number }[] {
  const texts = new Map<string, string>();
  const out: { piece: string; cmd: string; line: number }[] = [];
  let text: string | undefined;
  let line = 0;
  for (const e of events) {
    if (e.kind === 'script.begin') {
      if (typeof e.script === 'string') texts.set(e.sha, e.script);
      text = texts.get(e.sha);
      line = 0;
    } else if (e.kind === 'script.line') line = e.line;
    else if (e.kind === 'script.call' && text !== undefined) {
      const s = redissonScriptOf(text);
      if (s) out.push({ piece: s.lines[line - 1] ?? '', cmd: e.argv[0], line });
    }
  }
  return out;
}

describe('traced Redisson scripts report their Java lines', () => {
  const cases: [string, string][] = [
    ['basic-lock', '4.7.0'],
    ['basic-lock', '3.11.6'],
    ['watchdog-renewal', '4.7.0'],
    ['fair-lock-fifo', '4.7.0'],
    ['fair-lock-fifo', '3.27.2'],
    ['rw-lock-readers-then-writer', '4.7.0'],
    ['spin-lock-polling', '4.7.0'],
    ['fencing-saves-gc-pause', '3.27.2'],
  ];
  for (const [id, version] of cases)
    it(`${id} at ${version}: each redis.call sits on a line that calls it`, () => {
      const calls = callsWithLines(verboseRun(id, version));
      expect(calls.length).toBeGreaterThan(3);
      for (const c of calls) {
        // the publish command arrives as ARGV (3.22+): redis.call(ARGV[n], ...)
        const named = c.piece.includes(`'${c.cmd.toLowerCase()}'`) || /redis\.call\(ARGV\[\d\]/.test(c.piece);
        expect(named, `${c.cmd} on line ${c.line}: ${c.piece}`).toBe(true);
      }
    });
});
