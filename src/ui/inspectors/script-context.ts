/**
 * Finds the script run the cursor is in (or just after): its Lua text, the line being executed,
 * and each redis.call with its reply, from the script.line / script.call events of a verbose
 * run and the EVAL command that carried the text.
 */
import { sha1hex } from '../../engine/redis/sha1';
import type { TraceEvent, TraceEventOf } from '../../engine/trace/types';

export interface ScriptCall {
  line: number | null;
  argv: string[];
  reply: unknown;
  current: boolean;
}

export interface ScriptContext {
  text: string | null;
  sha: string | null;
  node: string | null;
  actor: string | null;
  line: number | null;
  calls: ScriptCall[];
  reply: unknown;
  /** true when no script.* events were recorded (a run too long for verbose mode) */
  textOnly: boolean;
}

const LOOKBACK = 4000;

// script.begin carries the text (the first time a node runs a sha) and the sha: the block's own facts.
const isScriptEvent = (e: TraceEvent | undefined) =>
  e?.kind === 'script.begin' ||
  e?.kind === 'script.line' ||
  e?.kind === 'script.call' ||
  e?.kind === 'script.end';
const isEval = (e: TraceEvent | undefined): e is TraceEventOf<'cmd'> =>
  e?.kind === 'cmd' && /^eval(sha)?(_ro)?$/i.test(e.argv[0]);

/** sha -> Lua text for every script the trace shows being sent (EVAL or SCRIPT LOAD). */
const shaCache = new WeakMap<TraceEvent[], Map<string, string>>();

function scriptsBySha(events: TraceEvent[]): Map<string, string> {
  let m = shaCache.get(events);
  if (m) return m;
  m = new Map();
  for (const e of events) {
    if (e.kind !== 'cmd') continue;
    const argv = e.argv;
    const name = argv[0].toLowerCase();
    if ((name === 'eval' || name === 'eval_ro') && typeof argv[1] === 'string')
      m.set(sha1hex(argv[1]), argv[1]);
    else if (name === 'script' && String(argv[1]).toLowerCase() === 'load' && typeof argv[2] === 'string')
      m.set(sha1hex(argv[2]), argv[2]);
  }
  shaCache.set(events, m);
  return m;
}

function scriptTextOf(
  events: TraceEvent[],
  cmd: TraceEventOf<'cmd'> | undefined,
  block: TraceEvent[],
): { text: string | null; sha: string | null } {
  for (const e of block)
    if (typeof e.script === 'string')
      return { text: e.script, sha: typeof e.sha === 'string' ? e.sha : null };
  if (!cmd) return { text: null, sha: null };
  const argv = cmd.argv;
  if (/^eval(_ro)?$/i.test(argv[0])) return { text: argv[1], sha: null };
  const sha = String(argv[1]).toLowerCase();
  return { text: scriptsBySha(events).get(sha) ?? null, sha };
}

export function findScriptContext(events: TraceEvent[], cursor: number): ScriptContext | null {
  if (cursor < 0) return null;
  let j = cursor;
  const stop = Math.max(0, cursor - LOOKBACK);
  while (j >= stop && !isScriptEvent(events[j]) && !isEval(events[j])) j--;
  if (j < stop) return null;

  let start: number;
  let end: number;
  let cmd: TraceEventOf<'cmd'> | undefined;
  const ej = events[j];
  if (isEval(ej)) {
    cmd = ej;
    end = j - 1;
    start = end;
    while (start >= 0 && isScriptEvent(events[start])) start--;
    start++;
    // Script events of a different node/actor belong to another command.
    if (end >= start && events[end].node !== cmd.node) start = end + 1;
  } else {
    end = j;
    while (end + 1 < events.length && isScriptEvent(events[end + 1])) end++;
    start = j;
    while (start - 1 >= 0 && isScriptEvent(events[start - 1])) start--;
    let k = end + 1;
    while (k < events.length && k < end + 50 && !isEval(events[k])) k++;
    const ek = events[k];
    cmd = isEval(ek) ? ek : undefined;
  }
  const block = end >= start ? events.slice(start, end + 1) : [];
  const { text, sha } = scriptTextOf(events, cmd, block);
  let line: number | null = null;
  let lastLine: number | null = null;
  const calls: ScriptCall[] = [];
  for (let i = start; i <= end; i++) {
    const e = events[i];
    const past = i <= cursor;
    if (e.kind === 'script.line') {
      lastLine = e.line;
      if (past) line = e.line;
    } else if (e.kind === 'script.call') {
      calls.push({
        line: typeof e.line === 'number' ? e.line : lastLine,
        argv: e.argv.slice(),
        reply: past ? e.reply : undefined,
        current: i === cursor,
      });
    }
  }
  const src = cmd ?? block[0];
  return {
    text,
    sha,
    node: typeof src?.node === 'string' ? src.node : null,
    actor: typeof src?.actor === 'string' ? src.actor : null,
    line,
    calls,
    reply: cmd && events.indexOf(cmd) <= cursor ? cmd.reply : undefined,
    textOnly: block.length === 0,
  };
}
