/**
 * The one module that knows where the engine's entry points live. Everything else in src/ui
 * talks to the engine through these functions (via the worker, see engine-client.ts), so moving
 * from the fixture to the real runner is a change to this file only.
 *
 * Runs in a Web Worker (worker.ts) or inline; never imported by the main bundle directly.
 */
import type { RunResult, SchemaIssue, ValidationResult } from '../engine/sim/api';
import type { NodeView } from '../engine/trace';
import type { Reply } from '../engine/redis/reply';
import { buildContentionFixture, buildManyThreadsFixture, fixtureScenario } from './fixtures/contention';

export interface BuiltinInfo {
  id: string;
  title: string;
  description: string;
  titleZh?: string;
  descriptionZh?: string;
  group?: string;
  scenario: unknown;
}

/** false while the UI runs on the hand-written fixture instead of the simulator. */
export const engineReady = false;

export function listBuiltins(): BuiltinInfo[] {
  return [
    {
      id: 'demo-gc-pause',
      title: fixtureScenario.title,
      description:
        'A stalls in a GC pause longer than its lease; B takes the lock; both believe they hold it.',
      titleZh: '演示：GC 停顿超过租约',
      descriptionZh: 'B 的 GC 停顿超过租约，A 拿到锁，两者都认为自己持有锁。',
      group: 'watchdog',
      scenario: fixtureScenario,
    },
    {
      id: 'contention-100',
      title: 'Contention: 100 threads',
      description: '100 threads queue for one lock.',
      titleZh: '100 个线程争用',
      descriptionZh: '100 个线程排队获取同一把锁。',
      group: 'basics',
      scenario: { ...fixtureScenario, title: 'Contention: 100 threads', faults: [], contention: 100 },
    },
  ];
}

export const defaultBuiltinId = 'demo-gc-pause';

export function validate(json: unknown): ValidationResult<unknown> {
  const issues: SchemaIssue[] = [];
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    issues.push({ path: '', message: 'expected an object' });
  } else {
    const o = json as Record<string, unknown>;
    if (o.format !== 'lockscope/1') issues.push({ path: 'format', message: 'expected "lockscope/1"' });
    if (!Array.isArray(o.clients)) issues.push({ path: 'clients', message: 'expected an array' });
  }
  return issues.length ? { ok: false, issues } : { ok: true, scenario: json };
}

export function run(scenario: unknown, opts: { verbose: boolean }): RunResult {
  const n = (scenario as { contention?: number }).contention;
  return typeof n === 'number' ? buildManyThreadsFixture(n) : buildContentionFixture(opts.verbose);
}

/** redis-cli's formatting of a reply (tty mode). */
export function formatReplyTty(reply: unknown): string {
  const r = reply as Reply;
  if (r && typeof r === 'object' && 't' in r) {
    switch (r.t) {
      case 'status':
        return r.v;
      case 'error':
        return `(error) ${r.v}`;
      case 'int':
        return `(integer) ${String(r.v)}`;
      case 'bulk':
        return r.v === null ? '(nil)' : JSON.stringify(r.v);
      case 'array':
        return r.v === null
          ? '(nil)'
          : r.v.length === 0
            ? '(empty array)'
            : r.v.map((x, i) => `${i + 1}) ${formatReplyTty(x)}`).join('\n');
    }
  }
  return JSON.stringify(reply);
}

export type ConsoleAnswer =
  | { kind: 'read'; text: string }
  | { kind: 'write'; argv: string[] }
  | { kind: 'error'; text: string }
  | { kind: 'unavailable' };

/** One console line against a node as it is at the cursor. */
export function consoleCommand(_node: NodeView, line: string, _now: number): ConsoleAnswer {
  if (!line.trim()) return { kind: 'read', text: '' };
  return { kind: 'unavailable' };
}
