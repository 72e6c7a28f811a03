/**
 * The normalised shape of one run, the same for the real client (from MONITOR and the JVMs) and
 * for the model (from its trace), so the two can be compared, and the recording that stores the
 * real one. Random ids (client UUIDs, Java thread ids, unlock latch ids, naive tokens) are
 * replaced by stable names, script texts and SHA1s by the name of the model's script with that
 * exact text (else `script?<sha8>`), epoch times by `@<ms after time 0>`.
 */

export interface NormCommand {
  /** ms after time 0 at which the node ran it */
  t: number;
  node: string;
  argv: string[];
  /** the commands a script ran, in order */
  lua?: string[][];
}

export interface NormCall {
  step: number;
  op: string;
  /** the lock the op names, if any */
  lock?: string;
  /** ms after time 0: the call began / returned (null: it never returned) */
  t0: number;
  t1: number | null;
  /** what the model records as the step's result (absent when it records none) */
  result?: unknown;
  /** the exception class, qualified, when the call threw */
  error?: string;
}

export interface NormKey {
  type: string;
  value: unknown;
  /** ms after time 0 when it expires; null without a TTL */
  expireAt: number | null;
}

export interface NormRun {
  /** per scenario client, the commands its connections sent, in the order the nodes ran them */
  commands: Record<string, NormCommand[]>;
  /** per thread actor ("A:1"), its program's calls */
  calls: Record<string, NormCall[]>;
  /** per thread actor: how the program ended (absent: it never ended, e.g. its client crashed) */
  done: Record<string, string>;
  /** per node that was an up master at the end: its keys */
  keyspace: Record<string, Record<string, NormKey>>;
  /** the protected resource at the end, and the value it started from */
  resource: { value: number; accepted: number; rejected: number; initial?: number };
  /** ms after time 0 at which the run ended */
  end: number;
}

export type Level = 'exact' | 'invariants';

export interface Tolerance {
  /** times may differ by this many ms plus `relative` of the time itself */
  ms: number;
  relative: number;
}

export interface Recording {
  format: 'lockscope-oracle/1';
  /** the built-in's id, or the file it came from */
  source: string;
  /** the scenario as run (the model is run on exactly this) */
  scenario: unknown;
  release: string;
  redisServer: string;
  level: Level;
  tolerance: Tolerance;
  /** why this recording holds only the invariants level, when it does */
  why?: string;
  /**
   * Where real and model disagree at `level`, when they do: each one is explained in
   * docs/redisson-differences.md (the test checks that the list is exactly this, so a model change
   * that adds or removes a difference fails).
   */
  differences: string[];
  /** the real run was cut this many ms after time 0 (`--cut`) instead of the model's length + 10 s */
  cutMs?: number;
  /** load averages (1, 5, 15 min) when it was recorded: a busy machine stretches times */
  load: string;
  recordedAt: string;
  real: NormRun;
}
