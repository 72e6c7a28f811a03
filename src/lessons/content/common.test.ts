import { describe, expect, it } from 'vitest';
import { client, hold, scenario } from '../../engine/scenario/build';
import { cursorAt, endOf, failure } from '../checks';
import { evaluateQuestion, RunCache } from '../evaluate';
import { findEvent } from '../select';
import type { Check } from '../types';
import {
  absent,
  actorOf,
  atLeast,
  choice,
  count,
  exactly,
  fieldOf,
  gap,
  holds,
  none,
  noV1Goal,
  onFirstOps,
  openV1,
  replyOf,
  scriptLines,
  threadHolds,
  timeOf,
  turnedAway,
  v1,
  whether,
  yourTurn,
} from './common';
import { acquired, cmd, ev } from './events';

// A holds myLock for 1 s; B's tryLock at 100 ms meets it and gives up at once.
const run = new RunCache().run(
  scenario([
    client('A', hold('myLock', 1000)),
    client('B', [{ op: 'tryLock', lock: 'myLock' }], { start: 100 }),
  ]),
);
const cursor = (sel: Parameters<typeof findEvent>[1]) => cursorAt(run, findEvent(run.trace.events, sel));
const bEval = cmd('B:1', 'EVALSHA', { key: 'myLock', nth: -1 });

describe('check builders', () => {
  it('write the fields a lesson wrote by hand, in its order, and no others', () => {
    const cases: [Check | Check[], string][] = [
      [holds('myLock', 'A:1', 1), '{"key":"myLock","holder":{"owner":"A:1","count":1}}'],
      [
        holds('l1', 'B:1', null, { pttl: { min: 9 }, fields: 2, is: 'hash', node: 'master-1' }),
        '{"key":"l1","node":"master-1","is":"hash","fields":2,"holder":{"owner":"B:1","count":null},"pttl":{"min":9}}',
      ],
      [absent('k'), '{"key":"k","is":"absent"}'],
      [absent('k', 'replica-1'), '{"key":"k","node":"replica-1","is":"absent"}'],
      [threadHolds('A:1', 'rw', 0), '{"thread":"A:1","holds":{"lock":"rw","count":0}}'],
      [
        threadHolds('B:1', 'myLock', 0, { lastResult: false, state: 'done' }),
        '{"thread":"B:1","state":"done","lastResult":false,"holds":{"lock":"myLock","count":0}}',
      ],
      [
        threadHolds('B:1', 'myLock', 0, { lastResult: null }),
        '{"thread":"B:1","lastResult":null,"holds":{"lock":"myLock","count":0}}',
      ],
      [turnedAway('C:1', 'l'), '[{"not":{"reply":null}},{"thread":"C:1","holds":{"lock":"l","count":0}}]'],
      [v1('res', 'A:1', 'B:1'), '{"violation":"V1","lock":"res","holders":["A:1","B:1"]}'],
      [openV1('res', 'B:1', 'C:1'), '{"violation":"V1","lock":"res","open":true,"holders":["B:1","C:1"]}'],
      [exactly(2, { kind: 'x' }), '{"count":{"kind":"x"},"min":2,"max":2}'],
      [atLeast(3, { kind: 'x' }), '{"count":{"kind":"x"},"min":3}'],
      [none({ kind: 'x' }), '{"count":{"kind":"x"},"max":0}'],
      [count({ kind: 'x' }, { max: 1 }), '{"count":{"kind":"x"},"max":1}'],
      [
        gap({ kind: 'a' }, { kind: 'b' }, { min: 0 }),
        '{"gap":{"from":{"kind":"a"},"to":{"kind":"b"}},"min":0}',
      ],
    ];
    for (const [built, json] of cases) expect(JSON.stringify(built)).toBe(json);
  });

  it('say what the run shows', () => {
    const aGot = cursor(acquired('A:1'));
    const holdsAt = (c: typeof aGot, check: Check) => failure(c, check) === null;
    expect(holdsAt(aGot, holds('myLock', 'A:1', 1))).toBe(true);
    expect(holdsAt(aGot, holds('myLock', 'A:1', 2))).toBe(false);
    expect(holdsAt(aGot, holds('myLock', 'B:1', null))).toBe(true);
    expect(holdsAt(aGot, threadHolds('A:1', 'myLock', 1))).toBe(true);
    expect(holdsAt(aGot, absent('myLock'))).toBe(false);

    const bMeets = cursor(bEval);
    for (const c of turnedAway('B:1')) expect(holdsAt(bMeets, c)).toBe(true);
    const aGets = cursor(cmd('A:1', 'EVALSHA', { before: acquired('A:1'), nth: -1 }));
    // A:1's script answered nil: not turned away (its thread learns of the lock one latency later)
    expect(turnedAway('A:1').map((c) => holdsAt(aGets, c))).toEqual([false, true]);

    const end = endOf(run);
    expect(holdsAt(end, exactly(1, acquired('A:1')))).toBe(true);
    expect(holdsAt(end, atLeast(2, acquired('A:1')))).toBe(false);
    expect(holdsAt(end, none(acquired('B:1')))).toBe(true);
    expect(holdsAt(end, none(acquired('A:1')))).toBe(false);
    expect(holdsAt(end, gap(acquired('A:1'), ev('lock.failed', 'B:1'), { min: 90, max: 110 }))).toBe(true);
    expect(holdsAt(end, gap(acquired('A:1'), ev('lock.failed', 'B:1'), { max: 50 }))).toBe(false);
    expect(holdsAt(end, v1('myLock', 'A:1', 'B:1'))).toBe(false);
    expect(holdsAt(end, openV1('myLock', 'A:1', 'B:1'))).toBe(false);
  });
});

