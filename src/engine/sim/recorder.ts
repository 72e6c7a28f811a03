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

  /** the key changes of the open batch, in order: kept arrays and a count (one batch per command) */
  private batchNodes: string[] = [];
  private batchKeys: string[] = [];
  private batched = 0;
  private batching = false;
  /** observers are hearing of a batch's changes (one that opens meanwhile gets arrays of its own) */
  private delivering = false;

  /** `key` on `node` is now `view` (null: gone), as part of the last event. */
  setKey(node: string, key: string, view: KeyView | null): void {
    this.sink.setKey(node, key, view);
    if (this.batching) {
      this.batchNodes[this.batched] = node;
      this.batchKeys[this.batched] = key;
      this.batched++;
    } else for (const o of this.observers) o.onKey(node, key);
  }

  /**
   * Records several key changes of one event before observers hear of any, so an event a
   * checker emits in reaction (violation.start) never splits one command's changes in two.
   */
  batch(fn: () => void): void {
    const opened = this.openBatch();
    try {
      fn();
    } catch (e) {
      this.closeBatch(opened, false);
      throw e;
    }
    this.closeBatch(opened, true);
  }

  /**
   * `batch` without a function to call: true when this opened the batch (false inside one
   * already open), which closeBatch is then given. For the kernel's every command that changed
   * data (a closure per command otherwise).
   */
  openBatch(): boolean {
    if (this.batching) return false;
    if (this.delivering) {
      // the arrays being read by the delivery in progress stay as they are
      this.batchNodes = [];
      this.batchKeys = [];
    }
    this.batching = true;
    return true;
  }

  /** Ends the batch `openBatch` opened (`opened`); observers hear of its changes unless `tell` is false. */
  closeBatch(opened: boolean, tell = true): void {
    if (!opened) return;
    this.batching = false;
    const n = this.batched;
    this.batched = 0;
    if (n === 0 || !tell) return;
    const nodes = this.batchNodes;
    const keys = this.batchKeys;
    const was = this.delivering;
    this.delivering = true;
    try {
      for (let i = 0; i < n; i++) for (const o of this.observers) o.onKey(nodes[i], keys[i]);
    } finally {
      this.delivering = was;
    }
  }

  clearNode(node: string): void {
    this.sink.clearNode(node);
    for (const o of this.observers) o.onKey(node, null);
  }
}
