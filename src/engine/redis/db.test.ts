import { describe, expect, it } from 'vitest';
import { Db } from './db';

function db(): { db: Db; at: (t: number) => void; expired: string[] } {
  let now = 0;
  const expired: string[] = [];
  const d = new Db({ now: () => now, keyExpired: (k, how) => expired.push(`${how}:${k}`) });
  return {
    db: d,
    at: (t) => {
      now = t;
    },
    expired,
  };
}

describe('Db: a deadline lives with its key', () => {
  it('put keeps the TTL, setKey drops it unless keepTtl, delete forgets it', () => {
    const { db: d } = db();
    d.put('k', 'a');
    d.setExpire('k', 100);
    d.put('k', 'b');
    expect(d.getExpire('k')).toBe(100);
    d.setKey('k', 'c', true);
    expect(d.getExpire('k')).toBe(100);
    d.setKey('k', 'd', false);
    expect(d.getExpire('k')).toBeUndefined();
    d.setExpire('k', 50);
    d.delete('k');
    d.put('k', 'e');
    expect(d.getExpire('k')).toBeUndefined();
  });

  it('setExpire on a missing key does nothing (Redis asserts the key exists)', () => {
    const { db: d } = db();
    d.setExpire('ghost', 10);
    d.put('ghost', 'v');
    expect(d.getExpire('ghost')).toBeUndefined();
    expect(d.nextExpiryAt()).toBeUndefined();
  });

  it('expires lazily only after the deadline, strictly', () => {
    const { db: d, at, expired } = db();
    d.put('k', 'v');
    d.setExpire('k', 10);
    at(10);
    expect(d.lookup('k')).toBe('v');
    at(11);
    expect(d.isExpired('k')).toBe(true);
    expect(d.lookup('k')).toBeUndefined();
    expect(expired).toEqual(['lazy:k']);
    expect(d.size).toBe(0);
  });

  it('renewed TTLs: only the live deadline counts, also after the heap is rebuilt', () => {
    const { db: d, at, expired } = db();
    d.put('a', '1');
    d.put('b', '2');
    for (let t = 1; t <= 300; t++) d.setExpire('a', 1000 + t);
    d.setExpire('b', 500);
    expect(d.nextExpiryAt()).toBe(501);
    expect(d.removeExpire('b')).toBe(true);
    expect(d.removeExpire('b')).toBe(false);
    expect(d.nextExpiryAt()).toBe(1301);
    at(1300);
    d.activeExpireCycle();
    expect(expired).toEqual([]);
    at(1301);
    d.activeExpireCycle();
    expect(expired).toEqual(['active:a']);
    expect(d.peek('b')).toBe('2');
  });

  it('checkpoint and restore keep values and deadlines, unshared', () => {
    const { db: d, at } = db();
    d.put('h', new Map([['f', '1']]));
    d.setExpire('h', 20);
    d.put('s', 'x');
    const cp = d.checkpoint();
    expect([...cp.expires]).toEqual([['h', 20]]);
    const other = db();
    other.db.restore(cp);
    (other.db.peek('h') as Map<string, string>).set('f', '2');
    expect((d.peek('h') as Map<string, string>).get('f')).toBe('1');
    expect(other.db.getExpire('h')).toBe(20);
    expect(other.db.nextExpiryAt()).toBe(21);
    other.db.setKey('h', 'y', false);
    expect(d.getExpire('h')).toBe(20);
    at(21);
    expect(d.lookup('h')).toBeUndefined();
    expect(d.snapshot()).toEqual({ s: { type: 'string', value: 'x', expireAt: null } });
  });
});
