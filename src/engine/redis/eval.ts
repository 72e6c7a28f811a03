/**
 * EVAL / EVALSHA / SCRIPT: the contract between the server (server.ts) and the Lua scripting
 * layer (script_lua.ts). The server routes the three commands here; scripts reach back into the
 * server only through ScriptHost.
 *
 * STUB: the scripting helper replaces the bodies; the exported names and signatures are the
 * contract server.ts builds against.
 */
import type { Reply } from './reply';
import { error } from './reply';

export interface CommandSpec {
  /** lower-case command name */
  readonly name: string;
  /** Redis arity: n = exactly n args (command included), -n = at least n */
  readonly arity: number;
  /** Redis command flags, lower-case: write, readonly, denyoom, noscript, pubsub, fast, loading, stale, ... */
  readonly flags: ReadonlySet<string>;
}

export interface ScriptHost {
  lookupCommand(name: string): CommandSpec | undefined;
  /** Execute an already-validated command (arity and script rules checked by the caller) in script context. */
  execFromScript(argv: string[]): Reply;
  /** Virtual time in ms (the time frozen at script start is the scripting layer's business). */
  now(): number;
  log(level: 'debug' | 'verbose' | 'notice' | 'warning', message: string): void;
}

export interface ScriptEngineOptions {
  /** seeds math.random, so every run of a scenario draws the same numbers */
  seed: number;
  /** Lua instructions a script may run before it is stopped */
  budget: number;
}

/** Receives what one script run did, for the playground's script view. */
export interface ScriptTracer {
  begin(sha: string, keys: readonly string[], args: readonly string[]): void;
  line(line: number): void;
  call(argv: readonly string[], reply: Reply): void;
  end(reply: Reply): void;
}

export class ScriptEngine {
  constructor(
    protected readonly host: ScriptHost,
    protected readonly opts: ScriptEngineOptions,
  ) {}

  evalCommand(_argv: string[]): Reply {
    return error('ERR scripting not implemented yet');
  }

  evalshaCommand(_argv: string[]): Reply {
    return error('ERR scripting not implemented yet');
  }

  scriptCommand(_argv: string[]): Reply {
    return error('ERR scripting not implemented yet');
  }

  setTracer(_tracer: ScriptTracer | null): void {}
}
