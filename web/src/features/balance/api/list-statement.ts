import type { StatementDto, StatementPeriod } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

export type { StatementPeriod };

export const statementQueryKey = (period: StatementPeriod) => ['billing', 'statement', period] as const;

function periodParams(period: StatementPeriod): URLSearchParams {
  const params = new URLSearchParams();
  if (period.from) params.set('from', period.from);
  if (period.to) params.set('to', period.to);
  return params;
}

/** One page of the extrato (newest first, with running balance); pass the previous page's nextCursor. */
export function listStatement(period: StatementPeriod, cursor?: number, signal?: AbortSignal): Promise<StatementDto> {
  const params = periodParams(period);
  params.set('limit', '50');
  if (cursor) params.set('cursor', String(cursor));
  return apiFetch<StatementDto>(`/api/billing/statement?${params}`, { signal });
}

/** The CSV export of the extrato for the period (a download link, same cookie session). */
export function statementCsvUrl(period: StatementPeriod): string {
  const query = periodParams(period).toString();
  return `/api/billing/statement.csv${query ? `?${query}` : ''}`;
}
