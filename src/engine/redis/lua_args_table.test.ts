/**
 * KEYS and ARGV are filled again into last run's tables only when a script left them as built
 * (lua_args_table.ts): whatever a script does to them, the next script sees fresh tables, as in
 * Redis, where luaCreateArray builds new ones before every run.
 */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock';
import { formatReply } from './cli_format';
import { RedisServer } from './server';

function node() {
  const server = new RedisServer({ clock: new ManualClock(1_000_000) });
  const conn = server.connect();
  return (body: string, ...rest: string[]) =>
    formatReply(server.exec(conn, ['eval', body, ...rest]), 'tty').replace(/\n$/, '');
}

const READ_BACK =
  "local out = {} for k, v in pairs(KEYS) do out[#out + 1] = tostring(k) .. '=' .. v end " +
  "for k, v in pairs(ARGV) do out[#out + 1] = 'a' .. tostring(k) .. '=' .. v end " +
  "return table.concat(out, ' ') .. ' mt:' .. tostring(getmetatable(KEYS)) .. ' #' .. #KEYS";

describe('KEYS and ARGV after a script changed them', () => {
  it.each([
    ['a value overwritten', "KEYS[1] = 'x' ARGV[2] = 'y' return 1"],
    ['a key added', "KEYS.extra = 1 ARGV[3] = 'z' return 1"],
    ['a key removed', 'KEYS[2] = nil ARGV[1] = nil return 1'],
    ['a key removed and put back (order changes)', 'local v = KEYS[1] KEYS[1] = nil KEYS[1] = v return 1'],
    ['a metatable', "setmetatable(KEYS, {__index = function() return 'meta' end}) return 1"],
    ['used as an error object', 'error(KEYS)'],
    ['cleared with table.remove', 'table.remove(KEYS) table.remove(ARGV, 1) return 1'],
  ])('%s: the next script sees them as sent', (_name, body) => {
    const evalText = node();
    const expected = '"1=k1 2=k2 a1=v1 a2=v2 mt:nil #2"';
    expect(evalText(READ_BACK, '2', 'k1', 'k2', 'v1', 'v2')).toBe(expected);
    evalText(body, '2', 'k1', 'k2', 'v1', 'v2');
    expect(evalText(READ_BACK, '2', 'k1', 'k2', 'v1', 'v2')).toBe(expected);
    expect(evalText('return KEYS[5]', '2', 'k1', 'k2')).toBe('(nil)');
    expect(evalText('return {#KEYS, #ARGV, KEYS[1], ARGV[1]}', '1', 'n', 'w')).toBe(
      '1) (integer) 1\n2) (integer) 1\n3) "n"\n4) "w"',
    );
  });

  it('holds new values, more or fewer of them, on every run', () => {
    const evalText = node();
    const body = "return table.concat(KEYS, ',') .. '|' .. table.concat(ARGV, ',')";
    expect(evalText(body, '2', 'a', 'b', 'x')).toBe('"a,b|x"');
    expect(evalText(body, '2', 'a', 'c', 'x')).toBe('"a,c|x"');
    expect(evalText(body, '3', 'a', 'c', 'd', 'x', 'y')).toBe('"a,c,d|x,y"');
    expect(evalText(body, '0')).toBe('"|"');
    expect(evalText(body, '1', 'a', 'x')).toBe('"a|x"');
  });

  it('prints the addresses fresh tables would have: a reused table takes the next number too', () => {
    const addresses = (body: string) => {
      const evalText = node();
      return [1, 2, 3].map((i) => evalText(body, '1', `k${i % 2}`, 'v'));
    };
    // KEYS[1] changes every run, so this one builds new tables each time
    const fresh = addresses("local a = tostring(KEYS) .. tostring(ARGV) KEYS[1] = 'changed' return a");
    const reused = addresses('local a = tostring(KEYS) .. tostring(ARGV) return a');
    expect(reused).toEqual(fresh);
    expect(new Set(reused).size).toBe(3);
  });

  it('keeps one table per length: scripts of two lengths taking turns each see their own values', () => {
    const evalText = node();
    const body = "return table.concat(KEYS, ',') .. '|' .. table.concat(ARGV, ',')";
    const three = ['3', 'a', 'b', 'c', 'x', 'y', 'z', 'w', 'v'];
    expect(evalText(body, '1', 'a', 'x', 'y')).toBe('"a|x,y"');
    expect(evalText(body, ...three)).toBe('"a,b,c|x,y,z,w,v"');
    evalText("KEYS[1] = 'changed' ARGV[2] = 'changed' return 1", '1', 'a', 'x', 'y');
    expect(evalText(body, ...three)).toBe('"a,b,c|x,y,z,w,v"');
    expect(evalText(READ_BACK, '1', 'a', 'x', 'y')).toBe('"1=a a1=x a2=y mt:nil #1"');
    expect(evalText(body, '1', 'b', 'x', 'q')).toBe('"b|x,q"');
  });

  it('prints the addresses fresh tables would have when lengths take turns', () => {
    const addresses = (body: string) => {
      const evalText = node();
      return [1, 2, 3, 4].map((i) =>
        i % 2 === 1 ? evalText(body, '1', 'k', 'v') : evalText(body, '3', 'k', 'l', 'm', 'v', 'w', 'x', 'y'),
      );
    };
    const fresh = addresses("local a = tostring(KEYS) .. tostring(ARGV) KEYS[1] = 'changed' return a");
    const reused = addresses('local a = tostring(KEYS) .. tostring(ARGV) return a');
    expect(reused).toEqual(fresh);
    expect(new Set(reused).size).toBe(4);
  });
});
