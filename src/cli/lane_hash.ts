/**
 * The SHA-256 of a built-in's lane model (`deriveRunModel`, what the timeline draws), plain and
 * verbose: the lanes' counterpart of trace_hashes.ts. The text shows what JSON would hide
 * (`undefined` fields, NaN and the infinities) and keeps every object's field order, so a
 * refactor of the lanes that keeps every hash changed nothing the page could read.
 */
import { createHash } from 'node:crypto';
import { builtins } from '../engine/scenario/builtins/index';
import { runScenario } from '../engine/scenario/run';
import { validateScenario } from '../engine/scenario/schema';
import '../engine/topology/deployments';
import { deriveRunModel } from '../ui/timeline/model';

/** JSON with `undefined` and non-finite numbers written out rather than dropped or nulled */
export function laneModelText(model: unknown): string {
  return JSON.stringify(model, (_k, v: unknown) =>
    v === undefined ? '__undef__' : typeof v === 'number' && !Number.isFinite(v) ? `__${v}__` : v,
  );
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `{ id: hash, "id --verbose": hash }` for the built-ins `ids` names (all of them without) */
export function laneHashes(ids?: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const b of builtins) {
    if (ids && !ids.includes(b.id)) continue;
    const v = validateScenario(b.scenario);
    if (!v.ok) throw new Error(`${b.id}: ${JSON.stringify(v.issues)}`);
    for (const verbose of [false, true]) {
      const model = deriveRunModel(v.scenario, runScenario(v.scenario, { verbose }));
      out[verbose ? `${b.id} --verbose` : b.id] = sha256(laneModelText(model));
    }
  }
  return out;
}
