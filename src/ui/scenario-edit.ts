/**
 * Edits of the scenario made by direct manipulation (lane menus, dragged faults, console
 * writes). Each returns a new scenario object; the caller re-runs it. Scenario JSON is user data,
 * so every edit copies defensively and never assumes a field exists.
 */
type Json = Record<string, unknown>;

function clone(s: unknown): Json {
  return structuredClone((s ?? {}) as Json);
}

export interface Fault {
  at: number;
  kind: string;
  node?: string;
  client?: string;
  [k: string]: unknown;
}

export function faultsOf(scenario: unknown): Fault[] {
  const f = (scenario as Json | null)?.faults;
  return Array.isArray(f) ? (f as Fault[]) : [];
}

export function addFault(scenario: unknown, fault: Fault): Json {
  const s = clone(scenario);
  s.faults = [...faultsOf(s), fault];
  return s;
}

export function moveFault(scenario: unknown, index: number, at: number): Json {
  const s = clone(scenario);
  const faults = faultsOf(s);
  if (faults[index]) {
    const delta = Math.round(at) - faults[index].at;
    faults[index] = { ...faults[index], at: Math.max(0, Math.round(at)) };
    // A partition's heal moves with it so the dragged fault keeps its length.
    if (typeof faults[index].healAt === 'number')
      faults[index].healAt = Math.max(0, (faults[index].healAt as number) + delta);
  }
  s.faults = faults;
  return s;
}

/** A console write: a client "console" (or console-2, ...) that sends argv at time t. */
export function addRedisAction(scenario: unknown, argv: string[], t: number): Json {
  const s = clone(scenario);
  const clients = Array.isArray(s.clients) ? (s.clients as Json[]) : [];
  const ids = new Set(clients.map((c) => String(c.id)));
  let id = 'console';
  for (let i = 2; ids.has(id); i++) id = `console-${i}`;
  clients.push({
    id,
    threads: [{ id: 1, start: Math.max(0, Math.round(t)), program: [{ op: 'redis', argv }] }],
  });
  s.clients = clients;
  return s;
}

export function setPath(scenario: unknown, path: string[], value: unknown): Json {
  const s = clone(scenario);
  let o: Json = s;
  for (const k of path.slice(0, -1)) {
    if (typeof o[k] !== 'object' || o[k] === null || Array.isArray(o[k])) o[k] = {};
    o = o[k] as Json;
  }
  const last = path[path.length - 1];
  if (value === undefined || value === '') delete o[last];
  else o[last] = value;
  return s;
}

export function getPath(scenario: unknown, path: string[]): unknown {
  let o: unknown = scenario;
  for (const k of path) {
    if (typeof o !== 'object' || o === null) return undefined;
    o = (o as Json)[k];
  }
  return o;
}
