/**
 * Amounts as payment providers send them: the BCB Pix API writes `valor` as a dot-decimal string ("12.34"),
 * Mercado Pago writes `transaction_amount` as a JSON number (12.34). Neither is pt-BR text, so they must not go
 * through parseReaisToMillis (which reads "1.234" as one thousand two hundred thirty-four reais).
 */
import { MILLIS_PER_REAL } from '../pricing';

/**
 * A provider amount in reais → integer millis, from its decimal digits (no float arithmetic). A JSON number is
 * read through its shortest round-trip text (12.34 → "12.34"). Null for negatives, exponents, commas, more than
 * three significant decimals or values past 2^53 millis.
 */
export function parseProviderAmountToMillis(value: unknown): number | null {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    text = String(value);
  } else if (typeof value === 'string') {
    text = value.trim();
  } else {
    return null;
  }
  const match = /^(\d{1,15})(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const whole = match[1] as string;
  const frac = (match[2] ?? '').replace(/0+$/, '');
  if (frac.length > 3) return null;
  const millis = Number(whole) * MILLIS_PER_REAL + Number(frac.padEnd(3, '0'));
  return Number.isSafeInteger(millis) ? millis : null;
}

/** Whole-cent millis → the providers' dot-decimal text: 12340 → "12.34". Throws on fractions of a cent. */
export function formatMillisAsProviderAmount(amountMillis: number): string {
  if (!Number.isSafeInteger(amountMillis) || amountMillis < 0 || amountMillis % 10 !== 0) {
    throw new RangeError(`amount ${amountMillis} is not whole cents`);
  }
  const cents = amountMillis / 10;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}
