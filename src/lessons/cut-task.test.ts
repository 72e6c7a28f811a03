import { describe, expect, it } from 'vitest';
import leaseTooShort from './content/04_lease_too_short';
import capstone from './content/22_capstone';
import { probeTask, resolveScenario, RunCache, taskOutcome } from './evaluate';
import { applyPatch } from './patch';
import type { Lesson, ScenarioJson } from './types';
import type { ScenarioRun } from './engine';

/**
 * Runs as RunCache does, then marks the trace cut at the event cap. A real cut run takes
 * 2,000,000 events (a loop of ten threads, ~5 s and ~3 GB here); grading reads only the trace, and
 * a marked run is the same run up to its end, so the rule is tested without the cost.
 */
class CutRuns extends RunCache {
  override run(json: ScenarioJson): ScenarioRun {
    const r = super.run(json);
    return { ...r, truncated: true, trace: { ...r.trace, truncated: true, truncatedBy: 'events' } };
  }
}

function taskStep(lesson: Lesson) {
  let json: ScenarioJson | undefined;
  for (const step of lesson.steps) {
    if (step.scenario !== undefined) json = resolveScenario(step.scenario, json);
    if (step.task !== undefined) return { task: step.task, json: json! };
  }
  throw new Error(`${lesson.id} has no task`);
}

describe('a run cut short is graded neither way (its end is not the run’s end)', () => {
  it('lease-too-short: the solution meets the goal, but not once the run is cut; nor does a dodge answer it', () => {
    const { task, json } = taskStep(leaseTooShort);
    const solved = applyPatch(json, task.solution);
    expect(taskOutcome(new RunCache(), solved, task)).toEqual({ met: true });
    expect(taskOutcome(new CutRuns(), solved, task)).toEqual({ met: false, cut: true });
    const dodge = applyPatch(json, task.dodges![0].example);
    expect(taskOutcome(new RunCache(), dodge, task)).toMatchObject({ met: false, dodge: 0 });
    expect(taskOutcome(new CutRuns(), dodge, task)).toEqual({ met: false, cut: true });
  });

  it('a run cut after something broke is not graded either (lease-too-short with its lease too short: V1, then the cap)', () => {
    const { task, json } = taskStep(leaseTooShort);
    const broken = new CutRuns().run(json);
    expect(broken.trace.verdict).toBe('unsafe');
    expect(taskOutcome(new CutRuns(), json, task)).toEqual({ met: false, cut: true });
  });

  it('capstone: a cut run is not searched (there is nothing whole to search around)', () => {
    const { task, json } = taskStep(capstone);
    const solved = applyPatch(json, task.solution);
    expect(probeTask(new RunCache(), solved, task)).toEqual({ goal: true, searchable: true });
    expect(probeTask(new CutRuns(), solved, task)).toEqual({ goal: false, searchable: false, cut: true });
  });
});
