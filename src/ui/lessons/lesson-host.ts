/**
 * The worker's lesson handler (loaded by worker.ts with import() on the first lesson request):
 * plays a lesson with the evaluator and hands the page the data it shows.
 */
import { evaluateLesson, probeTask, RunCache, taskOutcome } from '../../lessons/evaluate';
import { lessonCatalog } from '../../lessons/index';
import type { Lesson, ScenarioJson } from '../../lessons/types';
import type { GoalResult, LessonPayload, LessonRequest, LessonResponse, StepInfo } from './lesson-protocol';
import { shownVerdict } from '../../engine/trace/verdict';

/** One cache per lesson: a learner's re-runs of a task reuse the step's runs. */
const played = new Map<string, { payload: LessonPayload; cache: RunCache }>();

async function load(id: string): Promise<Lesson> {
  const entry = lessonCatalog.find((e) => e.id === id);
  if (entry === undefined) throw new Error(`unknown lesson "${id}"`);
  return entry.load();
}

async function play(id: string): Promise<{ payload: LessonPayload; cache: RunCache }> {
  let p = played.get(id);
  if (p === undefined) {
    const lesson = await load(id);
    const cache = new RunCache();
    // the tasks are graded when the learner edits, not when the lesson opens
    const result = evaluateLesson(lesson, cache, { tasks: false });
    const steps = result.steps.map((r): StepInfo => {
      const error = r.checks.find((c) => !c.ok && c.what.startsWith('error: '))?.what.slice(7);
      return {
        pending: r.pending,
        scenario: r.scenario,
        sameScenario: r.sameScenario,
        cursor: r.cursor,
        ask: r.ask,
        zoom: r.zoom,
        right: r.question?.right,
        error,
      };
    });
    p = { payload: { lesson, steps }, cache };
    played.set(id, p);
  }
  return p;
}

export async function handleLessonRequest(req: LessonRequest): Promise<LessonResponse> {
  switch (req.type) {
    case 'lessons': {
      const lessons = await Promise.all(lessonCatalog.map((e) => e.load()));
      return {
        type: 'lessons',
        id: req.id,
        result: lessons.map((l) => ({
          id: l.id,
          title: l.title,
          minutes: l.minutes,
          steps: l.steps.length,
          coming: l.coming === true,
          part: l.part,
          objective: l.objective,
        })),
      };
    }
    case 'lesson':
      return { type: 'lesson', id: req.id, result: (await play(req.lessonId)).payload };
    case 'lessonGoal': {
      const { payload, cache } = await play(req.lessonId);
      const task = payload.lesson.steps[req.step]?.task;
      if (task === undefined)
        return { type: 'lessonGoal', id: req.id, result: { met: false, error: 'no task' } };
      try {
        const json = req.scenario as ScenarioJson;
        let result: GoalResult;
        if (task.search === undefined) {
          const o = taskOutcome(cache, json, task);
          // a run cut short is named, as the search's tasks name a run that is not Safe
          result = o.met
            ? { met: true }
            : o.cut
              ? { met: false, verdict: 'cut' }
              : { met: false, dodge: o.dodge };
        } else {
          // the search itself runs on the page's search workers, with progress
          const p = probeTask(cache, json, task);
          result =
            p.dodge !== undefined
              ? { met: false, dodge: p.dodge }
              : p.searchable
                ? { met: false, search: { goal: p.goal } }
                : { met: false, verdict: shownVerdict(cache.run(json).trace) };
        }
        return { type: 'lessonGoal', id: req.id, result };
      } catch (e) {
        // A learner's scenario the engine refuses simply does not meet the goal yet.
        const error = e instanceof Error ? e.message : String(e);
        return { type: 'lessonGoal', id: req.id, result: { met: false, error } };
      }
    }
  }
}
