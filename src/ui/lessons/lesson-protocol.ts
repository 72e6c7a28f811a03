/**
 * Messages between the page and the lesson half of the engine worker. The evaluator and the
 * lesson modules are loaded in the worker only (where the engine already is), so the page's own
 * bundle carries neither: it gets the lesson's data and what the evaluator made of each step.
 */
import type { Lesson, ScenarioJson } from '../../lessons/types';
import type { ShownVerdict } from '../../engine/trace/verdict';

export interface LessonSummary {
  id: string;
  title: Lesson['title'];
  minutes: number;
  steps: number;
  coming: boolean;
  part?: Lesson['part'];
  objective?: Lesson['objective'];
}

/** What the page needs of one step's evaluation (not the run: the playground runs it itself). */
export interface StepInfo {
  pending?: string;
  /** the step's scenario as written (patches applied) */
  scenario?: ScenarioJson;
  /** same scenario as the previous step: the player moves the cursor instead of re-running */
  sameScenario: boolean;
  /** the cursor's event index in the step's verbose run */
  cursor?: number;
  /** a question step: the cursor until the learner answers (just before the deciding event) */
  ask?: number;
  /** the step's `zoom`: the time window [from, to] (virtual ms) the timeline opens at */
  zoom?: [number, number];
  /** ids of the question's right choices, computed from the trace */
  right?: string[];
  /** why the step could not be played (a selector that found nothing, a bad patch) */
  error?: string;
}

export interface LessonPayload {
  lesson: Lesson;
  steps: StepInfo[];
}

export type LessonRequest =
  | { type: 'lessons'; id: number }
  | { type: 'lesson'; id: number; lessonId: string }
  | { type: 'lessonGoal'; id: number; lessonId: string; step: number; scenario: unknown };

export type LessonResponse =
  | { type: 'lessons'; id: number; result: LessonSummary[] }
  | { type: 'lesson'; id: number; result: LessonPayload }
  /** `dodge`: the index of the task's dodge the learner's run took (the goal is not met) */
  | { type: 'lessonGoal'; id: number; result: GoalResult };

/**
 * A task's grade of the learner's run. For a task graded by the search, `search` says the search
 * is still to run (the page runs it on its workers): the task is met when `search.goal` holds and
 * the search finds nothing; `verdict` is the run's own verdict when the search cannot run on it.
 */
export interface GoalResult {
  met: boolean;
  dodge?: number;
  error?: string;
  search?: { goal: boolean };
  /** the run's verdict as the page shows it (engine/trace/verdict.ts): 'cut' when it was stopped early */
  verdict?: ShownVerdict;
}

export const LESSON_REQUESTS: ReadonlySet<string> = new Set(['lessons', 'lesson', 'lessonGoal']);
