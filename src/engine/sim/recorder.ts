/**
 * The trace recorder: numbers events in the order they happen and hands each one, and each key
 * change, to the state timeline and the safety monitor, so inspectors and checkers see exactly
 * what the trace says.
 */
import type {
  AssembledEvent,
  EventFields,
  EventKind,
  KeyView,
  TraceEvent,
  TraceEventOf,
} from '../trace/types';

export interface EventSink {
  push(ev: TraceEvent): void;
  setKey(node: string, key: string, view: KeyView | null): void;
  clearNode(node: string): void;
}

export interface EventObserver {
  onEvent(ev: TraceEvent): void;
  onKey(node: string, key: string | null): void;
}

export class Recorder {
  readonly events: TraceEvent[] = [];
  private readonly observers: EventObserver[] = [];

  constructor(
    private readonly now: () => number,
    private readonly sink: EventSink,
  ) {}

  observe(o: EventObserver): void {
    this.observers.push(o);
  }

  emit<K extends EventKind>(kind: K, fields: EventFields<K>): TraceEventOf<K> {
    // TypeScript cannot see that a spread of the kind's fields after its head makes that kind's
    // event. A detail may not override the fixed fields (they keep their place first in the JSON).
    const ev = { t: 0, seq: 0, kind, ...fields } as unknown as AssembledEvent<K>;
    ev.kind = kind;
    return this.record<K>(ev);
  }

  /**
   * Records an event its writer built whole, head first (`{ t: 0, seq: 0, kind, ...fields }` in
   * one literal); `t` and `seq` are set here, in place, so the event keeps its field order and
   * is not copied. `emit` builds it from the fields with a spread: a copy of every field of every
   * event, which the hot writers (a command, a wait, a program step) save this way.
   */
  record<K extends EventKind>(event: AssembledEvent<K>): TraceEventOf<K> {
    const ev = event as unknown as TraceEventOf<K>;
    ev.t = this.now();
    ev.seq = this.events.length;
    this.events.push(ev);
    this.sink.push(ev);
    const observers = this.observers;
    for (let i = 0; i < observers.length; i++) observers[i].onEvent(ev);
    return ev;
  }

  private pending: { node: string; key: string }[] | null = null;

  /** `key` on `node` is now `view` (null: gone), as part of the last event. */
  setKey(node: string, key: string, view: KeyView | null): void {
    this.sink.setKey(node, key, view);
    if (this.pending !== null) this.pending.push({ node, key });
    else for (const o of this.observers) o.onKey(node, key);
  }

  /**
   * Records several key changes of one event before observers hear of any, so an event a
   * checker emits in reaction (violation.start) never splits one command's changes in two.
   */
  batch(fn: () => void): void {
    if (this.pending !== null) {
      fn();
      return;
    }
    const pending: { node: string; key: string }[] = [];
    this.pending = pending;
    try {
      fn();
    } finally {
      this.pending = null;
    }
    for (const { node, key } of pending) for (const o of this.observers) o.onKey(node, key);
  }

  clearNode(node: string): void {
    this.sink.clearNode(node);
    for (const o of this.observers) o.onKey(node, null);
  }
}
