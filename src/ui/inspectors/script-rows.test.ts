import { beforeAll, describe, expect, it } from 'vitest';
import { loadLang } from '../i18n';
import { allRedissonScripts } from '../../engine/redisson/scripts/index';
import { FAIR_LOCK } from '../../engine/redisson/scripts/RedissonFairLock';
import { UNLOCK } from '../../engine/redisson/scripts/RedissonLock';
import { zhComment } from './lua-comments';
import { SCRIPT_NOTES } from './script-notes';
import { indentLua, placeNotes, scriptRows } from './script-rows';

describe('the script view’s rows for Redisson’s scripts', () => {
  beforeAll(() => loadLang('zh'));

  it('numbers exactly the script’s lines, which joined are the text Redis runs', () => {
    for (const s of allRedissonScripts()) {
      const code = scriptRows(s.text, { script: s, notes: SCRIPT_NOTES }, 'en').filter((r) => r.no !== null);
      expect(code.map((r) => r.no)).toEqual(s.lines.map((_, i) => i + 1));
      expect(code.map((r) => r.text.trim()).join('')).toBe(s.lines.map((l) => l.trim()).join(''));
    }
  });

  it('places every note of every variant above a line that has its anchor', () => {
    const keys = new Set<string>();
    for (const s of allRedissonScripts())
      for (const n of placeNotes(s, SCRIPT_NOTES)) {
        expect(n.at, `${s.id}@${s.since}: ${n.en.split('\n')[0]}`).toBeGreaterThanOrEqual(0);
        keys.add(SCRIPT_NOTES[`${s.id}@${s.since}`] ? `${s.id}@${s.since}` : s.id);
      }
    // no note table is left unused (a typo in a key would hide its notes)
    expect([...keys].sort()).toEqual(Object.keys(SCRIPT_NOTES).sort());
  });

  it('has the 中文 of every note, line for line', () => {
    for (const notes of Object.values(SCRIPT_NOTES))
      for (const [, en] of notes) expect(zhComment(en)?.length, en.split('\n')[0]).toBe(en.split('\n').length);
  });

  it('4.7.0 FairLock: the queue notes sit above their branches, in 中文 with the English on hover', () => {
    const s = FAIR_LOCK.at('4.7.0');
    const rows = scriptRows(s.text, { script: s, notes: SCRIPT_NOTES }, 'zh');
    const before = (snippet: string) => {
      const i = rows.findIndex((r) => r.no !== null && r.text.includes(snippet));
      return rows[i - 1];
    };
    expect(before('local lastThreadId')?.original).toMatch(/^-- Join the queue behind the last waiter/);
    expect(before('local lastThreadId')?.text).toMatch(/^-- .*[\u3400-\u9fff]/);
    expect(rows[0].no).toBeNull();
  });

  it('indents by the Lua blocks, for display only', () => {
    const shown = indentLua(UNLOCK.at('4.7.0').lines);
    expect(shown.slice(0, 4)).toEqual([
      "local val = redis.call('get', KEYS[3]);",
      'if val ~= false then',
      '    return tonumber(val);',
      'end;',
    ]);
    expect(shown[13]).toBe('else');
    expect(shown[14]).toBe("    redis.call('del', KEYS[1]);");
  });

  it('shows any other script as its own lines', () => {
    const text = "-- mine\nreturn redis.call('get', KEYS[1])";
    expect(scriptRows(text, undefined, 'en')).toEqual([
      { no: 1, text: '-- mine' },
      { no: 2, text: "return redis.call('get', KEYS[1])" },
    ]);
  });
});
