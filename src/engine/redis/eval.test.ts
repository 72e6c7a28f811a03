/**
 * EVAL / EVALSHA / SCRIPT against a small Map-backed ScriptHost, so the scripting layer is tested
 * on its own. Expected texts were taken from a real redis-server 7.0.15 on loopback.
 */
import { describe, expect, it } from 'vitest';
import type { CommandSpec, ScriptHost, ScriptTracer } from './eval';
import { ScriptEngine } from './eval';
import type { Reply } from './reply';
import { RedisServer } from './server';
import { sha1hex } from './sha1';
import { ManualClock } from '../clock';

const SPECS: Record<string, [number, string]> = {
  get: [2, 'readonly fast'],
  set: [-3, 'write denyoom'],
  incrby: [3, 'write denyoom fast'],
  hincrby: [4, 'write denyoom fast'],
  hexists: [3, 'readonly fast'],
  exists: [-2, 'readonly fast'],
  pexpire: [-3, 'write fast'],
  pttl: [2, 'readonly fast'],
  del: [-2, 'write'],
  publish: [3, 'pubsub fast'],
  subscribe: [-2, 'pubsub noscript'],
  echo: [2, 'fast'],
  mget: [-2, 'readonly fast'],
  multi: [1, 'noscript fast'],
  lpop: [-2, 'write fast'],
};

export class FakeHost implements ScriptHost {
  readonly strings = new Map<string, string>();
  readonly hashes = new Map<string, Map<string, string>>();
  readonly ttl = new Map<string, number>();
  readonly logs: [string, string][] = [];
  readonly published: [string, string][] = [];
  readonly calls: string[][] = [];

  lookupCommand(argv: readonly string[]): CommandSpec | undefined {
    const name = argv[0].toLowerCase();
    const s = SPECS[name];
    return s ? { name, arity: s[0], flags: new Set(s[1].split(' ')) } : undefined;
  }

  now(): number {
    return 0;
  }

  log(level: 'debug' | 'verbose' | 'notice' | 'warning', message: string): void {
    this.logs.push([level, message]);
  }

  execFromScript(argv: string[]): Reply {
    this.calls.push(argv);
    const [cmd, key] = [argv[0].toLowerCase(), argv[1]];
    const wrongType: Reply = {
      t: 'error',
      v: 'WRONGTYPE Operation against a key holding the wrong kind of value',
    };
    switch (cmd) {
      case 'get':
        if (this.hashes.has(key)) return wrongType;
        return { t: 'bulk', v: this.strings.get(key) ?? null };
      case 'set':
        this.strings.set(key, argv[2]);
        return { t: 'status', v: 'OK' };
      case 'incrby': {
        const v = BigInt(this.strings.get(key) ?? '0') + BigInt(argv[2]);
        this.strings.set(key, String(v));
        return { t: 'int', v: Number.isSafeInteger(Number(v)) ? Number(v) : v };
      }
      case 'hincrby': {
        if (this.strings.has(key)) return wrongType;
        const h = this.hashes.get(key) ?? new Map<string, string>();
        this.hashes.set(key, h);
        const v = Number(h.get(argv[2]) ?? '0') + Number(argv[3]);
        h.set(argv[2], String(v));
        return { t: 'int', v };
      }
      case 'hexists':
        return { t: 'int', v: this.hashes.get(key)?.has(argv[2]) ? 1 : 0 };
      case 'exists':
        return { t: 'int', v: argv.slice(1).filter((k) => this.strings.has(k) || this.hashes.has(k)).length };
      case 'pexpire':
        if (!this.strings.has(key) && !this.hashes.has(key)) return { t: 'int', v: 0 };
        this.ttl.set(key, Number(argv[2]));
        return { t: 'int', v: 1 };
      case 'pttl':
        if (!this.strings.has(key) && !this.hashes.has(key)) return { t: 'int', v: -2 };
        return { t: 'int', v: this.ttl.get(key) ?? -1 };
      case 'del': {
        let n = 0;
        for (const k of argv.slice(1)) if (this.strings.delete(k) || this.hashes.delete(k)) n++;
        return { t: 'int', v: n };
      }
      case 'publish':
        this.published.push([argv[1], argv[2]]);
        return { t: 'int', v: 0 };
      case 'echo':
        return { t: 'bulk', v: argv[1] };
      case 'mget':
        return {
          t: 'array',
          v: argv.slice(1).map((k) => ({ t: 'bulk', v: this.strings.get(k) ?? null }) as Reply),
        };
      case 'lpop':
        return { t: 'bulk', v: null };
      default:
        return { t: 'error', v: `ERR fake host cannot run '${cmd}'` };
    }
  }
}

