/**
 * Answers worker-protocol requests with the engine adapter. Shared by the worker and by the inline
 * fallback (tests, browsers without module workers), so both behave the same.
 */
import type { RunResult } from '../engine/scenario/api';
import { unsupportedIssue } from '../engine/scenario/run_scenario';
import { nodeIds } from '../engine/topology/nodes';
import { clampIndex, indexAtTime } from './cursor-index';
import * as engine from './engine-adapter';
import { findScriptContext } from './inspectors/script-context';
import { outlineOf } from './run-outline';
import { deriveRunModel } from './timeline/model';
import type { Request, Response } from './worker-protocol';

type RunRequest = Extract<Request, { type: 'run' }>;

/**
 * What a run request's answer is made of: the scenario validated, run, its lanes, the state at the
 * requested moment and the outline (the worker's warm-up, worker-warmup.ts, makes the same and drops it).
 */
export function makeRun(req: Pick<RunRequest, 'scenario' | 'verbose' | 'at'>) {
  const v = engine.validate(req.scenario);
  if (!v.ok) return { ok: false as const, issues: v.issues };
  const unsupported = unsupportedIssue(v.scenario);
  if (unsupported) return { ok: false as const, issues: [unsupported] };
  const started = performance.now();
  const verbose = req.verbose ?? engine.verboseByDefault(v.scenario);
  const result = engine.run(v.scenario, { verbose });
  const ran = performance.now();
  const model = deriveRunModel(v.scenario, result);
  const at = req.at;
  const count = result.trace.events.length;
  const index =
    at === undefined ? -1 : 'index' in at ? clampIndex(count, at.index) : indexAtTime(result.trace, at.clock);
  const first = { index, state: result.stateAt(index) };
  const outline = outlineOf(result.trace, verbose);
  if (index >= 0) {
    const { events } = result.trace;
    outline.opening = { index, event: events[index], script: findScriptContext(events, index) };
  }
  return { ok: true as const, scenario: v.scenario, result, model, outline, verbose, first, started, ran };
}

/** Keep a few runs so stateAt answers for a run the page still shows while a newer one starts. */
const KEEP_RUNS = 3;

export function createEngineHost(): (req: Request) => Response {
  const runs = new Map<number, RunResult>();
  let nextRunId = 1;

  const getRun = (runId: number): RunResult => {
    const r = runs.get(runId);
    if (!r) throw new Error(`run ${runId} is gone`);
    return r;
  };

  return (req: Request): Response => {
    try {
      switch (req.type) {
        case 'init':
          return {
            type: 'init',
            id: req.id,
            result: {
              builtins: engine.listBuiltins(),
              defaultId: engine.defaultBuiltinId,
              engineReady: engine.engineReady,
              exploreKinds: [...engine.EXPLORE_FAULT_KINDS],
              releases: [...engine.BEHAVIOUR_CHANGES],
            },
          };
        case 'run': {
          const received = performance.now();
          const made = makeRun(req);
          if (!made.ok) return { type: 'run', id: req.id, result: made };
          const { result, scenario, started, ran, ...answer } = made;
          const done = performance.now();
          const runId = nextRunId++;
          runs.set(runId, result);
          for (const id of runs.keys()) if (runs.size > KEEP_RUNS && id !== runId) runs.delete(id);
          return {
            type: 'run',
            id: req.id,
            result: {
              ...answer,
              runId,
              scenario,
              nodeIds: nodeIds(scenario.redis),
              trace: result.trace,
              timing: {
                received: performance.timeOrigin + received,
                validate: started - received,
                run: ran - started,
                lanes: done - ran,
                posted: performance.timeOrigin + done,
              },
            },
          };
        }
        case 'traits':
          return { type: 'traits', id: req.id, result: engine.traitsFor(req.version) };
        case 'stateAt':
          return { type: 'stateAt', id: req.id, result: getRun(req.runId).stateAt(req.index) };
        case 'console': {
          const r = getRun(req.runId);
          const state = r.stateAt(req.index);
          const node = state.nodes[req.node];
          if (!node)
            return {
              type: 'console',
              id: req.id,
              result: { kind: 'error', text: `unknown node ${req.node}` },
            };
          return { type: 'console', id: req.id, result: engine.consoleCommand(node, req.line, state.t) };
        }
      }
    } catch (e) {
      return { type: 'error', id: req.id, message: e instanceof Error ? e.message : String(e) };
    }
  };
}
