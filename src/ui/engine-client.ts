/**
 * The page's handle on the engine: a promise-based RPC to the worker. A run that exceeds the time
 * limit (a hostile scenario) gets its worker terminated and replaced, so the page stays usable.
 * Tests construct it with an in-process host instead.
 */
import type { TraitText } from '../engine/redisson/versions';
import type { VisibleState } from '../engine/trace/types';
import type { BuiltinInfo, ConsoleAnswer } from './engine-adapter';
import {
  LESSON_REQUESTS,
  type GoalResult,
  type LessonPayload,
  type LessonRequest,
  type LessonSummary,
} from './lessons/lesson-protocol';
import {
  fromWire,
  type IncidentsRequest,
  type InitResult,
  type Request,
  type Response,
  type CursorAt,
  type RunOutcome,
  type WireRun,
} from './worker-protocol';

export const RUN_TIMEOUT_MS = 20_000;

type Pending = { resolve: (r: Response) => void; timer?: ReturnType<typeof setTimeout> };

export class RunTimeoutError extends Error {
  constructor() {
    super('timeout');
  }
}

type ResultOf = {
  [R in Response as R extends { result: unknown } ? R['type'] : never]: R extends { result: infer X }
    ? X
    : never;
};

type DistributiveOmit<T, K extends keyof never> = T extends unknown ? Omit<T, K> : never;

export class EngineClient {
  private worker: Worker | null = null;

  /** Tests pass createEngineHost() to run the engine in-process instead of in a worker. */
  constructor(private readonly inline: ((req: Request) => Response) | null = null) {}

  private pending = new Map<number, Pending>();
  private nextId = 1;

  private ensureWorker(): Worker | null {
    if (this.worker || typeof Worker === 'undefined') return this.worker;
    try {
      const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });
      w.onmessage = (ev: MessageEvent<Response | WireRun>) => this.settle(fromWire(ev.data));
      w.onerror = (ev) => {
        ev.preventDefault();
        this.failAll(ev.message || 'the engine worker failed');
      };
      this.worker = w;
    } catch {
      this.worker = null;
    }
    return this.worker;
  }

  private settle(res: Response) {
    const p = this.pending.get(res.id);
    if (!p) return;
    this.pending.delete(res.id);
    if (p.timer) clearTimeout(p.timer);
    p.resolve(res);
  }

  private failAll(message: string) {
    for (const [id, p] of this.pending) {
      if (p.timer) clearTimeout(p.timer);
      p.resolve({ type: 'error', id, message });
    }
    this.pending.clear();
    this.worker?.terminate();
    this.worker = null;
  }

  private async call(
    req: DistributiveOmit<Request | LessonRequest | IncidentsRequest, 'id'>,
    timeoutMs?: number,
  ): Promise<Response> {
    const id = this.nextId++;
    const full = { ...req, id } as Request;
    if (this.inline && LESSON_REQUESTS.has(full.type))
      return { type: 'error', id, message: 'lessons need the worker' };
    if (this.inline) return this.inline(full);
    const w = this.ensureWorker();
    if (!w) return { type: 'error', id, message: 'this browser cannot start the simulation worker' };
    return new Promise<Response>((resolve) => {
      const p: Pending = { resolve };
      if (timeoutMs) {
        p.timer = setTimeout(() => {
          // A runaway run blocks the worker: replace it (runs held there are lost with it).
          this.failAll('timeout');
        }, timeoutMs);
      }
      this.pending.set(id, p);
      w.postMessage(full);
    });
  }

  private static unwrap<T extends keyof ResultOf>(res: Response, type: T): ResultOf[T] {
    if (res.type === 'error') {
      if (res.message === 'timeout') throw new RunTimeoutError();
      throw new Error(res.message);
    }
    if (res.type !== type) throw new Error(`unexpected ${res.type} reply`);
    return (res as { result: unknown }).result as ResultOf[T];
  }

  private initP: Promise<InitResult> | null = null;

  /**
   * The worker's list of built-ins. The first call starts the worker: start-engine.ts makes it
   * before the page's other modules evaluate, so the engine bundle loads and compiles while the
   * page's does and React renders.
   */
  init(): Promise<InitResult> {
    this.initP ??= this.call({ type: 'init' }).then((res) => EngineClient.unwrap(res, 'init'));
    // A failed start is not remembered: the next call tries again.
    this.initP.catch(() => (this.initP = null));
    return this.initP;
  }

  private incidentsP: Promise<BuiltinInfo[]> | null = null;

  /**
   * The real incidents' built-ins: the worker loads them on this first request, so the first
   * screen (its list of built-ins and first run) does not wait for their stories.
   */
  incidents(): Promise<BuiltinInfo[]> {
    // (an in-process host would pull the engine into the page's bundle: the incidents need the worker)
    this.incidentsP ??= this.inline
      ? Promise.reject(new Error('the incidents load in the engine worker'))
      : this.call({ type: 'incidents' }).then((res) => EngineClient.unwrap(res, 'incidents'));
    this.incidentsP.catch(() => (this.incidentsP = null));
    return this.incidentsP;
  }

  /**
   * Validates `scenario` and, if it passes, runs it: one trip to the worker, one validation.
   * `at`: where the page will put the cursor (the answer brings the state there).
   */
  async run(scenario: unknown, opts: { verbose?: boolean; at?: CursorAt } = {}): Promise<RunOutcome> {
    const { verbose, at } = opts;
    return EngineClient.unwrap(
      await this.call({ type: 'run', scenario, verbose, at }, RUN_TIMEOUT_MS),
      'run',
    );
  }

  async stateAt(runId: number, index: number): Promise<VisibleState> {
    return EngineClient.unwrap(await this.call({ type: 'stateAt', runId, index }), 'stateAt');
  }

  /** What a Redisson release does, row by row, in both languages (the version picker's table). */
  async traits(version: string): Promise<TraitText[]> {
    return EngineClient.unwrap(await this.call({ type: 'traits', version }), 'traits');
  }

  /** Lesson requests (the player's): answered by the worker's lazily loaded lesson host. */
  async lessons(): Promise<LessonSummary[]> {
    return EngineClient.unwrap(await this.call({ type: 'lessons' }), 'lessons');
  }

  async lesson(lessonId: string): Promise<LessonPayload> {
    return EngineClient.unwrap(await this.call({ type: 'lesson', lessonId }, RUN_TIMEOUT_MS), 'lesson');
  }

  async lessonGoal(lessonId: string, step: number, scenario: unknown): Promise<GoalResult> {
    return EngineClient.unwrap(
      await this.call({ type: 'lessonGoal', lessonId, step, scenario }, RUN_TIMEOUT_MS),
      'lessonGoal',
    );
  }

  async console(runId: number, index: number, node: string, line: string): Promise<ConsoleAnswer> {
    return EngineClient.unwrap(await this.call({ type: 'console', runId, index, node, line }), 'console');
  }
}

export const engineClient = new EngineClient();
