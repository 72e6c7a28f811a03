import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sha1hex } from './sha1';

describe('sha1hex', () => {
  it('matches the reference digests, byte for byte', () => {
    expect(sha1hex('')).toBe('da39a3ee5e6b4b0d3255bfef95601890afd80709');
    expect(sha1hex('return 1')).toBe('e0e1f9fabfc9d4800c877a703b823ac0578ff8db');
    for (const s of [
      'abc',
      'a'.repeat(55),
      'a'.repeat(56),
      'a'.repeat(64),
      'x'.repeat(1000),
      '\xff\x00\x80\x7f',
    ]) {
      expect(sha1hex(s), JSON.stringify(s.slice(0, 10))).toBe(
        createHash('sha1').update(Buffer.from(s, 'latin1')).digest('hex'),
      );
    }
  });
});
