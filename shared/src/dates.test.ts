import { describe, expect, it } from 'vitest';
import { DEFAULT_TIME_ZONE } from './constants';
import { formatDate, formatDateTime, formatDateTimeBR, isoDay } from './dates';

describe('dates', () => {
  // 02:30 UTC on 1 March is still 28 February in São Paulo (UTC−3): the zone decides the day.
  const instant = '2026-03-01T02:30:00Z';

  it('formats in the account time zone, São Paulo by default', () => {
    expect(DEFAULT_TIME_ZONE).toBe('America/Sao_Paulo');
    expect(formatDate(instant)).toBe('28/02/2026');
    expect(formatDate(instant, 'UTC')).toBe('01/03/2026');
    expect(formatDateTime(instant)).toBe('28/02/2026, 23:30');
    expect(formatDateTime(new Date(instant), 'America/Manaus')).toBe('28/02/2026, 22:30');
  });

  it('writes CSV dates without a comma and on a 24-hour clock', () => {
    expect(formatDateTimeBR(instant, DEFAULT_TIME_ZONE)).toBe('28/02/2026 23:30');
    expect(formatDateTimeBR('2026-03-01T03:05:00Z', DEFAULT_TIME_ZONE)).toBe('01/03/2026 00:05');
  });

  it('gives the local calendar day for inputs and filters', () => {
    expect(isoDay(new Date(instant))).toBe('2026-02-28');
    expect(isoDay(new Date(instant), 'UTC')).toBe('2026-03-01');
  });
});
