/**
 * Money in Carteiro is an integer number of millis of a real (1 milli = R$ 0,001).
 * No float ever touches an amount: every function here takes and returns integers.
 */

/** Default price of one e-mail: R$ 0,005. */
export const PRICE_PER_EMAIL_MILLIS = 5;

export const MILLIS_PER_REAL = 1000;

/** Cost in millis of sending `emailCount` e-mails at `priceMillis` each (an account's negotiated price, or the default). */
export function costOfEmailsMillis(emailCount: number, priceMillis: number = PRICE_PER_EMAIL_MILLIS): number {
  if (!Number.isSafeInteger(emailCount) || emailCount < 0) {
    throw new RangeError('emailCount must be a non-negative integer');
  }
  if (!Number.isSafeInteger(priceMillis) || priceMillis < 0) {
    throw new RangeError('priceMillis must be a non-negative integer');
  }
  const cost = emailCount * priceMillis;
  if (!Number.isSafeInteger(cost)) throw new RangeError('cost exceeds the safe integer range');
  return cost;
}

/** How many whole e-mails `balanceMillis` pays for at `priceMillis` each. */
export function emailsPaidBy(balanceMillis: number, priceMillis: number = PRICE_PER_EMAIL_MILLIS): number {
  if (priceMillis <= 0) return 0;
  return Math.floor(Math.max(0, balanceMillis) / priceMillis);
}

/**
 * Formats millis as pt-BR BRL, exact: two decimals when the amount is whole cents, three otherwise.
 * 5 → "R$ 0,005", 15 → "R$ 0,015", 5000 → "R$ 5,00", 5_000_000 → "R$ 5.000,00".
 * Built from integer parts (not Intl on a float) so huge amounts never round.
 */
export function formatBRL(millis: number): string {
  if (!Number.isSafeInteger(millis)) throw new RangeError('millis must be a safe integer');
  const negative = millis < 0;
  const abs = Math.abs(millis);
  const reais = Math.floor(abs / MILLIS_PER_REAL);
  const fraction = abs % MILLIS_PER_REAL;
  const grouped = String(reais).replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  const decimals = fraction % 10 === 0 ? String(fraction / 10).padStart(2, '0') : String(fraction).padStart(3, '0');
  // U+00A0 (no-break space) after "R$", as Intl's pt-BR formatter writes it.
  return `${negative ? '-' : ''}R$\u00a0${grouped},${decimals}`;
}

/**
 * An amount in millis as pt-BR BRL currency, rounded to whole cents (half up: R$ 61,725 → "R$ 61,73"), the way
 * Intl's pt-BR currency formatter shows money. For display estimates only (the landing calculator, ADR 0017):
 * wherever money is booked, the exact millis stay and `formatBRL` shows them.
 */
export function formatBRLCurrency(millis: number): string {
  if (!Number.isSafeInteger(millis)) throw new RangeError('millis must be a safe integer');
  const sign = millis < 0 ? -1 : 1;
  const cents = Math.floor((Math.abs(millis) + 5) / 10);
  return formatBRL(sign * cents * 10);
}

/** True when an amount in millis is not a whole number of cents (its currency display is rounded). */
export function hasFractionOfCent(millis: number): boolean {
  return millis % 10 !== 0;
}

/**
 * Parses a pt-BR or plain decimal amount in reais ("10", "10,50", "1.234,567", "10.5") into millis.
 * Returns null when the text is not an amount with at most 3 decimals.
 */
export function parseReaisToMillis(text: string): number | null {
  const trimmed = text.trim().replace(/^R\$\s*/, '');
  let normalised: string;
  if (/^\d{1,3}(\.\d{3})+(,\d{1,3})?$/.test(trimmed) || /^\d+(,\d{1,3})?$/.test(trimmed)) {
    normalised = trimmed.replace(/\./g, '').replace(',', '.');
  } else if (/^\d+(\.\d{1,3})?$/.test(trimmed)) {
    normalised = trimmed;
  } else {
    return null;
  }
  const [whole, frac = ''] = normalised.split('.');
  const millis = Number(whole) * MILLIS_PER_REAL + Number(frac.padEnd(3, '0'));
  return Number.isSafeInteger(millis) ? millis : null;
}

/**
 * The landing-page calculator: the text typed → cost in millis. A count is written as a Brazilian writes it:
 * `1000`, or with dots between groups of three (`1.000`, `1.000.000`). Empty counts as 0; negatives, fractions
 * (`1,5`, `1.5`) and non-numbers are rejected (null).
 */
export function calculatorCostMillis(input: string, priceMillis: number = PRICE_PER_EMAIL_MILLIS): number | null {
  const trimmed = input.trim();
  if (trimmed === '') return 0;
  if (!/^(\d+|\d{1,3}(\.\d{3})+)$/.test(trimmed)) return null;
  const count = Number(trimmed.replaceAll('.', ''));
  if (!Number.isSafeInteger(count)) return null;
  return costOfEmailsMillis(count, priceMillis);
}
