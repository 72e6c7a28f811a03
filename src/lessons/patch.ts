/** The JSON Patch subset of types.ts (add, replace, remove) on a copy of a scenario. */
import type { PatchOp, ScenarioJson } from './types';

export class PatchError extends Error {}

function parsePointer(path: string): string[] {
  if (!path.startsWith('/')) throw new PatchError(`path "${path}" must start with "/"`);
  return path
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

type Container = Record<string, unknown> | unknown[];

function isContainer(x: unknown): x is Container {
  return typeof x === 'object' && x !== null;
}

function index(arr: unknown[], token: string, path: string, allowEnd: boolean): number {
  if (allowEnd && token === '-') return arr.length;
  if (!/^(0|[1-9]\d*)$/.test(token)) throw new PatchError(`${path}: "${token}" is not an array index`);
  const i = Number(token);
  if (i > arr.length || (!allowEnd && i === arr.length))
    throw new PatchError(`${path}: index ${i} is past the end (length ${arr.length})`);
  return i;
}

/** Returns a patched deep copy; the input is left alone (lesson data is shared between steps). */
export function applyPatch(doc: ScenarioJson, ops: readonly PatchOp[]): ScenarioJson {
  const out = structuredClone(doc);
  for (const op of ops) {
    const tokens = parsePointer(op.path);
    const last = tokens.pop();
    if (last === undefined) throw new PatchError('cannot patch the whole scenario');
    let parent: unknown = out;
    for (const t of tokens) {
      if (!isContainer(parent)) throw new PatchError(`${op.path}: no such path`);
      parent = Array.isArray(parent) ? parent[index(parent, t, op.path, false)] : parent[t];
    }
    if (!isContainer(parent)) throw new PatchError(`${op.path}: no such path`);
    if (Array.isArray(parent)) {
      const i = index(parent, last, op.path, op.op === 'add');
      if (op.op === 'add') parent.splice(i, 0, structuredClone(op.value));
      else if (op.op === 'replace') parent[i] = structuredClone(op.value);
      else parent.splice(i, 1);
    } else {
      const exists = Object.prototype.hasOwnProperty.call(parent, last);
      if (op.op !== 'add' && !exists) throw new PatchError(`${op.path}: no such field to ${op.op}`);
      if (op.op === 'remove') delete parent[last];
      else parent[last] = structuredClone(op.value);
    }
  }
  return out;
}

/** The value at a JSON Pointer in `doc`, undefined when any step of the path is missing. */
export function readPointer(doc: unknown, path: string): unknown {
  let at: unknown = doc;
  for (const t of parsePointer(path)) {
    if (!isContainer(at)) return undefined;
    at = Array.isArray(at) ? (/^(0|[1-9]\d*)$/.test(t) ? at[Number(t)] : undefined) : at[t];
  }
  return at;
}
