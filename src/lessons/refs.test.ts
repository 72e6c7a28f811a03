import { describe, expect, it } from 'vitest';
import { lessonCatalog, loadAllLessons } from './index';
import { LESSON_REF, resolveLessonRefs } from './refs';

const lessons = await loadAllLessons();
const ids = lessonCatalog.map((e) => e.id);

/** Every string in a lesson (texts, feedback, teacher notes, labels …), with a path for the message. */
function strings(x: unknown, path: string, out: [string, string][] = []): [string, string][] {
  if (typeof x === 'string') out.push([path, x]);
  else if (Array.isArray(x)) x.forEach((y, i) => strings(y, `${path}[${i}]`, out));
  else if (typeof x === 'object' && x !== null)
    for (const [k, v] of Object.entries(x)) strings(v, `${path}.${k}`, out);
  return out;
}

describe('lessons name other lessons by id, not by number', () => {
  it('resolves {lesson:<id>} to the lesson’s place in the course', () => {
    expect(resolveLessonRefs('lesson {lesson:watchdog}, 第 {lesson:setnx} 课')).toBe(
      `lesson ${ids.indexOf('watchdog') + 1}, 第 2 课`,
    );
    expect(resolveLessonRefs('{lesson:no-such-lesson}')).toBe('{lesson:no-such-lesson}');
  });

  it('every {lesson:<id>} names a lesson of the course', () => {
    const unknown = lessons.flatMap((l) =>
      strings(l, l.id).flatMap(([path, s]) =>
        [...s.matchAll(LESSON_REF)].filter((m) => !ids.includes(m[1])).map((m) => `${path}: ${m[0]}`),
      ),
    );
    expect(unknown).toEqual([]);
  });

  it('no lesson writes another lesson’s number by hand (it moves when a lesson is inserted)', () => {
    const literal = lessons.flatMap((l) =>
      strings(l, l.id)
        .filter(([, s]) => /\b[Ll]essons? \d|第\s*\d+\s*(?:[–-]\s*\d+\s*)?课/.test(s))
        .map(([path, s]) => `${path}: ${s.slice(0, 80)}`),
    );
    expect(literal).toEqual([]);
  });
});
