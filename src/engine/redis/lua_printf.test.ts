import { describe, expect, it } from 'vitest';
import { PLAIN, formatDouble, formatG, formatInteger, toInt64, toUint64 } from './lua_printf';

const spec = (over: Partial<typeof PLAIN>) => ({ ...PLAIN, ...over });

describe('glibc-exact printf', () => {
  it('%.14g and %.17g as Lua 5.1 and redis.call print them', () => {
    expect(formatG(5, 14)).toBe('5');
    expect(formatG(2 ** 53, 14)).toBe('9.007199254741e+15');
    expect(formatG(1e15, 14)).toBe('1e+15');
    expect(formatG(0.00001, 14)).toBe('1e-05');
    expect(formatG(1 / 3, 14)).toBe('0.33333333333333');
    expect(formatG(0.1, 17)).toBe('0.10000000000000001');
    expect(formatG(1e20, 17)).toBe('1e+20');
    expect(formatG(2 ** 53 + 2, 17)).toBe('9007199254740994');
    expect(formatG(Number('123456789012345678'), 17)).toBe('1.2345678901234568e+17');
    expect(formatG(-0, 14)).toBe('-0');
    expect(formatG(NaN, 14)).toBe('-nan');
    expect(formatG(Infinity, 14)).toBe('inf');
    expect(formatG(-Infinity, 17)).toBe('-inf');
  });

  it('rounds exact ties to even like glibc, not up like toFixed', () => {
    expect(formatDouble(2.5, 'f', spec({ precision: 0 }))).toBe('2');
    expect(formatDouble(3.5, 'f', spec({ precision: 0 }))).toBe('4');
    expect(formatDouble(0.125, 'g', spec({ precision: 2 }))).toBe('0.12');
    expect(formatDouble(0.375, 'e', spec({ precision: 1 }))).toBe('3.8e-01');
  });

  it('%e %f %g with flags and widths', () => {
    expect(formatDouble(12345.678, 'e', PLAIN)).toBe('1.234568e+04');
    expect(formatDouble(0.00012, 'E', PLAIN)).toBe('1.200000E-04');
    expect(formatDouble(1e-10, 'G', PLAIN)).toBe('1E-10');
    expect(formatDouble(3.14159, 'f', spec({ width: 5, precision: 2 }))).toBe(' 3.14');
    expect(formatDouble(1e22, 'f', spec({ precision: 0 }))).toBe('10000000000000000000000');
    expect(formatDouble(-1.5, 'f', spec({ width: 8, zero: true, precision: 1 }))).toBe('-00001.5');
    expect(formatDouble(1, 'g', spec({ alt: true }))).toBe('1.00000');
  });

  it('integer conversions and C casts', () => {
    expect(formatInteger(5n, 'd', spec({ plus: true }))).toBe('+5');
    expect(formatInteger(5n, 'd', spec({ width: 5, zero: true }))).toBe('00005');
    expect(formatInteger(5n, 'd', spec({ width: 5, minus: true }))).toBe('5    ');
    expect(formatInteger(255n, 'x', spec({ alt: true }))).toBe('0xff');
    expect(formatInteger(8n, 'o', spec({ alt: true }))).toBe('010');
    expect(formatInteger(0n, 'd', spec({ precision: 0 }))).toBe('');
    expect(toInt64(3.7)).toBe(3n);
    expect(toInt64(-3.7)).toBe(-3n);
    expect(toInt64(2 ** 63)).toBe(-9223372036854775808n);
    expect(toInt64(NaN)).toBe(-9223372036854775808n);
    expect(toUint64(-1)).toBe(18446744073709551615n);
  });
});
