/**
 * docs/trace-format.md is the contract readers of a trace code against, so it must not drift from
 * what the engine emits: one `### \`kind\`` section per member of EventKind, and per kind a field
 * table that covers every field the built-in scenarios produce (run verbose, as JSON).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { builtins } from './scenario/builtins/index';
import { runScenario } from './scenario/run';
import { validateScenario } from './scenario/schema';
import { EVENT_KINDS, type TraceEvent } from './trace/types';

type Presence = 'always' | 'optional' | 'rare';
type DocumentedKinds = Map<string, Map<string, Presence>>;

const FIXED = ['t', 'seq', 'kind'];

/** Kinds from `### \`kind\`` headings; fields from the table rows under each until the next heading. */
function parseTraceDoc(markdown: string): DocumentedKinds {
  const kinds: DocumentedKinds = new Map();
  let current: Map<string, Presence> | null = null;
  for (const line of markdown.split('\n')) {
    const heading = /^#{1,6}\s/.test(line);
    const kind = /^###\s+`([^`]+)`\s*$/.exec(line);
    if (kind) {
      if (kinds.has(kind[1])) throw new Error(`kind ${kind[1]} documented twice`);
      current = new Map();
      kinds.set(kind[1], current);
      continue;
    }
    if (heading) {
      current = null;
      continue;
    }
    const row = /^\|\s*`([^`]+)`\s*\|\s*([a-z]+)\s*\|/.exec(line);
    if (current && row) {
      const presence = row[2];
      if (presence !== 'always' && presence !== 'optional' && presence !== 'rare')
        throw new Error(`field ${row[1]}: presence "${presence}" is not always, optional or rare`);
      if (current.has(row[1])) throw new Error(`field ${row[1]} listed twice`);
      current.set(row[1], presence);
    }
  }
  return kinds;
}

function builtinEvents(): TraceEvent[] {
  const events: TraceEvent[] = [];
  for (const b of builtins) {
    const v = validateScenario(b.scenario);
    if (!v.ok) throw new Error(`${b.id}: ${JSON.stringify(v.issues)}`);
    // as a trace file has them: a field set to undefined is absent
    const trace = JSON.parse(JSON.stringify(runScenario(v.scenario, { verbose: true }).trace));
    // not push(...): a verbose built-in has more events than a call's arguments may number
    for (const e of trace.events as TraceEvent[]) events.push(e);
  }
  return events;
}

const doc = parseTraceDoc(readFileSync(new URL('../../docs/trace-format.md', import.meta.url), 'utf8'));

describe('parseTraceDoc', () => {
  it('reads kinds, fields and presence, and ignores tables outside a kind section', () => {
    const md = [
      '| field | meaning |',
      '| `format` | x |',
      '### `a.b`',
      '| field | presence | meaning |',
      '| --- | --- | --- |',
      '| `actor` | always | the thread |',
      '| `step` | optional | the step |',
      '## Other',
      '| `stray` | always | not a field of a.b |',
      '### `c`',
    ].join('\n');
    const kinds = parseTraceDoc(md);
    expect([...kinds.keys()]).toEqual(['a.b', 'c']);
    expect([...kinds.get('a.b')!]).toEqual([
      ['actor', 'always'],
      ['step', 'optional'],
    ]);
    expect(kinds.get('c')!.size).toBe(0);
    expect(() => parseTraceDoc('### `x`\n| `f` | sometimes | ? |')).toThrow(/presence/);
  });
});

describe('docs/trace-format.md', () => {
  it('documents exactly the members of EventKind', () => {
    expect(new Set(EVENT_KINDS).size).toBe(EVENT_KINDS.length);
    expect([...doc.keys()].sort()).toEqual([...EVENT_KINDS].sort());
  });

  it('matches the fields the built-in scenarios emit', () => {
    const problems: string[] = [];
    const seen = new Map<string, { events: number; fields: Map<string, number> }>();
    for (const e of builtinEvents()) {
      for (const f of FIXED) if (!(f in e)) problems.push(`${e.kind} event without ${f}`);
      const s = seen.get(e.kind) ?? { events: 0, fields: new Map<string, number>() };
      seen.set(e.kind, s);
      s.events++;
      for (const f of Object.keys(e)) if (!FIXED.includes(f)) s.fields.set(f, (s.fields.get(f) ?? 0) + 1);
    }
    for (const [kind, s] of seen) {
      const documented = doc.get(kind);
      if (!documented) {
        problems.push(`${kind}: emitted but not documented`);
        continue;
      }
      for (const f of s.fields.keys())
        if (!documented.has(f)) problems.push(`${kind}.${f}: emitted but not documented`);
    }
    for (const [kind, fields] of doc) {
      const s = seen.get(kind);
      for (const [f, presence] of fields) {
        const count = s?.fields.get(f) ?? 0;
        if (presence === 'always' && count !== (s?.events ?? -1))
          problems.push(`${kind}.${f}: "always" but on ${count} of ${s?.events ?? 0} events`);
        if (presence === 'optional' && count === 0)
          problems.push(`${kind}.${f}: "optional" but no built-in emits it (mark it "rare")`);
        if (presence === 'rare' && count > 0)
          problems.push(`${kind}.${f}: "rare" but built-ins emit it ${count} times (mark it "optional")`);
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
