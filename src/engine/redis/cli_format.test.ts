import { describe, expect, it } from 'vitest';
import { formatCommandReply, formatReply, printedVerbatim, quoteBytes } from './cli_format';
import { array, bulk, EMPTY_ARRAY, error, int, NIL, NIL_ARRAY, OK } from './reply';

// Expected output captured from redis-cli 7.0.15 (--no-raw and piped raw).
describe('formatReply tty', () => {
  it('scalars', () => {
    expect(formatReply(OK, 'tty')).toBe('OK\n');
    expect(formatReply(int(-3), 'tty')).toBe('(integer) -3\n');
    expect(formatReply(int(9223372036854775807n), 'tty')).toBe('(integer) 9223372036854775807\n');
    expect(formatReply(NIL, 'tty')).toBe('(nil)\n');
    expect(formatReply(NIL_ARRAY, 'tty')).toBe('(nil)\n');
    expect(formatReply(error('ERR x'), 'tty')).toBe('(error) ERR x\n');
    expect(formatReply(EMPTY_ARRAY, 'tty')).toBe('(empty array)\n');
    expect(formatReply(bulk(''), 'tty')).toBe('""\n');
  });

  it('escapes bytes like sdscatrepr', () => {
    expect(quoteBytes('a"b\\c\td\x07\x08\x7f~ ')).toBe('"a\\"b\\\\c\\td\\a\\b\\x7f~ "');
    expect(quoteBytes('a\x00b\n')).toBe('"a\\x00b\\n"');
    expect(quoteBytes('\xe4\xbd\xa0\r')).toBe('"\\xe4\\xbd\\xa0\\r"');
  });

  it('aligns indexes and indents nested arrays under their parent', () => {
    const eleven = array('abcdefghijk'.split('').map((c) => bulk(c)));
    expect(formatReply(eleven, 'tty')).toBe(
      ' 1) "a"\n 2) "b"\n 3) "c"\n 4) "d"\n 5) "e"\n 6) "f"\n 7) "g"\n 8) "h"\n 9) "i"\n10) "j"\n11) "k"\n',
    );
    const nested = array([
      int(1),
      array([int(3), bulk('Hello World!')]),
      EMPTY_ARRAY,
      array([array([bulk('x'), NIL])]),
    ]);
    expect(formatReply(nested, 'tty')).toBe(
      [
        '1) (integer) 1',
        '2) 1) (integer) 3',
        '   2) "Hello World!"',
        '3) (empty array)',
        '4) 1) 1) "x"',
        '      2) (nil)',
        '',
      ].join('\n'),
    );
    const wide = array([...Array(10).keys()].map(() => array([bulk('a'), bulk('b')])));
    expect(formatReply(wide, 'tty').split('\n').slice(18, 20)).toEqual(['10) 1) "a"', '    2) "b"']);
  });
});

describe('formatReply raw', () => {
  it('prints bare values, one array element per line, errors followed by an empty line', () => {
    expect(formatReply(OK, 'raw')).toBe('OK\n');
    expect(formatReply(int(3), 'raw')).toBe('3\n');
    expect(formatReply(NIL, 'raw')).toBe('\n');
    expect(formatReply(EMPTY_ARRAY, 'raw')).toBe('\n');
    expect(formatReply(error('ERR x'), 'raw')).toBe('ERR x\n\n');
    expect(formatReply(bulk('a\x00b\n'), 'raw')).toBe('a\x00b\n\n');
    expect(formatReply(array([bulk('unsubscribe'), NIL, int(0)]), 'raw')).toBe('unsubscribe\n\n0\n');
    expect(formatReply(array([bulk('a'), array([bulk('b'), bulk('c')])]), 'raw')).toBe('a\nb\nc\n');
  });
});

describe("redis-cli's verbatim commands (cliSendCommand output_raw)", () => {
  it.each([
    [['CLUSTER', 'NODES'], true],
    [['cluster', 'info'], true],
    [['CLUSTER', 'INFO', 'x'], false],
    [['CLUSTER', 'SLOTS'], false],
    [['INFO'], true],
    [['latency', 'graph', 'x'], true],
    [['GET', 'k'], false],
  ])('%j prints verbatim: %s', (argv, verbatim) => {
    expect(printedVerbatim(argv)).toBe(verbatim);
  });

  it('prints the text as is in both modes, no newline added', () => {
    const text = { t: 'bulk', v: 'cluster_state:ok\r\n' } as const;
    expect(formatCommandReply(['CLUSTER', 'INFO'], text, 'tty')).toBe('cluster_state:ok\r\n');
    expect(formatCommandReply(['CLUSTER', 'INFO'], text, 'raw')).toBe('cluster_state:ok\r\n');
    expect(formatCommandReply(['GET', 'k'], text, 'tty')).toBe('"cluster_state:ok\\r\\n"\n');
  });
});