function setup(budget = 5_000_000) {
  const host = new FakeHost();
  const engine = new ScriptEngine(host, { seed: 0, budget });
  const evalScript = (body: string, keys: string[] = [], args: string[] = []): Reply =>
    engine.evalCommand(['eval', body, String(keys.length), ...keys, ...args]);
  return { host, engine, evalScript };
}

const errorWith = (v: string): Reply => ({ t: 'error', v });
const suffix = (body: string, line = 1) => ` script: ${sha1hex(body)}, on @user_script:${line}.`;

/** SCRIPT's subcommands and the arity checks come from the server's dispatcher. */
function serverExec(argv: string[]): Reply {
  const server = new RedisServer({ clock: new ManualClock() });
  return server.exec(server.connect(), argv);
}

describe('EVAL argument checks', () => {
  const { engine } = setup();
  it.each([
    [['eval'], "ERR wrong number of arguments for 'eval' command"],
    [['eval', 'return 1'], "ERR wrong number of arguments for 'eval' command"],
    [['evalsha', 'abc'], "ERR wrong number of arguments for 'evalsha' command"],
  ])('%j -> %s (the dispatcher)', (argv, text) => {
    expect(serverExec(argv)).toEqual(errorWith(text));
  });

  it.each([
    [['eval', 'return 1', 'abc'], 'ERR value is not an integer or out of range'],
    [['eval', 'return 1', '1.5'], 'ERR value is not an integer or out of range'],
    [['eval', 'return 1', '99999999999999999999'], 'ERR value is not an integer or out of range'],
    [['eval', 'return 1', '1'], "ERR Number of keys can't be greater than number of args"],
    [['eval', 'return 1', '-1'], "ERR Number of keys can't be negative"],
  ])('%j -> %s', (argv, text) => {
    expect(engine.evalCommand(argv)).toEqual(errorWith(text));
  });

  it('parses numkeys like string2ll', () => {
    for (const bad of ['01', '+1', ' 1', '1 ', '', '-', '-0', '1e3'])
      expect(engine.evalCommand(['eval', 'return 1', bad])).toEqual(
        errorWith('ERR value is not an integer or out of range'),
      );
    expect(engine.evalCommand(['eval', 'return 1', '-12'])).toEqual(
      errorWith("ERR Number of keys can't be negative"),
    );
  });
});

describe('EVALSHA and SCRIPT', () => {
  it('shares the cache between EVAL, EVALSHA and SCRIPT LOAD', () => {
    const { engine } = setup();
    const sha = 'e0e1f9fabfc9d4800c877a703b823ac0578ff8db';
    expect(engine.evalshaCommand(['evalsha', sha, '0'])).toEqual(
      errorWith('NOSCRIPT No matching script. Please use EVAL.'),
    );
    expect(engine.scriptLoad(['script', 'load', 'return 1'])).toEqual({ t: 'bulk', v: sha });
    expect(engine.evalshaCommand(['evalsha', sha.toUpperCase(), '0'])).toEqual({ t: 'int', v: 1 });
    expect(engine.scriptExists(['script', 'exists', sha.toUpperCase(), 'abc'])).toEqual({
      t: 'array',
      v: [
        { t: 'int', v: 1 },
        { t: 'int', v: 0 },
      ],
    });
    expect(engine.evalCommand(['eval', 'return 2', '0'])).toEqual({ t: 'int', v: 2 });
    expect(engine.evalshaCommand(['evalsha', sha1hex('return 2'), '0'])).toEqual({ t: 'int', v: 2 });
    expect(engine.scriptFlush(['script', 'flush'])).toEqual({ t: 'status', v: 'OK' });
    expect(engine.evalshaCommand(['evalsha', sha, '0'])).toEqual(
      errorWith('NOSCRIPT No matching script. Please use EVAL.'),
    );
  });

  it('answers NOSCRIPT before parsing numkeys when the sha is not 40 chars', () => {
    const { engine } = setup();
    expect(engine.evalshaCommand(['evalsha', 'abc', 'x'])).toEqual(
      errorWith('NOSCRIPT No matching script. Please use EVAL.'),
    );
    expect(engine.evalshaCommand(['evalsha', '0'.repeat(40), 'x'])).toEqual(
      errorWith('ERR value is not an integer or out of range'),
    );
  });

  it.each([
    [['script'], "ERR wrong number of arguments for 'script' command"],
    [['script', 'load'], "ERR wrong number of arguments for 'script|load' command"],
    [['script', 'load', 'return 1', 'x'], "ERR wrong number of arguments for 'script|load' command"],
    [['script', 'exists'], "ERR wrong number of arguments for 'script|exists' command"],
    [['script', 'flush', 'x'], 'ERR SCRIPT FLUSH only support SYNC|ASYNC option'],
    [['script', 'flush', 'sync', 'x'], 'ERR SCRIPT FLUSH only support SYNC|ASYNC option'],
    [['script', 'kill'], 'NOTBUSY No scripts in execution right now.'],
    [['script', 'foo'], "ERR unknown subcommand 'foo'. Try SCRIPT HELP."],
    [['script', 'debug'], "ERR wrong number of arguments for 'script|debug' command"],
    [['script', 'debug', 'maybe'], 'ERR Use SCRIPT DEBUG YES/SYNC/NO'],
    [
      ['script', 'load', 'return +'],
      "ERR Error compiling script (new function): user_script:1: unexpected symbol near '+'",
    ],
  ])('%j -> %s', (argv, text) => {
    expect(serverExec(argv)).toEqual(errorWith(text));
  });

  it('SCRIPT FLUSH takes SYNC/ASYNC in any case and SCRIPT HELP lists the subcommands', () => {
    expect(serverExec(['script', 'FLUSH', 'ASYNC'])).toEqual({ t: 'status', v: 'OK' });
    const help = serverExec(['SCRIPT', 'help']);
    expect(help.t === 'array' && help.v?.length).toBe(17);
  });
});

