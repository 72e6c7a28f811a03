/**
 * Hostile links at scale: 10,000 mutated share links and scenario documents, made from the
 * built-ins, go through the page's real path: the URL decoder, the size check, the schema; a
 * sample of those the schema accepts goes on through the engine host's run (validate, run with
 * the engine's own limits, lane model), as the worker would. Nothing may throw, every refusal must
 * say why (a JSON path, or which limit), and no run may take longer than the page waits for one.
 */
import fc from 'fast-check';
import { compressToEncodedURIComponent } from 'lz-string';
import { describe, expect, it } from 'vitest';
import { builtins } from '../engine/scenario/builtins';
import { validateScenario } from '../engine/scenario/schema';
import type { SchemaIssue } from '../engine/scenario/api';
import { RUN_TIMEOUT_MS } from './engine-client';
// the worker loads Redis Cluster's and Sentinel's models before a run that has them (worker.ts)
import '../engine/topology/deployments';
import { createEngineHost } from './engine-host';
import { decodeHash, MAX_SCENARIO_BYTES } from './url-state';
import type { Response } from './worker-protocol';

const INPUTS = Number(process.env.FUZZ_INPUTS ?? 10_000);
/** every RUN_EVERY-th input the schema accepts is run */
const RUN_EVERY = 10;
/** the slowest decode + validate the page should ever see, generous for a loaded machine */
const DECODE_CEILING_MS = 2_000;

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

const docs = builtins.map((b) => ({ id: b.id, json: b.scenario as Json }));
// The one built-in made to be slow (2000 critical sections) is decoded and validated, not run.
const runnable = new Set(builtins.filter((b) => b.id !== 'contention-100').map((b) => b.id));

/** Every path to a value inside `doc` (the root included), to aim mutations at. */
function pathsOf(doc: Json): (string | number)[][] {
  const out: (string | number)[][] = [];
  const walk = (v: Json, path: (string | number)[]) => {
    out.push(path);
    if (path.length >= 40) return;
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, [...path, i]));
    else if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) walk(v[k], [...path, k]);
  };
  walk(doc, []);
  return out;
}
const docPaths = docs.map((d) => pathsOf(d.json));

function nest(depth: number, leaf: Json, asObject: boolean): Json {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asObject ? { a: v } : [v];
  return v;
}

const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  fc.constantFrom<Json>(
    null,
    true,
    false,
    0,
    -1,
    -0,
    0.5,
    1e308,
    -1e308,
    2 ** 53 + 2,
    3_600_001,
    1e21,
    '',
    [],
    {},
  ),
  fc.integer().map((n): Json => n),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n): Json => n),
  fc.string({ maxLength: 40 }).map((s): Json => s),
  fc.constantFrom<Json>('x'.repeat(5_000), 'é\u0000\uffff\ud800'.repeat(7_500)),
  fc.tuple(fc.integer({ min: 1, max: 300 }), fc.boolean()).map(([d, o]) => nest(d, 1, o)),
  fc.constantFrom<Json>(
    { op: 'nope' },
    { op: 'lock' },
    { op: 'repeat', times: 10_000, body: [{ op: 'repeat', times: 10_000, body: [{ op: 'work', ms: 1 }] }] },
    { op: 'redis', argv: ['DEBUG', 'SLEEP', '3600'] },
    { op: 'eval', script: 'while true do end', keys: [], args: [] },
    { at: 0, kind: 'partition', groups: [['master'], ['master']] },
    { kind: 'crash', at: -1, node: 'nobody' },
    { topology: 'sentinel', replicas: [] },
    Array.from({ length: 300 }, () => ({ at: 1, kind: 'crash', node: 'master' })),
    Array.from({ length: 300 }, (_, i) => ({ id: `c${i}`, threads: [{ id: 1, start: 0, program: [] }] })),
  ),
  fc.jsonValue({ maxDepth: 3 }).map((v) => v as Json),
);

type DocEdit =
  | { kind: 'set'; at: number; value: Json }
  | { kind: 'delete'; at: number }
  | { kind: 'add-key'; at: number; key: string; value: Json };

const docEdit: fc.Arbitrary<DocEdit> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: hostileValue }),
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('add-key' as const),
    at: fc.nat(),
    key: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('__proto__', 'constructor', 'op', 'kind')),
    value: hostileValue,
  }),
);

