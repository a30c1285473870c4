import { describe, expect, it } from 'vitest';
import {
  calculatorCostMillis,
  costOfEmailsMillis,
  emailsPaidBy,
  formatBRL,
  formatBRLCurrency,
  hasFractionOfCent,
  PRICE_PER_EMAIL_MILLIS,
  parseReaisToMillis,
} from './pricing';

const NBSP = '\u00a0';

describe('pricing', () => {
  it('charges R$ 0,005 (5 millis) per e-mail by default', () => {
    expect(PRICE_PER_EMAIL_MILLIS).toBe(5);
    expect(costOfEmailsMillis(1000)).toBe(5000);
    expect(costOfEmailsMillis(3, 4)).toBe(12);
  });

  it('rejects negative or fractional counts', () => {
    expect(() => costOfEmailsMillis(-1)).toThrow(RangeError);
    expect(() => costOfEmailsMillis(1.5)).toThrow(RangeError);
  });

  it.each([
    ['', 0, `R$${NBSP}0,00`],
    ['0', 0, `R$${NBSP}0,00`],
    ['1', 5, `R$${NBSP}0,005`],
    ['3', 15, `R$${NBSP}0,015`],
    ['1000', 5000, `R$${NBSP}5,00`],
    ['1000000', 5_000_000, `R$${NBSP}5.000,00`],
    // How a Brazilian writes a thousand and a million.
    ['1.000', 5000, `R$${NBSP}5,00`],
    ['1.000.000', 5_000_000, `R$${NBSP}5.000,00`],
  ])('calculator %j → %i millis → %s', (input, millis, text) => {
    expect(calculatorCostMillis(input)).toBe(millis);
    expect(formatBRL(millis)).toBe(text);
  });

  it('calculator rejects negatives and non-numbers', () => {
    expect(calculatorCostMillis('-1')).toBeNull();
    expect(calculatorCostMillis('abc')).toBeNull();
    expect(calculatorCostMillis('1.5')).toBeNull();
    expect(calculatorCostMillis('1,5')).toBeNull();
    expect(calculatorCostMillis('10.00')).toBeNull();
  });

  it('formats exactly where floats would drift', () => {
    // 0.1 + 0.2 style drift cannot happen: 3 × 0.005 is 15 millis.
    expect(formatBRL(15)).toBe(`R$${NBSP}0,015`);
    expect(formatBRL(123_456_789_012)).toBe(`R$${NBSP}123.456.789,012`);
    expect(formatBRL(-2500)).toBe(`-R$${NBSP}2,50`);
    expect(formatBRL(10)).toBe(`R$${NBSP}0,01`);
  });

  it('agrees with Intl for whole-cent amounts', () => {
    const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
    for (const millis of [0, 10, 5000, 1_234_560, 5_000_000]) {
      expect(formatBRL(millis)).toBe(intl.format(millis / 1000));
    }
  });

  it('parses amounts typed in reais', () => {
    expect(parseReaisToMillis('10')).toBe(10_000);
    expect(parseReaisToMillis('10,50')).toBe(10_500);
    expect(parseReaisToMillis('R$ 1.234,567')).toBe(1_234_567);
    expect(parseReaisToMillis('10.5')).toBe(10_500);
    expect(parseReaisToMillis('10,5555')).toBeNull();
    expect(parseReaisToMillis('dez')).toBeNull();
  });

  it('counts the e-mails a balance pays for', () => {
    expect(emailsPaidBy(5000)).toBe(1000);
    expect(emailsPaidBy(4)).toBe(0);
    expect(emailsPaidBy(5000, 4)).toBe(1250);
  });
});

describe('formatBRLCurrency (display estimates, whole cents)', () => {
  it.each([
    [61_725, '61,73'],
    [61_724, '61,72'],
    [5, '0,01'],
    [4, '0,00'],
    [5_000_000, '5.000,00'],
    [-15, '0,02'],
  ])('%i millis → R$ %s', (millis, text) => {
    expect(formatBRLCurrency(millis).replace(/^-/, '')).toBe(`R$${NBSP}${text}`);
  });

  it('agrees with Intl pt-BR currency formatting for whole cents', () => {
    for (const millis of [0, 10, 1_230, 61_730, 123_456_780]) {
      const intl = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' }).format(millis / 1000);
      expect(formatBRLCurrency(millis)).toBe(intl);
    }
    expect(hasFractionOfCent(61_725)).toBe(true);
    expect(hasFractionOfCent(61_730)).toBe(false);
  });
});
