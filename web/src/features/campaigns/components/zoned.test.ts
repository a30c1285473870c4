import { describe, expect, it } from 'vitest';
import { toZonedLocal, utcWallTime } from './zoned';

describe('zoned wall times', () => {
  it('shows an instant in São Paulo time', () => {
    expect(toZonedLocal('2026-03-10T12:00:00Z')).toBe('2026-03-10T09:00');
    expect(toZonedLocal('2026-01-01T02:30:00Z')).toBe('2025-12-31T23:30');
  });

  it('reads the wall time of a UTC-coerced calendar date', () => {
    expect(utcWallTime(new Date('2026-03-11T09:00:00Z'))).toBe('2026-03-11T09:00');
  });
});
