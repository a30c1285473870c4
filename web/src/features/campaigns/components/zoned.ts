/** Wall-clock helpers for the account's time zone (default America/Sao_Paulo). */
export { DEFAULT_TIME_ZONE } from '@carteiro/shared';

import { DEFAULT_TIME_ZONE } from '@carteiro/shared';

/** `YYYY-MM-DDTHH:mm` of an instant as seen in `timeZone` (for datetime-local inputs and the calendar). */
export function toZonedLocal(iso: string | Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '00';
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

/** The wall time a UTC-coerced date carries (FullCalendar with timeZone "UTC"), as `YYYY-MM-DDTHH:mm`. */
export function utcWallTime(date: Date): string {
  return date.toISOString().slice(0, 16);
}

/** The long form with the weekday and month in words ("quinta-feira, 26 de novembro…"), in the interface's language. */
export function formatInZone(iso: string, timeZone: string = DEFAULT_TIME_ZONE, locale = 'pt-BR'): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'full', timeStyle: 'short', timeZone }).format(new Date(iso));
}