/** `doc` with one edit at one of `paths`, copying only the containers on the way. */
function applyEdit(doc: Json, paths: (string | number)[][], e: DocEdit): Json {
  const path = paths[e.at % paths.length];
  const edit = (v: Json, depth: number): Json => {
    if (depth === path.length) {
      if (e.kind === 'set') return e.value;
      if (e.kind === 'add-key' && v !== null && typeof v === 'object' && !Array.isArray(v)) {
        const copy = { ...v };
        // defineProperty: a key such as "__proto__" becomes data, as JSON.parse would make it
        Object.defineProperty(copy, e.key, {
          value: e.value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
        return copy;
      }
      return e.kind === 'delete' ? v : e.value;
    }
    const k = path[depth];
    if (Array.isArray(v) && typeof k === 'number' && k < v.length) {
      const copy = v.slice();
      if (e.kind === 'delete' && depth === path.length - 1) copy.splice(k, 1);
      else copy[k] = edit(v[k], depth + 1);
      return copy;
    }
    if (v !== null && typeof v === 'object' && !Array.isArray(v) && typeof k === 'string' && k in v) {
      const copy = { ...v };
      if (e.kind === 'delete' && depth === path.length - 1) delete copy[k];
      else copy[k] = edit(v[k], depth + 1);
      return copy;
    }
    return v; // an earlier edit removed this path
  };
  if (path.length === 0) return e.kind === 'set' ? e.value : doc;
  return edit(doc, 0);
}

type TextEdit =
  | { kind: 'flip'; at: number; ch: string }
  | { kind: 'truncate'; at: number }
  | { kind: 'insert'; at: number; text: string }
  | { kind: 'cut'; at: number; len: number };

const textEdit: fc.Arbitrary<TextEdit> = fc.oneof(
  fc.record({
    kind: fc.constant('flip' as const),
    at: fc.nat(),
    ch: fc.string({ minLength: 1, maxLength: 1 }),
  }),
  fc.record({ kind: fc.constant('truncate' as const), at: fc.nat() }),
  fc.record({
    kind: fc.constant('insert' as const),
    at: fc.nat(),
    text: fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.constantFrom('&s=', '&json=', '%', '%E0%A4%A', '&c=-5', '#'),
    ),
  }),
  fc.record({ kind: fc.constant('cut' as const), at: fc.nat(), len: fc.integer({ min: 1, max: 50 }) }),
);

function applyText(s: string, e: TextEdit): string {
  const at = s.length === 0 ? 0 : e.at % s.length;
  switch (e.kind) {
    case 'flip':
      return s.slice(0, at) + e.ch + s.slice(at + 1);
    case 'truncate':
      return s.slice(0, at);
    case 'insert':
      return s.slice(0, at) + e.text + s.slice(at);
    case 'cut':
      return s.slice(0, at) + s.slice(at + e.len);
  }
}

const link = (doc: Json, form: 's' | 'json', cursor: number) =>
  form === 's'
    ? `#s=${compressToEncodedURIComponent(JSON.stringify(doc))}&c=${cursor}`
    : `#json=${encodeURIComponent(JSON.stringify(doc))}&c=${cursor}`;

const baseLinks = new Map<string, string>();
/** An unedited built-in's link; compressing the big ones is the slow part of making inputs. */
function baseLink(i: number, form: 's' | 'json', cursor: number): string {
  const key = `${i}${form}`;
  let hash = baseLinks.get(key);
  if (hash === undefined) baseLinks.set(key, (hash = link(docs[i].json, form, 0)));
  return hash.replace(/&c=0$/, `&c=${cursor}`);
}

/** One hostile input: a built-in, edited as a document and/or as link text. */
const hostileLink = fc
  .record({
    doc: fc.nat(),
    form: fc.constantFrom('s' as const, 'json' as const),
    docEdits: fc.array(docEdit, { maxLength: 3 }),
    textEdits: fc.oneof(fc.constant([]), fc.array(textEdit, { minLength: 1, maxLength: 2 })),
    rawJsonEdit: fc.boolean(),
    cursor: fc.integer({ min: -3, max: 100_000 }),
    /** compressing an edited document is the slow part of making an input: do it one time in 10 */
    compress: fc.integer({ min: 0, max: 9 }),
  })
  .map((r) => {
    const i = r.doc % docs.length;
    let doc = docs[i].json;
    if (r.form === 'json' || r.compress === 0)
      for (const e of r.docEdits) doc = applyEdit(doc, docPaths[i], e);
    let hash: string;
    if (doc === docs[i].json && r.textEdits.length === 0) hash = baseLink(i, r.form, r.cursor);
    else if (r.rawJsonEdit && r.form === 'json') {
      // Edit the JSON text itself (a hand-written link with a typo), then encode it properly.
      let text = JSON.stringify(doc);
      for (const e of r.textEdits) text = applyText(text, e);
      hash = `#json=${encodeURIComponent(text)}&c=${r.cursor}`;
    } else {
      hash = link(doc, r.form, r.cursor);
      for (const e of r.textEdits) hash = applyText(hash, e);
    }
    return { id: docs[i].id, hash };
  });

/**
 * Nesting far past any limit, written as text (a hand-made link): JSON.parse copes with it, but
 * anything recursive afterwards (JSON.stringify, structured clone) may not.
 */
const deepLink = fc
  .record({
    depth: fc.integer({ min: 1, max: 90_000 }),
    object: fc.boolean(),
    form: fc.constantFrom('s' as const, 'json' as const),
  })
  .map(({ depth: d, object, form }) => {
    // compressing is slow; 20,000 levels are as hostile as 90,000
    const depth = form === 's' ? Math.min(d, 20_000) : d;
    const deep = object
      ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)
      : '['.repeat(depth) + ']'.repeat(depth);
    const text = `{"format":"lockscope/1","clients":${deep}}`;
    const hash = form === 's' ? `#s=${compressToEncodedURIComponent(text)}` : `#json=${text}`;
    return { id: 'deep', hash };
  });

