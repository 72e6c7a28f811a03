import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessonCatalog, loadAllLessons } from './index';
import { LESSON_REF, resolveLessonRefs } from './refs';

const CONTENT = join(import.meta.dirname, 'content');
const sources = readdirSync(CONTENT)
  .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
  .map((f) => [f, readFileSync(join(CONTENT, f), 'utf8')] as const);

describe('lessons cite each other by id, numbered at load', () => {
  it('replaces {lesson:<id>} in every string, deep, and refuses an unknown id', () => {
    const n = (id: string) => ({ a: 1, b: 12 })[id];
    expect(resolveLessonRefs({ t: ['see lesson {lesson:b}', { zh: '第 {lesson:a} 课' }], k: 3 }, n)).toEqual({
      t: ['see lesson 12', { zh: '第 1 课' }],
      k: 3,
    });
    expect(() => resolveLessonRefs('lesson {lesson:c}', n)).toThrow(/no lesson "c"/);
  });

  it('writes no lesson number by hand: a lesson inserted earlier would make it wrong', () => {
    for (const [file, src] of sources) {
      expect(src.match(/\b[Ll]essons? \d+/g) ?? [], file).toEqual([]);
      expect(src.match(/第 ?\d+(?:[–-]\d+)? ?课/g) ?? [], file).toEqual([]);
    }
  });

  it('cites only lessons of the course, and the loaded text carries their numbers', async () => {
    const ids = new Set(lessonCatalog.map((e) => e.id));
    for (const [file, src] of sources)
      for (const m of src.matchAll(LESSON_REF)) expect(ids.has(m[1]), `${file}: ${m[0]}`).toBe(true);
    const lessons = await loadAllLessons();
    expect(JSON.stringify(lessons)).not.toMatch(/\{lesson:/);
    const watch = lessons.find((l) => l.id === 'multi-watch')!;
    const atomic = lessonCatalog.findIndex((e) => e.id === 'atomic-release') + 1;
    expect(watch.steps[0].text.en).toContain(`lesson ${atomic}’s race`);
  });
});
