/**
 * Edits of a scenario made by direct manipulation (lane menus, dragged fault markers, console
 * writes, form fields). Each returns a new document and leaves its argument alone; the caller
 * validates and re-runs the result, so an edit only has to keep the document's shape.
 *
 * Edits apply to the document as the user wrote it (`ScenarioDoc`: validated, but without the
 * defaults validation fills in), so an edit never writes defaults into the user's text. Facts
 * about the topology come from the validated `Scenario`.
 */
// Types only: the page's first bundle imports this module, and the validator must stay in the
// worker's bundle.
import type { ClientSpec, Fault, Scenario } from './schema';

/** A scenario document that passed validation, as written: the fields edits touch, by name. */
export interface ScenarioDoc {
  redis?: Partial<Scenario['redis']>;
  clients?: ClientSpec[];
  faults?: Fault[];
  [field: string]: unknown;
}

/** How long a partition made from a lane menu lasts. */
export const ISOLATE_MS = 10_000;

export function faultsOf(doc: ScenarioDoc | null): readonly Fault[] {
  return Array.isArray(doc?.faults) ? doc.faults : [];
}

export function addFault(doc: ScenarioDoc, fault: Fault): ScenarioDoc {
  return { ...structuredClone(doc), faults: [...structuredClone(faultsOf(doc)), fault] };
}

/** Moves fault `index` to `at` (ms, rounded, not before 0); a partition's heal and a latency spike's end move with it. */
export function moveFault(doc: ScenarioDoc, index: number, at: number): ScenarioDoc {
  const faults = structuredClone(faultsOf(doc)) as Fault[];
  const f = faults[index];
  if (f) {
    const to = Math.max(0, Math.round(at));
    const delta = to - f.at;
    faults[index] =
      f.kind === 'partition' && f.healAt !== undefined
        ? { ...f, at: to, healAt: Math.max(0, f.healAt + delta) }
        : f.kind === 'latency'
          ? { ...f, at: to, endAt: f.endAt + delta }
          : { ...f, at: to };
  }
  return { ...structuredClone(doc), faults };
}

/**
 * A partition that cuts `endpoint` (a node or client id) off from every other node and client,
 * and from the Sentinels, for `ISOLATE_MS`. `nodes` is `nodeIds(scenario.redis)`, computed where
 * the validator lives (see the import above).
 */
export function isolate(
  scenario: Pick<Scenario, 'redis' | 'clients'>,
  nodes: readonly string[],
  endpoint: string,
  at: number,
): Fault {
  // "sentinels" names every sentinel-N (net/network.ts); an id named on its own wins over it.
  const sentinels = scenario.redis.topology === 'sentinel';
  const others = [...nodes, ...scenario.clients.map((c) => c.id)].filter(
    (id) => id !== endpoint && !(sentinels && id.startsWith('sentinel-')),
  );
  if (sentinels) others.push('sentinels');
  return { at, kind: 'partition', groups: [[endpoint], others], healAt: at + ISOLATE_MS };
}

/** How much slower, and for how long, a lane menu's latency spike makes an endpoint's links. */
export const SLOW_MS = 500;
export const SLOW_FOR_MS = 5_000;

/** A latency spike on the links of `endpoint` (a node or client id): +SLOW_MS for SLOW_FOR_MS. */
export function slowDown(endpoint: string, at: number): Fault {
  return { at, kind: 'latency', ms: SLOW_MS, endAt: at + SLOW_FOR_MS, endpoints: [endpoint] };
}

/** A console write: a new client "console" (or console-2, ...) whose one thread sends argv at t. */
export function addRedisAction(doc: ScenarioDoc, argv: string[], t: number): ScenarioDoc {
  const clients = structuredClone(Array.isArray(doc.clients) ? doc.clients : []);
  const ids = new Set(clients.map((c) => c.id));
  let id = 'console';
  for (let i = 2; ids.has(id); i++) id = `console-${i}`;
  clients.push({
    id,
    threads: [{ id: 1, start: Math.max(0, Math.round(t)), program: [{ op: 'redis', argv }] }],
  });
  return { ...structuredClone(doc), clients };
}

/**
 * Sets the field at `path` (objects created on the way); `undefined` or '' removes it, so a
 * cleared form field falls back to the default.
 */
export function setPath(doc: ScenarioDoc, path: readonly string[], value: unknown): ScenarioDoc {
  const s = structuredClone(doc);
  let o: Record<string, unknown> = s;
  for (const k of path.slice(0, -1)) {
    if (typeof o[k] !== 'object' || o[k] === null || Array.isArray(o[k])) o[k] = {};
    o = o[k] as Record<string, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined || value === '') delete o[last];
  else o[last] = value;
  return s;
}

export function getPath(doc: unknown, path: readonly string[]): unknown {
  let o: unknown = doc;
  for (const k of path) {
    if (typeof o !== 'object' || o === null) return undefined;
    o = (o as Record<string, unknown>)[k];
  }
  return o;
}
