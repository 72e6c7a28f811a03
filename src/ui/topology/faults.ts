/**
 * The topology's node menu edits the scenario the way the timeline's lane menu does: the engine's
 * scenario edits (addFault, isolate) at the cursor's time, then a re-run that keeps the time.
 */
import { addFault, ISOLATE_MS, isolate } from '../../engine/scenario/edit';
import type { Fault } from '../../engine/scenario/schema';
import { loadScenario } from '../controller';
import { clockAt, usePlayground } from '../store';

export const PAUSE_MS = 5000;

export function faultHere(make: (at: number) => Fault): void {
  const s = usePlayground.getState();
  void loadScenario(addFault(s.scenario ?? {}, make(clockAt(s))), { keepTime: true });
}

/** Cuts a node or client off from everyone else for ISOLATE_MS from the cursor. */
export function cutOffHere(endpoint: string): void {
  const run = usePlayground.getState().run;
  if (run) faultHere((at) => isolate(run.scenario, run.nodeIds, endpoint, at));
}

export const CUT_S = ISOLATE_MS / 1000;
