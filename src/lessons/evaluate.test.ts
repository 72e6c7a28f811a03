import { describe, expect, it } from 'vitest';
import { cursorAt, describeCheck, failure, type Cursor } from './checks';
import { evaluateLesson, resolveScenario, RunCache } from './evaluate';
import { applyPatch, PatchError } from './patch';
import { findEvent, SelectorError } from './select';
import type { Check, ScenarioJson, Step } from './types';
import { client, hold, scenario } from '../engine/scenario/build';

const twoThreads: ScenarioJson = scenario([
  client('A', hold('myLock', 1000)),
  client('B', [{ op: 'tryLock', lock: 'myLock' }], { start: 100 }),
]);

const cache = new RunCache();
const run = cache.run(twoThreads);
const events = run.trace.events;
const at = (i: number): Cursor => cursorAt(run, i);
const acquired = findEvent(events, { kind: 'lock.acquired', actor: 'A:1' });

describe('patch', () => {
  it('adds, replaces and removes without touching its input', () => {
    const p = applyPatch(twoThreads, [
      { op: 'replace', path: '/clients/0/threads/0/program/1/ms', value: 5 },
      { op: 'add', path: '/clients/1/threads/0/program/-', value: { op: 'sleep', ms: 1 } },
      { op: 'add', path: '/clients/0/threads/0/program/0', value: { op: 'sleep', ms: 2 } },
      { op: 'add', path: '/seed', value: 7 },
      { op: 'remove', path: '/clients/1/threads/0/start' },
    ]) as any; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(p.clients[0].threads[0].program.map((o: { op: string }) => o.op)).toEqual([
      'sleep',
      'lock',
      'work',
      'unlock',
    ]);
    expect(p.clients[0].threads[0].program[2].ms).toBe(5);
    expect(p.clients[1].threads[0].program[1]).toEqual({ op: 'sleep', ms: 1 });
    expect(p.seed).toBe(7);
    expect(p.clients[1].threads[0].start).toBeUndefined();
    expect((twoThreads.clients as any)[0].threads[0].program[1].ms).toBe(1000); // eslint-disable-line @typescript-eslint/no-explicit-any
  });

  it('refuses a path that does not fit', () => {
    expect(() => applyPatch(twoThreads, [{ op: 'replace', path: '/clients/5/id', value: 'X' }])).toThrow(
      PatchError,
    );
    expect(() => applyPatch(twoThreads, [{ op: 'replace', path: '/nope', value: 1 }])).toThrow(PatchError);
    expect(() => applyPatch(twoThreads, [{ op: 'remove', path: 'clients' }])).toThrow(PatchError);
  });

  it('a patch step builds on the previous step’s scenario', () => {
    const s = resolveScenario({ patch: [{ op: 'add', path: '/seed', value: 3 }] }, twoThreads);
    expect(s.seed).toBe(3);
    expect(() => resolveScenario({ patch: [] }, undefined)).toThrow();
    expect(() => resolveScenario({ builtin: 'no-such-builtin' }, undefined)).toThrow();
  });
});

describe('selectors', () => {
  it('pick by kind, actor, command, key, nth, after and offset', () => {
    const firstEval = findEvent(events, { kind: 'cmd', actor: 'B:1', cmd: 'evalsha', key: 'myLock' });
    expect(events[firstEval].actor).toBe('B:1');
    const last = findEvent(events, { kind: 'cmd', actor: 'A:1', nth: -1 });
    expect(last).toBeGreaterThan(firstEval);
    const next = findEvent(events, { kind: 'cmd', after: { kind: 'lock.acquired', actor: 'A:1' } });
    expect(next).toBeGreaterThan(acquired);
    expect(findEvent(events, { kind: 'lock.acquired', actor: 'A:1', offset: -1 })).toBe(acquired - 1);
    const before = findEvent(events, {
      kind: 'cmd',
      nth: -1,
      before: { kind: 'lock.acquired', actor: 'A:1' },
    });
    expect(before).toBeLessThan(acquired);
    expect(findEvent(events, { kind: 'cmd', nth: -1 })).toBeGreaterThan(acquired);
    expect(() => findEvent(events, { kind: 'lock.acquired', actor: 'B:1' })).toThrow(SelectorError);
    expect(() => findEvent(events, { kind: 'lock.acquired', nth: 2 })).toThrow(SelectorError);
  });
});