describe('Redisson scripts on the fake host', () => {
  const lock = `if ((redis.call('exists', KEYS[1]) == 0) or (redis.call('hexists', KEYS[1], ARGV[2]) == 1)) then
    redis.call('hincrby', KEYS[1], ARGV[2], 1);
    redis.call('pexpire', KEYS[1], ARGV[1]);
    return nil;
end;
return redis.call('pttl', KEYS[1]);`;

  it('acquires, re-enters and reports the holder TTL', () => {
    const { host, evalScript } = setup();
    expect(evalScript(lock, ['myLock'], ['30000', 'a:1'])).toEqual({ t: 'bulk', v: null });
    expect(evalScript(lock, ['myLock'], ['30000', 'a:1'])).toEqual({ t: 'bulk', v: null });
    expect(host.hashes.get('myLock')?.get('a:1')).toBe('2');
    expect(evalScript(lock, ['myLock'], ['30000', 'b:1'])).toEqual({ t: 'int', v: 30000 });
    expect(host.calls.at(-1)).toEqual(['pttl', 'myLock']);
  });
});

describe('tracer', () => {
  it('records lines and calls of each run, and nothing once removed', () => {
    const { engine, evalScript } = setup();
    const events: unknown[] = [];
    const tracer: ScriptTracer = {
      begin: (sha, keys, args) => events.push(['begin', sha, keys, args]),
      line: (line) => events.push(['line', line]),
      call: (argv, reply) => events.push(['call', argv, reply]),
      end: (reply) => events.push(['end', reply]),
    };
    engine.setTracer(tracer);
    const body = "local a = 1\nredis.call('set', KEYS[1], ARGV[1])\nreturn redis.call('get', KEYS[1])";
    evalScript(body, ['k'], ['v']);
    expect(events).toEqual([
      ['begin', sha1hex(body), ['k'], ['v']],
      ['line', 1],
      ['line', 2],
      ['call', ['set', 'k', 'v'], { t: 'status', v: 'OK' }],
      ['line', 3],
      ['call', ['get', 'k'], { t: 'bulk', v: 'v' }],
      ['end', { t: 'bulk', v: 'v' }],
    ]);
    engine.setTracer(null);
    events.length = 0;
    evalScript(body, ['k'], ['v']);
    expect(events).toEqual([]);
  });

  it('reports rejected calls too', () => {
    const { engine, evalScript } = setup();
    const calls: unknown[] = [];
    engine.setTracer({ begin() {}, line() {}, call: (argv, reply) => calls.push([argv, reply]), end() {} });
    evalScript("return redis.pcall('nosuch', 'x')");
    expect(calls).toEqual([[['nosuch', 'x'], errorWith('ERR Unknown Redis command called from script')]]);
  });
});

export { errorWith, setup, suffix };
