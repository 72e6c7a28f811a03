/**
 * EVAL / EVALSHA / SCRIPT: the contract between the server (server.ts) and the Lua scripting
 * layer (script_lua.ts), after Redis 7.0's eval.c and script.c. The server routes the three
 * commands here with their full argv; scripts reach back into the server only through ScriptHost.
 *
 * The script cache is per node and volatile, as in Redis 7.0: EVAL adds to it, SCRIPT LOAD adds
 * without running, SCRIPT FLUSH empties it and resets the Lua VM, and nothing here is replicated.
 */
import type { Reply } from './reply';
import { OK, array, bulk, error, int, status } from './reply';
import { NOT_INTEGER } from './errors';
import { parseLongLong } from './numbers';
import { luaScripting, type LuaScripting } from './script_lua';
import type { LogLevel } from './script_lua';
import { sha1hex } from './sha1';

export interface CommandSpec {
  /** lower-case command name */
  readonly name: string;
  /** Redis arity: n = exactly n args (command included), -n = at least n */
  readonly arity: number;
  /** Redis command flags, lower-case: write, readonly, denyoom, noscript, pubsub, fast, loading, stale, ... */
  readonly flags: ReadonlySet<string>;
}

/** server.c commandCheckArity. */
export function arityOk(cmd: CommandSpec, argc: number): boolean {
  return cmd.arity > 0 ? argc === cmd.arity : argc >= -cmd.arity;
}

export interface ScriptHost {
  /** server.c lookupCommand: argv's command, or its subcommand for a container; undefined if unknown. */
  lookupCommand(argv: readonly string[]): CommandSpec | undefined;
  /** Execute an already-validated command (arity and script rules checked by the caller) in script context. */
  execFromScript(argv: string[]): Reply;
  /** Virtual time in ms (the time frozen at script start is the scripting layer's business). */
  now(): number;
  log(level: 'debug' | 'verbose' | 'notice' | 'warning', message: string): void;
}

export interface ScriptEngineOptions {
  /**
   * Seeds math.random. 0 gives the exact sequence of a fresh redis-server (rand48's built-in
   * state); any other value starts from srand48(seed). Like Redis 7.0 the generator is NOT reset
   * between scripts: it runs on across EVALs until the node restarts.
   */
  seed: number;
  /** Lua instructions a script may run before it is stopped (default 5,000,000) */
  budget: number;
}

export const DEFAULT_SCRIPT_BUDGET = 5_000_000;

/** Receives what one script run did, for the playground's script view. */
export interface ScriptTracer {
  begin(sha: string, keys: readonly string[], args: readonly string[]): void;
  line(line: number): void;
  call(argv: readonly string[], reply: Reply): void;
  end(reply: Reply): void;
}

export const NOSCRIPT_ERROR = 'NOSCRIPT No matching script. Please use EVAL.';
const SCRIPT_UNKNOWN = error('ERR Unknown Redis command called from script');
const SCRIPT_ARITY = error('ERR Wrong number of args calling Redis command from script');
const SCRIPT_NOSCRIPT = error('ERR This Redis command is not allowed from script');

const SCRIPT_HELP = [
  'SCRIPT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:',
  'DEBUG (YES|SYNC|NO)',
  '    Set the debug mode for subsequent scripts executed.',
  'EXISTS <sha1> [<sha1> ...]',
  '    Return information about the existence of the scripts in the script cache.',
  'FLUSH [ASYNC|SYNC]',
  '    Flush the Lua scripts cache. Very dangerous on replicas.',
  '    When called without the optional mode argument, the behavior is determined by the',
  '    lazyfree-lazy-user-flush configuration directive. Valid modes are:',
  '    * ASYNC: Asynchronously flush the scripts cache.',
  '    * SYNC: Synchronously flush the scripts cache.',
  'KILL',
  '    Kill the currently executing Lua script.',
  'LOAD <script>',
  '    Load a script into the scripts cache without executing it.',
  'HELP',
  '    Prints this help.',
];

interface CachedScript {
  readonly fn: ReturnType<LuaScripting['compile']> & { ok: true };
}

/**
 * body -> sha, shared by every node: each node of each run loads the same Redisson scripts, and a
 * repeated EVAL would hash its body again. The sha depends on the body alone.
 */
const shaOfBody = new Map<string, string>();
const SHA_CACHE_MAX = 1024;

export function scriptSha(body: string): string {
  let sha = shaOfBody.get(body);
  if (sha === undefined) {
    sha = sha1hex(body);
    if (shaOfBody.size < SHA_CACHE_MAX) shaOfBody.set(body, sha);
  }
  return sha;
}

export class ScriptEngine {
  /** built on first use: a replica that never runs a script never pays for a Lua VM */
  private vm: LuaScripting | null = null;
  private lineListener: ((line: number) => void) | null = null;
  /** sha -> compiled function; EVAL and EVALSHA share it */
  private scripts = new Map<string, CachedScript>();
  private tracer: ScriptTracer | null = null;

  constructor(
    protected readonly host: ScriptHost,
    protected readonly opts: ScriptEngineOptions,
  ) {}

