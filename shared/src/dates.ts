import { DEFAULT_TIME_ZONE } from './constants';

/**
 * The one place dates and times become text for people (web and server): pt-BR, in the account's time zone
 * (`DEFAULT_TIME_ZONE` when it has none). Instants travel as ISO 8601 strings or Dates; nothing here reads the clock.
 */

/** dd/mm/aaaa in the time zone. */
export function formatDate(iso: string | Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  return new Intl.DateTimeFormat('pt-BR', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(
    new Date(iso),
  );
}

/** dd/mm/aaaa, hh:mm in the time zone (the dashboard's form). */
export function formatDateTime(iso: string | Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  return new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** `dd/mm/aaaa hh:mm` (24 h, no comma) of an instant in a time zone, as people write dates in Brazil (CSV files). */
export function formatDateTimeBR(date: Date | string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(typeof date === 'string' ? new Date(date) : date);
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')}`;
}

/** AAAA-MM-DD of `date` in the time zone (for date inputs and API filters). */
export function isoDay(date: Date, timeZone: string = DEFAULT_TIME_ZONE): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(date);
}
