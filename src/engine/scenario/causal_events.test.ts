import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../trace/types';
import { builtins } from './builtins/index';
import { runScenario } from './run';
import { validateScenario } from './schema';

function events(id: string, verbose: boolean): TraceEvent[] {
  const b = builtins.find((x) => x.id === id)!;
  const v = validateScenario(b.scenario);
  if (!v.ok) throw new Error(JSON.stringify(v.issues));
  return runScenario(v.scenario, { verbose }).trace.events;
}

describe('script.begin / script.end', () => {
  it('bracket every script run of a verbose trace, just before its cmd, and carry the text once per sha', () => {
    const evs = events('contention-wakeup', true);
    const begins = evs.filter((e) => e.kind === 'script.begin');
    expect(begins.length).toBeGreaterThan(2);
    const seen = new Set<string>();
    for (let i = 0; i < evs.length; i++) {
      const b = evs[i];
      if (b.kind !== 'script.begin') continue;
      // Inside: script.line / script.call, and what the script caused (a pubsub.publish).
      let j = i + 1;
      while (evs[j].kind !== 'script.end' && evs[j].kind !== 'script.begin' && evs[j].kind !== 'cmd') j++;
      const end = evs[j];
      if (end.kind !== 'script.end') throw new Error(`no script.end after ${b.seq}`);
      expect([end.node, end.sha]).toEqual([b.node, b.sha]);
      const cmd = evs[j + 1];
      if (cmd.kind !== 'cmd') throw new Error('unreachable');
      expect(cmd.node).toBe(b.node);
      expect(cmd.reply).toEqual(end.reply);
      const key = `${b.node}\u0000${b.sha}`;
      expect(typeof b.script === 'string').toBe(!seen.has(key));
      seen.add(key);
      expect(b.keys.length + b.args.length).toBeGreaterThan(0);
    }
  });

  it('are not in a plain trace', () => {
    expect(
      events('contention-wakeup', false).some((e) => e.kind === 'script.begin' || e.kind === 'script.end'),
    ).toBe(false);
  });
});

describe('pubsub.deliver causeSeq', () => {
  it('names the pubsub.publish that sent the message', () => {
    for (const id of ['contention-wakeup', 'rw-lock-readers-then-writer', 'fair-lock-fifo']) {
      const evs = events(id, false);
      const delivers = evs.filter((e) => e.kind === 'pubsub.deliver');
      expect(delivers.length).toBeGreaterThan(0);
      for (const d of delivers) {
        if (d.kind !== 'pubsub.deliver') continue;
        const p = evs[d.causeSeq!];
        if (p?.kind !== 'pubsub.publish') throw new Error(`${id}: delivery ${d.seq} has no publish`);
        expect([p.node, p.channel, p.message]).toEqual([d.node, d.channel, d.message]);
        expect(p.seq).toBeLessThan(d.seq);
      }
    }
  });
});

describe('waiter.wakeup causeSeq', () => {
  // contention-100 included: give it room on a loaded machine
  it('names the delivery whose unlock message woke the waiter', { timeout: 60_000 }, () => {
    let linked = 0;
    for (const id of ['contention-wakeup', 'rw-lock-readers-then-writer', 'contention-100']) {
      const evs = events(id, false);
      for (const w of evs) {
        if (w.kind !== 'waiter.wakeup') continue;
        if (w.cause !== 'message') {
          expect(w.causeSeq).toBeUndefined();
          continue;
        }
        const d = evs[w.causeSeq!];
        if (d.kind !== 'pubsub.deliver') throw new Error(`${id}: wake-up ${w.seq} names no delivery`);
        expect(d.actor).toBe(w.actor.split(':')[0]);
        expect(d.seq).toBeLessThan(w.seq);
        linked++;
      }
    }
    expect(linked).toBeGreaterThan(10);
  });
});