const input = fc.oneof({ weight: 19, arbitrary: hostileLink }, { weight: 1, arbitrary: deepLink });

/** A refusal says where (a JSON path other than the bare root) or which limit. */
function explains(issue: SchemaIssue): boolean {
  if (!issue.message) return false;
  if (issue.path && issue.path !== '(root)') return true;
  return /more than|at most|nested|expected|missing|unknown/.test(issue.message);
}

const LINK_PROBLEMS = new Set([
  'error.linkTooLong',
  'error.linkCorrupt',
  'error.linkJson',
  'error.tooBig',
  'error.tooDeep',
]);

describe('hostile share links at scale', () => {
  it(`${INPUTS} mutated links: decoded, validated, a sample run; nothing throws or overruns`, () => {
    const host = createEngineHost();
    let reqId = 1;
    const counts = { none: 0, badLink: 0, tooBig: 0, refused: 0, accepted: 0, ran: 0, runRefused: 0 };
    let slowestDecode = 0;
    let slowestRun = 0;
    const time = { gen: 0, decode: 0, run: 0 };
    let tGen = performance.now();
    const check = ({ id, hash }: { id: string; hash: string }) => {
      const t0 = performance.now();
      const d = decodeHash(hash);
      if (d.kind === 'none') {
        counts.none++;
        return;
      }
      if (d.kind === 'bad') {
        counts.badLink++;
        expect(LINK_PROBLEMS.has(d.problem.key), d.problem.key).toBe(true);
        return;
      }
      // loadScenario's own size check, then the schema
      if (JSON.stringify(d.scenario ?? null).length > MAX_SCENARIO_BYTES) {
        counts.tooBig++;
        return;
      }
      const v = validateScenario(d.scenario);
      const decodeMs = performance.now() - t0;
      time.decode += decodeMs;
      slowestDecode = Math.max(slowestDecode, decodeMs);
      expect(decodeMs).toBeLessThan(DECODE_CEILING_MS);
      if (!v.ok) {
        counts.refused++;
        expect(v.issues.length).toBeGreaterThan(0);
        for (const issue of v.issues) expect(explains(issue), JSON.stringify(issue)).toBe(true);
        return;
      }
      counts.accepted++;
      if (counts.accepted % RUN_EVERY !== 0 || !runnable.has(id)) return;
      const t1 = performance.now();
      const res: Response = host({ type: 'run', id: reqId++, scenario: d.scenario });
      const runMs = performance.now() - t1;
      time.run += runMs;
      slowestRun = Math.max(slowestRun, runMs);
      expect(runMs).toBeLessThan(RUN_TIMEOUT_MS);
      expect(res.type, res.type === 'error' ? res.message : '').toBe('run');
      if (res.type !== 'run') return;
      if (res.result.ok) {
        counts.ran++;
        expect(res.result.trace.events.length).toBeGreaterThan(0);
      } else {
        counts.runRefused++;
        for (const issue of res.result.issues) expect(explains(issue), JSON.stringify(issue)).toBe(true);
      }
    };
    fc.assert(
      fc.property(input, (x) => {
        time.gen += performance.now() - tGen;
        try {
          check(x);
        } finally {
          tGen = performance.now();
        }
      }),
      { numRuns: INPUTS, seed: 20261123, endOnFailure: true },
    );
    console.info('hostile links', counts, time, {
      slowestDecodeMs: Math.round(slowestDecode),
      slowestRunMs: Math.round(slowestRun),
    });
    expect(counts.ran).toBeGreaterThan(INPUTS / 100);
  }, 300_000);
});
