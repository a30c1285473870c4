import { describe, expect, it } from 'vitest';
import { parseReaisToMillis } from '../pricing';
import { formatMillisAsProviderAmount, parseProviderAmountToMillis } from './provider-amount';

describe('provider amounts', () => {
  it('reads JSON numbers and dot-decimal strings exactly, never as pt-BR thousands', () => {
    // The bug this replaces: a JSON number 1.234 (one real and 234 millis) read as pt-BR "1.234" = R$ 1.234,00.
    expect(parseReaisToMillis(String(1.234))).toBe(1_234_000);
    expect(parseProviderAmountToMillis(1.234)).toBe(1_234);
    expect(parseProviderAmountToMillis('1.234')).toBe(1_234);
    expect(parseProviderAmountToMillis(12.34)).toBe(12_340);
    expect(parseProviderAmountToMillis('12.34')).toBe(12_340);
    expect(parseProviderAmountToMillis(0.1 + 0.2)).toBeNull(); // 0.30000000000000004: not an amount
    expect(parseProviderAmountToMillis(100)).toBe(100_000);
    expect(parseProviderAmountToMillis('100.00')).toBe(100_000);
    expect(parseProviderAmountToMillis('99999.990')).toBe(99_999_990);
  });

  it('refuses pt-BR text, negatives, exponents and garbage', () => {
    for (const bad of [
      '1,23',
      '1.234,56',
      '-1.00',
      '1e3',
      1e21,
      Number.NaN,
      '',
      'R$ 10,00',
      null,
      undefined,
      '1.2345',
    ]) {
      expect(parseProviderAmountToMillis(bad)).toBeNull();
    }
  });

  it('formats whole cents as the providers expect', () => {
    expect(formatMillisAsProviderAmount(12_340)).toBe('12.34');
    expect(formatMillisAsProviderAmount(10_000)).toBe('10.00');
    expect(formatMillisAsProviderAmount(50)).toBe('0.05');
    expect(() => formatMillisAsProviderAmount(12_345)).toThrow(RangeError);
  });
});
