import { describe, expect, it } from 'vitest';
import type { LessonEntry } from '../lessons/index';
import type { Lesson } from '../lessons/types';
import { lessonMain } from './lesson_main';

async function call(argv: string[], catalog?: LessonEntry[]) {
  let out = '';
  let err = '';
  const code = await lessonMain(argv, { out: (t) => (out += t), err: (t) => (err += t) }, catalog);
  return { code, out, err };
}

describe('npm run lesson', () => {
  it('prints a lesson as text: step text, cursor time, checks', async () => {
    const r = await call(['why-lock']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^# why-lock: /);
    expect(r.out).toMatch(/## step 1 \[C01\] t=\d+ seq=\d+/);
    expect(r.out).toMatch(/ {2}ok {3}resource value = 1/);
  });

  it('prints JSON in the documented shape', async () => {
    const r = await call(['why-lock', '--json']);
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { lessons: Record<string, unknown>[] };
    const l = j.lessons[0] as { id: string; title: unknown; steps: Record<string, unknown>[] };
    expect(l.id).toBe('why-lock');
    expect(l.title).toEqual({ en: expect.any(String), zh: expect.any(String) });
    const s = l.steps[0];
    expect(Object.keys(s)).toEqual(['claims', 'text', 'at', 'state', 'violations', 'events', 'checks']);
    expect(s.state).toMatchObject({ t: expect.any(Number), nodes: { master: { role: 'master', up: true } } });
    expect(s.checks).toContainEqual({ what: expect.any(String), ok: true });
    const events = s.events as { seq: number }[];
    expect(events[0].seq).toBe(0);
    expect(events[events.length - 1].seq).toBe((s.at as { seq: number }).seq);
  });

  it('exits 1 when a check fails, and says which', async () => {
    const broken: Lesson = {
      id: 'broken',
      title: { en: 'Broken', zh: '坏的' },
      minutes: 5,
      steps: [
        {
          claims: ['C12'],
          scenario: { builtin: 'basic-lock' },
          at: { kind: 'lock.acquired' },
          text: { en: 'x', zh: '字' },
          checks: [{ key: 'myLock', holder: { owner: 'A:1', count: 2 } }],
        },
      ],
    };
    const r = await call(['broken'], [{ id: 'broken', load: async () => broken }]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/FAIL key myLock field of A:1 = 2 \(got: field \S+ is 1\)/);
  });

  it('rejects an unknown lesson or option with exit 2', async () => {
    expect((await call(['nope'])).code).toBe(2);
    expect((await call(['why-lock', '--yaml'])).code).toBe(2);
    expect((await call([])).code).toBe(2);
  });
});
