// Dates are formatted in one place for web and server: shared/src/dates.ts.
export { formatDate, formatDateTime, isoDay } from '@carteiro/shared';

/** 1.234.567 */
export function formatCount(value: number): string {
  return new Intl.NumberFormat('pt-BR').format(value);
}
