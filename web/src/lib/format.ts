/** dd/mm/aaaa in the account's time zone. */
export function formatDate(iso: string, timeZone = 'America/Sao_Paulo'): string {
  return new Intl.DateTimeFormat('pt-BR', { timeZone, day: '2-digit', month: '2-digit', year: 'numeric' }).format(
    new Date(iso),
  );
}

/** dd/mm/aaaa hh:mm in the account's time zone. */
export function formatDateTime(iso: string, timeZone = 'America/Sao_Paulo'): string {
  return new Intl.DateTimeFormat('pt-BR', {
    timeZone,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  }).format(new Date(iso));
}

/** 1.234.567 */
export function formatCount(value: number): string {
  return new Intl.NumberFormat('pt-BR').format(value);
}

/** AAAA-MM-DD of `date` in the time zone (for date inputs and API filters). */
export function isoDay(date: Date, timeZone = 'America/Sao_Paulo'): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(date);
  return parts;
}
