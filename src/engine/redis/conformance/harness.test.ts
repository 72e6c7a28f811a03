// The harness's own rules: a lenient comparison here would let simulator bugs through unseen.
import { describe, expect, it } from 'vitest';
import { int, array, bulk, status } from '../reply';
import { outputsMatch } from './compare';
import { chunkEntries, parseCorpus, quoteArg, sha1Hex } from './corpus';
import { loadCorpus } from './testing/load_corpus';
import { repliesMatch } from './reply_compare';
import { KNOWN_DIFFERENCES } from './known_differences';

const noScripts = (name: string): string => {
  throw new Error(`no script ${name}`);
};

describe('corpus parsing', () => {
  it('reads entries, markers, comments and the raw pass', () => {
    const f = parseCorpus(
      't.redis',
      '# title\n# pass: raw\nFLUSHALL\n\nPTTL k  # tolerance: 5\nKEYS *  # sort\nEVAL "return #KEYS" 0\n',
      noScripts,
    );
    expect(f.rawPass).toBe(true);
    expect(f.entries.map((e) => e.command)).toEqual([
      'FLUSHALL',
      'PTTL k',
      'KEYS *',
      'EVAL "return #KEYS" 0',
    ]);
    expect(f.entries[1].markers).toEqual({ tolerance: 5 });
    expect(f.entries[2].markers).toEqual({ sort: true });
    expect(f.entries[3].markers).toEqual({});
    expect(f.entries[1].id).toBe('t.redis:5');
  });

  it('refuses files that do not start from FLUSHALL, unknown markers and repeat-count lines', () => {
    expect(() => parseCorpus('t', 'GET k\n', noScripts)).toThrow(/FLUSHALL/);
    expect(() => parseCorpus('t', 'FLUSHALL\nGET k  # tolerance: x\n', noScripts)).toThrow(/tolerance/);
    expect(() => parseCorpus('t', 'FLUSHALL\nGET k  # sort: 1\n', noScripts)).toThrow(/marker/);
    expect(() => parseCorpus('t', 'FLUSHALL\n3 PING\n', noScripts)).toThrow(/number/);
  });

  it('expands script text and sha so redis-cli reads the exact file back', () => {
    const lua = 'return redis.call(\'get\', "k")\n-- \\ done';
    const f = parseCorpus('t', 'FLUSHALL\nEVAL {{lua:x}} 0\nEVALSHA {{sha:x}} 0\n', () => lua);
    expect(f.entries[1].command).toBe(`EVAL "return redis.call('get', \\"k\\")\\n-- \\\\ done" 0`);
    expect(f.entries[2].command).toBe(`EVALSHA ${sha1Hex(lua)} 0`);
  });

  it('keeps a MULTI...EXEC/DISCARD block together, since its commands are queued', () => {
    const f = parseCorpus(
      't',
      'FLUSHALL\nMULTI\nSET a 1\nEXEC\nGET a\nmulti\nDISCARD\nMULTI x\nGET a\n',
      noScripts,
    );
    const sizes = chunkEntries(f.entries).map((c) => c.map((e) => e.command));
    expect(sizes).toEqual([
      ['FLUSHALL'],
      ['MULTI', 'SET a 1', 'EXEC'],
      ['GET a'],
      ['multi', 'DISCARD'],
      ['MULTI x'],
      ['GET a'],
    ]);
  });

  it('quotes only what needs quoting', () => {
    expect(quoteArg('plain')).toBe('plain');
    expect(quoteArg('')).toBe('""');
    expect(quoteArg('a b')).toBe('"a b"');
    expect(quoteArg('\x00\xff')).toBe('"\\x00\\xff"');
  });

  it('loads the shipped corpus: enough entries, every known difference is listed', () => {
    const files = loadCorpus();
    const entries = files.flatMap((f) => f.entries);
    expect(entries.length).toBeGreaterThanOrEqual(220);
    expect(files.some((f) => f.rawPass)).toBe(true);
    for (const e of entries) {
      if (e.markers.known) expect(KNOWN_DIFFERENCES[e.markers.known], e.id).toBeDefined();
    }
  });
});

describe('output comparison', () => {
  it('is exact without markers', () => {
    expect(outputsMatch('(integer) 5\n', '(integer) 5\n', {})).toBe(true);
    expect(outputsMatch('(integer) 5\n', '(integer) 6\n', {})).toBe(false);
    expect(outputsMatch('"a"\n', '"a" \n', {})).toBe(false);
  });

  it('tolerance loosens integer lines only, by at most N', () => {
    expect(outputsMatch('(integer) 29995\n', '(integer) 30000\n', { tolerance: 5 })).toBe(true);
    expect(outputsMatch('(integer) 29994\n', '(integer) 30000\n', { tolerance: 5 })).toBe(false);
    expect(outputsMatch('"29995"\n', '"30000"\n', { tolerance: 5 })).toBe(false);
    expect(outputsMatch('(integer) 1\n', '"1"\n', { tolerance: 5 })).toBe(false);
    expect(outputsMatch('1) (integer) 99\n', '1) (integer) 100\n', { tolerance: 5 })).toBe(true);
    expect(outputsMatch('99\n', '100\n', { tolerance: 5 })).toBe(true);
  });

  it('sort ignores order, not content', () => {
    expect(outputsMatch('1) "a"\n2) "b"\n', '1) "b"\n2) "a"\n', { sort: true })).toBe(true);
    expect(outputsMatch('1) "a"\n2) "b"\n', '1) "b"\n2) "c"\n', { sort: true })).toBe(false);
    expect(outputsMatch('1) "a"\n2) "b"\n', '1) "b"\n2) "a"\n', {})).toBe(false);
  });
});

describe('reply comparison', () => {
  it('compares types, values, nesting; tolerance and order only when asked', () => {
    expect(repliesMatch(int(5), int(5))).toBe(true);
    expect(repliesMatch(int(5), bulk('5'))).toBe(false);
    expect(repliesMatch(int(5), int(7))).toBe(false);
    expect(repliesMatch(int(5), int(7), { tolerance: 2 })).toBe(true);
    expect(repliesMatch(int(2n ** 62n), int(2n ** 62n))).toBe(true);
    expect(repliesMatch(status('OK'), bulk('OK'))).toBe(false);
    const ab = array([bulk('a'), bulk('b')]);
    const ba = array([bulk('b'), bulk('a')]);
    expect(repliesMatch(ab, ba)).toBe(false);
    expect(repliesMatch(ab, ba, { unordered: true })).toBe(true);
    expect(repliesMatch(array(null), array([]))).toBe(false);
    expect(repliesMatch(bulk(null), bulk(''))).toBe(false);
  });
});
