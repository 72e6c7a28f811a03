/**
 * What a command replies to a script that called redis.setresp(3). The simulated server answers in
 * RESP2 shapes (reply.ts); RESP3 differs only in type information, which depends on the command
 * (server.c command replies in 7.0): HGETALL and CONFIG GET answer maps, SMEMBERS-like commands
 * sets, ZSCORE-like commands doubles, WITHSCORES replies pairs of [member, double], and a nil is
 * a RESP3 null. This module restores those shapes for the commands the simulator serves; anything
 * else passes through unchanged.
 */
import type { Reply } from './reply';

export type Resp3 =
  | Reply
  | { readonly t: 'null' }
  | { readonly t: 'double'; readonly v: number }
  | { readonly t: 'map'; readonly v: readonly (readonly [Resp3, Resp3])[] }
  | { readonly t: 'set'; readonly v: readonly Resp3[] }
  | { readonly t: 'array3'; readonly v: readonly Resp3[] };

const NULL: Resp3 = { t: 'null' };

const MAP_COMMANDS = new Set(['hgetall', 'config']);
const SET_COMMANDS = new Set(['smembers', 'sinter', 'sunion', 'sdiff']);
const DOUBLE_COMMANDS = new Set(['zscore', 'zincrby']);
const WITHSCORES_COMMANDS = new Set([
  'zrange',
  'zrevrange',
  'zrangebyscore',
  'zrevrangebyscore',
  'zrangestore',
]);

function double(r: Reply): Resp3 {
  if (r.t === 'bulk') return r.v === null ? NULL : { t: 'double', v: parseScore(r.v) };
  return r;
}

/** Scores come as Redis prints them ("1.5", "inf", "-inf"). */
function parseScore(s: string): number {
  if (s === 'inf' || s === '+inf') return Infinity;
  if (s === '-inf') return -Infinity;
  return Number(s);
}

function pairs(items: readonly Reply[], second: (r: Reply) => Resp3): Resp3[] {
  const out: Resp3[] = [];
  for (let i = 0; i + 1 < items.length; i += 2)
    out.push({ t: 'array3', v: [items[i], second(items[i + 1])] });
  return out;
}

function nullify(r: Reply): Resp3 {
  if ((r.t === 'bulk' || r.t === 'array') && r.v === null) return NULL;
  if (r.t === 'array') return { t: 'array3', v: r.v!.map(nullify) };
  return r;
}

export function toResp3(argv: readonly string[], r: Reply): Resp3 {
  if (r.t === 'error') return r;
  const cmd = argv[0].toLowerCase();
  const has = (word: string): boolean => argv.some((a, i) => i > 0 && a.toLowerCase() === word);
  if (r.t === 'array' && r.v !== null) {
    if (MAP_COMMANDS.has(cmd) && (cmd !== 'config' || argv[1]?.toLowerCase() === 'get')) {
      const entries: (readonly [Resp3, Resp3])[] = [];
      for (let i = 0; i + 1 < r.v.length; i += 2) entries.push([r.v[i], nullify(r.v[i + 1])]);
      return { t: 'map', v: entries };
    }
    if (SET_COMMANDS.has(cmd)) return { t: 'set', v: r.v };
    if (cmd === 'zmscore') return { t: 'array3', v: r.v.map(double) };
    if (WITHSCORES_COMMANDS.has(cmd) && has('withscores')) return { t: 'array3', v: pairs(r.v, double) };
    if ((cmd === 'zpopmin' || cmd === 'zpopmax') && argv.length > 2)
      return { t: 'array3', v: pairs(r.v, double) };
    if ((cmd === 'zpopmin' || cmd === 'zpopmax') && r.v.length === 2)
      return { t: 'array3', v: [r.v[0], double(r.v[1])] };
    if (cmd === 'hrandfield' && has('withvalues')) return { t: 'array3', v: pairs(r.v, (x) => x) };
  }
  if (DOUBLE_COMMANDS.has(cmd)) return double(r);
  return nullify(r);
}
