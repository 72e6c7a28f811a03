import { describe, expect, it } from 'vitest';
import { applyPatch } from '../../lessons/patch';
import { handleLessonRequest } from './lesson-host';

describe('the worker’s lesson host', () => {
  it('lists the course with titles, minutes and step counts', async () => {
    const r = await handleLessonRequest({ type: 'lessons', id: 1 });
    if (r.type !== 'lessons') throw new Error(r.type);
    expect(r.result.length).toBeGreaterThanOrEqual(16);
    expect(r.result[0]).toMatchObject({ id: 'why-lock', coming: false });
    expect(r.result.find((l) => l.id === 'cluster')).toMatchObject({ coming: false, steps: 7 });
  });

  it('plays a lesson: cursors, the question’s right choice, and a task’s goal on the learner’s edit', async () => {
    const r = await handleLessonRequest({ type: 'lesson', id: 2, lessonId: 'lease-too-short' });
    if (r.type !== 'lesson') throw new Error(r.type);
    const { lesson, steps } = r.result;
    expect(steps).toHaveLength(lesson.steps.length);
    expect(steps.every((s) => s.error === undefined && s.cursor !== undefined)).toBe(true);
    expect(steps[1].right).toEqual(['expiry']);
    expect(steps[2].sameScenario).toBe(true);

    const n = lesson.steps.findIndex((s) => s.task !== undefined);
    const scenario = steps[n].scenario!;
    const goal = (s: unknown) =>
      handleLessonRequest({ type: 'lessonGoal', id: 3, lessonId: lesson.id, step: n, scenario: s });
    expect(await goal(scenario)).toMatchObject({ result: { met: false } });
    expect(await goal(applyPatch(scenario, lesson.steps[n].task!.solution))).toMatchObject({
      result: { met: true },
    });
    const broken = await goal({ format: 'lockscope/1', clients: 'no' });
    expect(broken).toMatchObject({ result: { met: false } });
    expect((broken.result as { error?: string }).error).toBeTruthy();
  });

  it('a task graded by the search: the worker grades the run and its dodges, and leaves the search to the page', async () => {
    const r = await handleLessonRequest({ type: 'lesson', id: 5, lessonId: 'capstone' });
    if (r.type !== 'lesson') throw new Error(r.type);
    const n = r.result.lesson.steps.findIndex((s) => s.task?.search !== undefined);
    const task = r.result.lesson.steps[n].task!;
    const scenario = r.result.steps[n].scenario!;
    const goal = async (s: unknown) =>
      (await handleLessonRequest({ type: 'lessonGoal', id: 6, lessonId: 'capstone', step: n, scenario: s }))
        .result;
    // the reference fix meets the goal on its own run: the search is still to run (met: false until then)
    expect(await goal(applyPatch(scenario, task.solution))).toEqual({ met: false, search: { goal: true } });
    // half a fix: the goal does not hold, but the search runs, to show the counterexample
    const fencedOnly = applyPatch(scenario, [task.solution[0]]);
    expect(await goal(fencedOnly)).toEqual({ met: false, search: { goal: false } });
    // a dodge is answered by itself, without a search
    expect(await goal(applyPatch(scenario, task.dodges![0].example))).toMatchObject({ met: false, dodge: 0 });
    // a run that is already unsafe: nothing new to find, and the page says why
    const paused = applyPatch(scenario, [
      { op: 'add', path: '/faults', value: [{ at: 8, kind: 'pause', client: 'A', ms: 30_000 }] },
    ]);
    expect(await goal(paused)).toEqual({ met: false, verdict: 'unsafe' });
  });

  it('refuses an unknown lesson', async () => {
    await expect(handleLessonRequest({ type: 'lesson', id: 4, lessonId: 'nope' })).rejects.toThrow(
      'unknown lesson',
    );
  });
});
