/** Finding events with an EventSelector (types.ts), and describing selectors for humans. */
import type { TraceEvent } from './engine';
import type { EventSelector } from './types';

export class SelectorError extends Error {}

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Whether one event matches a selector's fields (nth, offset and after aside). */
export function matches(ev: TraceEvent, sel: EventSelector): boolean {
  if (ev.kind !== sel.kind) return false;
  if (sel.actor !== undefined && ev.actor !== sel.actor) return false;
  if (sel.lock !== undefined && ev.lock !== sel.lock) return false;
  if (sel.node !== undefined && ev.node !== sel.node) return false;
  const argv = Array.isArray(ev.argv) ? (ev.argv as unknown[]).map(String) : null;
  if (sel.cmd !== undefined && (argv === null || argv[0]?.toLowerCase() !== sel.cmd.toLowerCase()))
    return false;
  if (sel.key !== undefined && ev.key !== sel.key && !(argv !== null && argv.slice(1).includes(sel.key)))
    return false;
  if (sel.where !== undefined)
    for (const [k, v] of Object.entries(sel.where)) if (!same(ev[k], v)) return false;
  return true;
}

/** Indices of the events matching `sel` (its `after` honoured, nth and offset not), up to `limit`. */
export function matchAll(
  events: readonly TraceEvent[],
  sel: EventSelector,
  limit = events.length - 1,
): number[] {
  const from = sel.after === undefined ? 0 : findEvent(events, sel.after) + 1;
  const to = Math.min(
    limit,
    sel.before === undefined ? events.length - 1 : findEvent(events, sel.before) - 1,
  );
  const out: number[] = [];
  for (let i = from; i <= to && i < events.length; i++) if (matches(events[i], sel)) out.push(i);
  return out;
}

/** The index of the one event `sel` picks; throws SelectorError when there is none. */
export function findEvent(events: readonly TraceEvent[], sel: EventSelector): number {
  const all = matchAll(events, sel);
  const nth = sel.nth ?? 1;
  if (nth === 0) throw new SelectorError(`${describeSelector(sel)}: nth must not be 0`);
  const pick = nth > 0 ? all[nth - 1] : all[all.length + nth];
  if (pick === undefined)
    throw new SelectorError(
      `no event ${describeSelector(sel)} (${all.length} match${all.length === 1 ? '' : 'es'})`,
    );
  const i = pick + (sel.offset ?? 0);
  if (i < 0 || i >= events.length)
    throw new SelectorError(`${describeSelector(sel)}: offset leaves the trace`);
  return i;
}

export function describeSelector(sel: EventSelector): string {
  const parts: string[] = [sel.kind];
  if (sel.cmd !== undefined) parts.push(sel.cmd.toUpperCase());
  if (sel.actor !== undefined) parts.push(`by ${sel.actor}`);
  if (sel.lock !== undefined) parts.push(`lock ${sel.lock}`);
  if (sel.key !== undefined) parts.push(`key ${sel.key}`);
  if (sel.node !== undefined) parts.push(`on ${sel.node}`);
  if (sel.where !== undefined)
    for (const [k, v] of Object.entries(sel.where)) parts.push(`${k}=${JSON.stringify(v)}`);
  let s = parts.join(' ');
  if (sel.nth !== undefined && sel.nth !== 1) s = `#${sel.nth} ${s}`;
  if (sel.after !== undefined) s += ` after (${describeSelector(sel.after)})`;
  if (sel.before !== undefined) s += ` before (${describeSelector(sel.before)})`;
  if (sel.offset !== undefined && sel.offset !== 0) s += ` ${sel.offset > 0 ? '+' : ''}${sel.offset}`;
  return s;
}
