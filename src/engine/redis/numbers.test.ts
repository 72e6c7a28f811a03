import { describe, expect, it } from 'vitest';
import { addLongDouble, formatLongDouble, parseLongDouble } from './long_double';
import { addInt64, formatDouble, parseDouble, parseLongLong, parseRangeDouble } from './numbers';

describe('parseLongLong (string2ll)', () => {
  it('accepts canonical int64 spellings only', () => {
    expect(parseLongLong('0')).toBe(0);
    expect(parseLongLong('-12')).toBe(-12);
    expect(parseLongLong('9223372036854775807')).toBe(9223372036854775807n);
    expect(parseLongLong('-9223372036854775808')).toBe(-9223372036854775808n);
    expect(parseLongLong('9007199254740991')).toBe(9007199254740991);
    for (const bad of ['', '-', '-0', '01', '+1', ' 1', '1 ', '1.0', '9223372036854775808', '1e3', '０']) {
      expect(parseLongLong(bad)).toBeNull();
    }
  });

  it('adds within int64', () => {
    expect(addInt64(9007199254740991, 2)).toBe(9007199254740993n);
    expect(addInt64(9223372036854775807n, 1)).toBeNull();
    expect(addInt64(-9223372036854775808n, -1)).toBeNull();
    expect(addInt64(9007199254740993n, -2)).toBe(9007199254740991);
  });
});

describe('doubles', () => {
  it('parseDouble follows getDoubleFromObject', () => {
    expect(parseDouble('1.5')).toBe(1.5);
    expect(parseDouble('-inf')).toBe(-Infinity);
    expect(parseDouble('+Infinity')).toBe(Infinity);
    expect(parseDouble('0x10')).toBe(16);
    expect(parseDouble('.5')).toBe(0.5);
    expect(parseDouble('5.')).toBe(5);
    for (const bad of ['', ' 1', '1 ', 'nan', 'abc', '1e400', '1e-400', '1,5'])
      expect(parseDouble(bad)).toBeNull();
  });

  it('parseRangeDouble follows plain strtod', () => {
    expect(parseRangeDouble('')).toBe(0);
    expect(parseRangeDouble(' 1')).toBe(1);
    expect(parseRangeDouble('1e400')).toBe(Infinity);
    expect(parseRangeDouble('  ')).toBeNull();
    expect(parseRangeDouble('nan')).toBeNull();
  });

  it('formatDouble is printf %.17g (values from ZSCORE on 7.0.15)', () => {
    expect(formatDouble(0.1)).toBe('0.10000000000000001');
    expect(formatDouble(1.1)).toBe('1.1000000000000001');
    expect(formatDouble(2.5e-7)).toBe('2.4999999999999999e-07');
    expect(formatDouble(1e300)).toBe('1.0000000000000001e+300');
    expect(formatDouble(Number('123456789012345678'))).toBe('1.2345678901234568e+17');
    expect(formatDouble(1234567890123456.25)).toBe('1234567890123456.2');
    expect(formatDouble(1e16)).toBe('10000000000000000');
    expect(formatDouble(1e17)).toBe('1e+17');
    expect(formatDouble(0.0001)).toBe('0.0001');
    expect(formatDouble(-2)).toBe('-2');
    expect(formatDouble(-0)).toBe('0');
    expect(formatDouble(Infinity)).toBe('inf');
  });
});

describe('long double (INCRBYFLOAT)', () => {
  const add = (a: string, b: string) =>
    formatLongDouble(addLongDouble(parseLongDouble(a)!, parseLongDouble(b)!)!);
  it('rounds to a 64-bit significand and prints %.17Lf trimmed (values from 7.0.15)', () => {
    expect(add('0.1', '0.2')).toBe('0.3');
    expect(add('10.5', '0.1')).toBe('10.6');
    expect(add('3000', '1.5')).toBe('3001.5');
    expect(add('0', '1.23456789012345678901')).toBe('1.23456789012345679');
    expect(add('0', '5e-20')).toBe('0');
    expect(add('1e20', '-1e20')).toBe('0');
    expect(add('0', '1e300')).toBe(
      '1000000000000000000008997324079559193870523944273290747938260082321265646596180935755849152083750497190350372508614274835903592556184672983913096260520748646287327135641843653294084255107606016789726652932370030551382947620994540294772781889620606179267611627097410650567187386105690089424915104006144',
    );
  });

  it('parses like string2ld', () => {
    expect(parseLongDouble(' 1')).toBeNull();
    expect(parseLongDouble('nan')).toBeNull();
    expect(parseLongDouble('')).toBeNull();
    expect(parseLongDouble('1e5000')).toBeNull();
    expect(parseLongDouble('inf')?.inf).toBe(true);
    expect(addLongDouble(parseLongDouble('inf')!, parseLongDouble('-inf')!)).toBeNull();
  });
});