describe('highlight builders', () => {
  it('name a script’s lines from first to last', () => {
    expect(scriptLines('lock', 7, 7)).toEqual({ script: 'lock', lines: [7] });
    expect(scriptLines('unlock', 15, 19)).toEqual({ script: 'unlock', lines: [15, 16, 17, 18, 19] });
  });
});

describe('question and task builders', () => {
  it('build answers the evaluator computes from the run', () => {
    const ask = (answer: Parameters<typeof evaluateQuestion>[1]['answer'], values: unknown[]) =>
      evaluateQuestion(endOf(run), {
        prompt: { en: '?', zh: '？' },
        choices: values.map((v, i) => choice(`c${i}`, v, `${String(v)}`, '字')),
        answer,
        feedback: { en: '.', zh: '。' },
      }).right;
    expect(ask(actorOf(acquired('A:1')), ['A:1', 'B:1'])).toEqual(['c0']);
    expect(ask(whether(none(acquired('B:1'))), [true, false])).toEqual(['c0']);
    expect(ask(whether(atLeast(1, acquired('B:1'))), [true, false])).toEqual(['c1']);
    const ttl = run.trace.events[findEvent(run.trace.events, bEval)].reply;
    expect(typeof ttl).toBe('number');
    expect(ask(replyOf(bEval), [null, ttl])).toEqual(['c1']);
    expect(
      ask(timeOf(acquired('A:1')), [
        [0, 50],
        [500, 600],
      ]),
    ).toEqual(['c0']);
    expect(ask(fieldOf(acquired('A:1'), 'actor'), ['B:1', 'A:1'])).toEqual(['c1']);
  });

  it('build choices, task prompts, lock-op patches and the no-V1 goal', () => {
    expect(yourTurn('call `lock()`.', '调用 `lock()`。')).toEqual({
      en: 'Call `lock()`.',
      zh: '调用 `lock()`。',
    });
    expect(choice('one', 1, '`1`', '写入 `1`')).toEqual({
      id: 'one',
      value: 1,
      text: { en: '`1`', zh: '写入 `1`' },
    });
    expect(onFirstOps('replace', 'type', 'set-nx-px')).toEqual([
      { op: 'replace', path: '/clients/0/threads/0/program/0/type', value: 'set-nx-px' },
      { op: 'replace', path: '/clients/1/threads/0/program/0/type', value: 'set-nx-px' },
    ]);
    expect(onFirstOps('add', 'leaseMs', 5000, [2])).toEqual([
      { op: 'add', path: '/clients/2/threads/0/program/0/leaseMs', value: 5000 },
    ]);
    expect(noV1Goal('lock:job')).toEqual({
      goalText: { en: 'No `V1` on `lock:job`.', zh: '`lock:job` 上没有 `V1`。' },
      goal: { noViolation: 'V1', lock: 'lock:job' },
    });
  });
});