  private get lua(): LuaScripting {
    if (this.vm !== null) return this.vm;
    const opts = this.opts;
    this.vm = luaScripting(
      {
        call: (argv) => this.scriptCall(argv),
        log: (level: LogLevel, message) => this.host.log(level, message),
        commandExists: (name) => this.host.lookupCommand([name]) !== undefined,
      },
      { seed: opts.seed, budget: opts.budget > 0 ? opts.budget : DEFAULT_SCRIPT_BUDGET },
    );
    if (this.lineListener !== null) this.vm.setLineListener(this.lineListener);
    return this.vm;
  }

  // The server's dispatcher has checked each command's arity (and resolved SCRIPT's subcommand).

  /** EVAL script numkeys [key ...] [arg ...] */
  evalCommand(argv: string[]): Reply {
    const body = argv[1];
    return this.evalGeneric(argv, scriptSha(body), body);
  }

  /** EVALSHA sha1 numkeys [key ...] [arg ...] */
  evalshaCommand(argv: string[]): Reply {
    if (argv[1].length !== 40) return error(NOSCRIPT_ERROR);
    return this.evalGeneric(argv, argv[1].toLowerCase(), null);
  }

  /** SCRIPT LOAD script */
  scriptLoad(argv: string[]): Reply {
    const body = argv[2];
    const sha = scriptSha(body);
    if (!this.scripts.has(sha)) {
      const compiled = this.lua.compile(body);
      if (!compiled.ok) return compiled.error;
      this.scripts.set(sha, { fn: compiled });
    }
    return bulk(sha);
  }

  /** SCRIPT EXISTS sha1 [sha1 ...] */
  scriptExists(argv: string[]): Reply {
    return array(argv.slice(2).map((s) => int(this.scripts.has(s.toLowerCase()) ? 1 : 0)));
  }

  /** SCRIPT FLUSH [ASYNC|SYNC] */
  scriptFlush(argv: string[]): Reply {
    if (argv.length > 3 || (argv.length === 3 && !/^(sync|async)$/i.test(argv[2]))) {
      return error('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
    }
    this.flush();
    return OK;
  }

  /** SCRIPT KILL: a simulated script runs to completion inside one event, so none is ever "running" for another client. */
  scriptKill(): Reply {
    return error('NOTBUSY No scripts in execution right now.');
  }

  /** SCRIPT DEBUG YES|SYNC|NO */
  scriptDebug(argv: string[]): Reply {
    const mode = argv[2].toLowerCase();
    if (mode === 'no') return OK;
    if (mode === 'yes' || mode === 'sync')
      return error('ERR LockScope does not simulate the Lua debugger (SCRIPT DEBUG)');
    return error('ERR Use SCRIPT DEBUG YES/SYNC/NO');
  }

  /** SCRIPT HELP */
  scriptHelp(_argv: string[]): Reply {
    return array(SCRIPT_HELP.map((l) => status(l)));
  }

  /** Receives each script run's lines and calls; null stops tracing (and the line hook). */
  setTracer(tracer: ScriptTracer | null): void {
    this.tracer = tracer;
    this.lineListener = tracer ? (line) => tracer.line(line) : null;
    this.vm?.setLineListener(this.lineListener);
  }

  /** Whether a script with this sha is cached (for inspectors; SCRIPT EXISTS is the Redis way). */
  hasScript(sha: string): boolean {
    return this.scripts.has(sha.toLowerCase());
  }

  /**
   * The server's run is over and it runs no script any more: its Lua state may serve another
   * node (script_lua.ts luaScripting). Its scripts are forgotten, as after SCRIPT FLUSH.
   */
  release(): void {
    const vm = this.vm;
    this.vm = null;
    this.scripts.clear();
    vm?.release();
  }

  /** SCRIPT FLUSH: drop every script and start a fresh Lua VM. */
  flush(): void {
    this.scripts.clear();
    this.vm?.reset();
  }

  private evalGeneric(argv: string[], sha: string, body: string | null): Reply {
    const n = parseLongLong(argv[2]);
    if (n === null) return NOT_INTEGER;
    if (n > argv.length - 3) return error("ERR Number of keys can't be greater than number of args");
    if (n < 0) return error("ERR Number of keys can't be negative");
    const numkeys = Number(n);
    let script = this.scripts.get(sha);
    if (script === undefined) {
      if (body === null) return error(NOSCRIPT_ERROR);
      const compiled = this.lua.compile(body);
      if (!compiled.ok) return compiled.error;
      script = { fn: compiled };
      this.scripts.set(sha, script);
    }
    const tracer = this.tracer;
    // KEYS and ARGV are read from argv in place; sliced only for a tracer
    tracer?.begin(sha, argv.slice(3, 3 + numkeys), argv.slice(3 + numkeys));
    const reply = this.lua.run(script.fn.fn, sha, argv, 3, numkeys);
    tracer?.end(reply);
    return reply;
  }

  /** One redis.call from a script, with the script-context rules of script.c scriptCall. */
  private scriptCall(argv: string[]): Reply {
    const reply = this.checkedCall(argv);
    this.tracer?.call(argv, reply);
    return reply;
  }

  private checkedCall(argv: string[]): Reply {
    const cmd = this.host.lookupCommand(argv);
    if (cmd === undefined) return SCRIPT_UNKNOWN;
    if (!arityOk(cmd, argv.length)) return SCRIPT_ARITY;
    if (cmd.flags.has('noscript')) return SCRIPT_NOSCRIPT;
    return this.host.execFromScript(argv);
  }
}
