/**
 * The trace recorder: numbers events in the order they happen and hands each one, and each key
 * change, to the state timeline and the safety monitor, so inspectors and checkers see exactly
 * what the trace says.
 */
import type { EventFields, EventKind, KeyView, TraceEvent, TraceEventOf } from '../trace/types';

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
    // The one place an event is assembled: TypeScript cannot see that a spread of the kind's
    // fields after its head makes that kind's event.
    const ev = { t: this.now(), seq: this.events.length, kind, ...fields } as unknown as TraceEventOf<K>;
    // A detail may not override the fixed fields (they keep their place first in the JSON).
    if (ev.kind !== kind || ev.seq !== this.events.length) {
      ev.t = this.now();
      ev.seq = this.events.length;
      ev.kind = kind;
    }
    this.events.push(ev);
    this.sink.push(ev);
    for (const o of this.observers) o.onEvent(ev);
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
