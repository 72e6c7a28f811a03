import { describe, expect, it } from 'vitest';
import type { TraceEvent } from '../engine/trace/types';
import { formatEvent } from './timeline_text';

const cmd = (reply: unknown): string => {
  const ev = { t: 0, seq: 0, kind: 'cmd', actor: 'A:1', node: 'master', argv: ['X'], reply } as TraceEvent;
  return formatEvent(ev)!.split('→ ')[1];
};

describe('cmd replies in the text timeline', () => {
  it('print as redis-cli prints them, so a bulk string is told from a status or an integer', () => {
    expect(cmd({ status: 'OK' })).toBe('OK');
    expect(cmd('OK')).toBe('"OK"');
    expect(cmd('1')).toBe('"1"');
    expect(cmd(1)).toBe('(integer) 1');
    expect(cmd({ int: '9223372036854775807' })).toBe('(integer) 9223372036854775807');
    expect(cmd(null)).toBe('(nil)');
    expect(cmd({ error: 'ERR wrong number of arguments' })).toBe('(error) ERR wrong number of arguments');
    expect(cmd([])).toBe('(empty array)');
    expect(cmd(['subscribe', 'ch', 1])).toBe('["subscribe", "ch", (integer) 1]');
    expect(cmd('a\nb')).toBe('"a\\nb"');
  });

  it('cut long bulk strings only', () => {
    expect(cmd('x'.repeat(60))).toBe(`"${'x'.repeat(40)}…`);
    expect(cmd('y'.repeat(40))).toBe(`"${'y'.repeat(40)}"`);
    expect(cmd({ error: `ERR ${'z'.repeat(60)}` })).toBe(`(error) ERR ${'z'.repeat(60)}`);
  });
});