describe('checks', () => {
  const holds = (c: Check, i = acquired) => failure(at(i), c) === null;

  it('read keys, hash fields and PTTL at the cursor', () => {
    expect(holds({ key: 'myLock', is: 'hash', fields: 1, holder: { owner: 'A:1', count: 1 } })).toBe(true);
    expect(holds({ key: 'myLock', holder: { owner: 'A:1', count: 2 } })).toBe(false);
    expect(holds({ key: 'myLock', is: 'string' })).toBe(false);
    expect(holds({ key: 'myLock', pttl: { min: 29_000, max: 30_000 } })).toBe(true);
    expect(holds({ key: 'myLock', pttl: { max: 10_000 } })).toBe(false);
    expect(holds({ key: 'myLock', pttl: 'none' })).toBe(false);
    expect(holds({ key: 'myLock', is: 'absent' }, -1)).toBe(true);
    expect(holds({ key: 'myLock', is: 'absent' })).toBe(false);
    expect(holds({ key: 'myLock', ownedBy: 'A:1' })).toBe(true);
    expect(holds({ key: 'myLock', ownedBy: 'B:1' })).toBe(false);
    expect(holds({ key: 'myLock', holder: { owner: 'B:1', count: null } })).toBe(true);
  });

  it('read threads, replies, counts, gaps, verdicts and violations', () => {
    expect(holds({ thread: 'A:1', holds: { lock: 'myLock', count: 1 } })).toBe(true);
    expect(holds({ thread: 'A:1', state: 'done' })).toBe(false);
    const bEval = findEvent(events, { kind: 'cmd', actor: 'B:1', cmd: 'evalsha', nth: -1 });
    expect(failure(at(bEval), { reply: null })).not.toBeNull();
    expect(typeof events[bEval].reply).toBe('number');
    expect(holds({ thread: 'B:1', lastResult: false }, events.length - 1)).toBe(true);
    expect(holds({ count: { kind: 'lock.acquired' }, min: 1, max: 1 }, events.length - 1)).toBe(true);
    expect(holds({ count: { kind: 'lock.acquired' }, min: 2 }, events.length - 1)).toBe(false);
    const gap = { from: { kind: 'lock.acquired' }, to: { kind: 'lock.released' } };
    expect(holds({ gap, min: 1000, max: 1010 })).toBe(true);
    expect(holds({ gap, max: 500 })).toBe(false);
    expect(holds({ verdict: 'safe' })).toBe(true);
    expect(holds({ noViolation: 'any' })).toBe(true);
    expect(holds({ violation: 'V1' })).toBe(false);
    expect(holds({ not: { verdict: 'safe' } })).toBe(false);
    expect(holds({ any: [{ verdict: 'unsafe' }, { verdict: 'safe' }] })).toBe(true);
    expect(holds({ all: [{ verdict: 'unsafe' }, { verdict: 'safe' }] })).toBe(false);
    expect(failure(at(acquired), { gap: { from: { kind: 'nothing' }, to: { kind: 'cmd' } } })).toMatch(
      /no event/,
    );
  });
});

describe('checks on a RedLock over independent masters', () => {
  // one Redisson instance, so one "<uuid>:1" field, per master: the lock events list them all
  const redlock = cache.run({
    format: 'lockscope/1',
    redis: { topology: 'independent', masters: 3 },
    clients: [
      {
        id: 'A',
        threads: [
          { id: 1, program: [{ op: 'lock', lock: 'res', type: 'RedLock', locks: ['r1', 'r2', 'r3'] }] },
        ],
      },
    ],
  });
  const end = cursorAt(redlock, redlock.trace.events.length - 1);

  it('find the thread’s field on each master', () => {
    for (const [key, node] of [
      ['r1', 'master-1'],
      ['r3', 'master-3'],
    ]) {
      expect(failure(end, { key, node, holder: { owner: 'A:1', count: 1 } })).toBeNull();
      expect(failure(end, { key, node, ownedBy: 'A:1' })).toBeNull();
      expect(failure(end, { key, node, holder: { owner: 'A:1', count: 2 } })).not.toBeNull();
    }
  });
});

describe('slot checks (Redis Cluster)', () => {
  const holds = (c: Check) => failure(at(acquired), c) === null;

  it('name the slot of a key, its range and the slot of another name, hash tags included', () => {
    expect(holds({ slot: 'myLock', is: 12769, min: 10923, max: 16383 })).toBe(true);
    expect(holds({ slot: 'myLock', is: 12768 })).toBe(false);
    expect(holds({ slot: 'myLock', max: 10922 })).toBe(false);
    expect(holds({ slot: 'redisson_lock__channel:{myLock}', sameAs: 'myLock' })).toBe(true);
    expect(holds({ slot: 'redisson_lock__channel:myLock', sameAs: 'myLock' })).toBe(false);
    expect(holds({ slot: '{order}:lock', is: 16025, sameAs: '{order}:stock' })).toBe(true);
    expect(failure(at(acquired), { slot: 'order:lock', is: 16025 })).toBe('order:lock is in slot 7904');
    expect(describeCheck({ slot: 'a{x}', is: 16287, min: 0, max: 16383, sameAs: 'x' })).toBe(
      'slot of a{x} is 16287, in 0..16383, the slot of x',
    );
  });
});

