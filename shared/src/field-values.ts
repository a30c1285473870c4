/**
 * Typed custom-field columns of a CSV import (texto, número, data). A custom field is stored as text; a typed
 * column is checked and stored in one plain form, so what reads it later (the birthday automation's date match,
 * segments) finds one spelling: dates as AAAA-MM-DD, numbers as `1234.56`. A cell that is not a value of its
 * type refuses its row with the reason, in the import's report of rejected rows.
 */

export const FIELD_TYPE_VALUES = ['text', 'number', 'date'] as const;
export type FieldType = (typeof FIELD_TYPE_VALUES)[number];

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

type DateReading = { iso: string } | { problem: 'format' | 'calendar' };

/** Reads `dd/mm/aaaa` (also `d/m/aaaa`, as Excel writes it) or `AAAA-MM-DD`; a day the calendar lacks is refused. */
function readDate(text: string): DateReading {
  const trimmed = text.trim();
  const br = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(trimmed);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(trimmed);
  if (!br && !iso) return { problem: 'format' };
  const [day, month, year] = br
    ? [Number(br[1]), Number(br[2]), Number(br[3])]
    : [Number(iso?.[3]), Number(iso?.[2]), Number(iso?.[1])];
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    return { problem: 'calendar' };
  }
  return { iso: `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}` };
}

/** AAAA-MM-DD of a real date written `dd/mm/aaaa` or `AAAA-MM-DD`; null otherwise (`31/02/2000` included). */
export function parseFieldDate(text: string): string | null {
  const reading = readDate(text);
  return 'iso' in reading ? reading.iso : null;
}

/**
 * A stored field value as people read it: a date kept as AAAA-MM-DD (a typed import column) reads dd/mm/aaaa, in
 * the contact's page and in the contacts CSV (which imports back to the same date); anything else as stored.
 */
export function displayFieldValue(value: string): string {
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  return iso && parseFieldDate(value) ? `${iso[3]}/${iso[2]}/${iso[1]}` : value;
}

/**
 * A number as a Brazilian writes it (`1.234,56`, `1.000`, `1,5`) or plain (`1234.56`), optionally negative, as
 * plain decimal text (`1234.56`); null otherwise. Dots alone in groups of three are thousands (`1.000` is a
 * thousand, as in the pricing calculator); a comma is always the decimal mark.
 */
export function parseFieldNumber(text: string): string | null {
  const trimmed = text.trim().replace(/^R\$\s*/, '');
  const match = /^(-?)(.*)$/.exec(trimmed) as RegExpExecArray;
  const sign = match[1];
  const body = match[2] as string;
  let plain: string;
  if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(body) || /^\d+(,\d+)?$/.test(body)) {
    plain = body.replace(/\./g, '').replace(',', '.');
  } else if (/^\d+\.\d+$/.test(body)) {
    plain = body;
  } else {
    return null;
  }
  // One spelling: no leading zeros, no trailing decimal zeros, no "-0".
  const [whole = '0', fraction = ''] = plain.split('.');
  const wholePart = whole.replace(/^0+(?=\d)/, '');
  const fractionPart = fraction.replace(/0+$/, '');
  const value = fractionPart ? `${wholePart}.${fractionPart}` : wholePart;
  return sign && /[1-9]/.test(value) ? `-${value}` : value;
}

/**
 * The value stored for a non-empty cell of a typed column, or the pt-BR reason the row is refused (the column is
 * named as in the file).
 */
export function typedFieldValue(
  type: FieldType,
  cell: string,
  column: string,
): { value: string; problem?: undefined } | { problem: string; value?: undefined } {
  if (type === 'date') {
    const reading = readDate(cell);
    if ('iso' in reading) return { value: reading.iso };
    return {
      problem:
        reading.problem === 'calendar'
          ? `Data que não existe (coluna ${column}): ${cell.trim()}`
          : `Data inválida (coluna ${column}): ${cell.trim()} — use dd/mm/aaaa`,
    };
  }
  if (type === 'number') {
    const value = parseFieldNumber(cell);
    return value === null
      ? { problem: `Número inválido (coluna ${column}): ${cell.trim()} — use 1.234,56 ou 1234.56` }
      : { value };
  }
  return { value: cell };
}