describe('evaluateLesson', () => {
  const text = { en: 'x', zh: '字' };
  /** A one-off lesson of these steps, played. */
  const play = (...steps: Step[]) =>
    evaluateLesson({ id: 't', title: { en: 't', zh: '测' }, minutes: 5, steps }, cache);
  /** A step that starts the two-thread run, with the common text. */
  const onTwoThreads = (claim: string, step: Partial<Step> = {}): Step => ({
    claims: [claim],
    scenario: { inline: twoThreads },
    text,
    ...step,
  });

  it('fails a wrong check, a question without exactly one right choice, a trivial task', () => {
    const r = play(
      onTwoThreads('C12', {
        at: { kind: 'lock.acquired', actor: 'A:1' },
        checks: [{ key: 'myLock', fields: 2 }],
        question: {
          prompt: text,
          choices: [
            { id: 'a', text, value: 'A:1' },
            { id: 'b', text, value: 'A:1' },
          ],
          answer: { from: 'actor-of', selector: { kind: 'lock.acquired' } },
          feedback: text,
        },
        task: { prompt: text, goalText: text, goal: { verdict: 'safe' }, solution: [], success: text },
      }),
    );
    expect(r.ok).toBe(false);
    // the wrong check, (the pre-answer cursor hides the answer), two right choices, the trivial task
    expect(r.steps[0].checks.map((c) => c.ok)).toEqual([false, true, false, false, true]);
    expect(r.steps[0].question?.right).toEqual(['a', 'b']);
  });

  it('fails a question whose answer is on screen before it is answered, until `decides` moves the cursor (LA1)', () => {
    const question = {
      prompt: text,
      choices: [
        { id: 'a', text, value: 'A:1' },
        { id: 'b', text, value: 'B:1', why: text },
      ],
      answer: { from: 'actor-of' as const, selector: { kind: 'lock.acquired' } },
      feedback: text,
    };
    const late = play(onTwoThreads('C16', { at: { kind: 'lock.failed' }, question }));
    const shown = late.steps[0].checks.find((c) => c.what.startsWith('question: the pre-answer'));
    expect(shown?.ok).toBe(false);
    expect(shown?.what).toMatch(/lock.acquired.*is at or before it/);
    const early = play(
      onTwoThreads('C16', {
        at: { kind: 'lock.failed' },
        question: { ...question, decides: { kind: 'lock.acquired' } },
      }),
    );
    expect(early.ok).toBe(true);
    expect(early.steps[0].ask).toBeLessThan(early.steps[0].cursor!);
  });

  it('hands each step the events since the previous cursor, or from the start on a new scenario', () => {
    const r = play(
      onTwoThreads('C11', { at: { kind: 'lock.acquired' } }),
      { claims: ['C16'], at: { kind: 'lock.failed' }, text, checks: [{ thread: 'B:1', lastResult: false }] },
      { claims: ['C16'], scenario: { patch: [{ op: 'add', path: '/seed', value: 2 }] }, text },
      { claims: ['C16'], pending: 'needs: something', text },
    );
    expect(r.ok).toBe(true);
    const [s1, s2, s3, s4] = r.steps;
    expect(s1.events![0].seq).toBe(0);
    expect(s2.sameScenario).toBe(true);
    expect(s2.events![0].seq).toBe(s1.at!.seq + 1);
    expect(s2.events![s2.events!.length - 1].kind).toBe('lock.failed');
    expect(s3.sameScenario).toBe(false);
    expect(s3.events![0].seq).toBe(0);
    expect(s4.pending).toBe('needs: something');
    expect(s4.checks).toEqual([]);
  });

  it('fails a cursor that moves backwards within one scenario', () => {
    const r = play(onTwoThreads('C16', { at: { kind: 'lock.failed' } }), {
      claims: ['C11'],
      at: { kind: 'lock.acquired' },
      text,
    });
    expect(r.ok).toBe(false);
    expect(r.steps[1].checks[0].what).toMatch(/is before the previous step's/);
  });

  it('fails a highlight that names a lane the run does not have', () => {
    const r = play(onTwoThreads('C11', { highlight: { lanes: ['A:1', 'Z:9'] } }));
    expect(r.steps[0].checks).toEqual([{ what: 'highlighted lanes exist (no Z:9 in this run)', ok: false }]);
  });

  it('reports a selector that finds nothing as a failed check', () => {
    const r = play(onTwoThreads('C11', { at: { kind: 'lock.acquired', actor: 'Z:1' } }));
    expect(r.ok).toBe(false);
    expect(r.steps[0].checks[0].what).toMatch(/^error: no event/);
  });
});
