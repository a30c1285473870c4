import { describe, expect, it } from 'vitest';
import { BRAZIL_TIME_ZONES, timeZoneLabel } from './time-zones';

describe('timeZoneLabel', () => {
  const july = new Date('2026-07-01T12:00:00Z');
  it('names São Paulo as Horário de Brasília and other zones by region and offset, never the raw id', () => {
    expect(timeZoneLabel('America/Sao_Paulo')).toBe('Horário de Brasília');
    expect(timeZoneLabel('America/Manaus', july)).toBe('Amazonas (Manaus) · GMT−4');
    expect(timeZoneLabel('America/Noronha', july)).toBe('Fernando de Noronha · GMT−2');
    expect(timeZoneLabel('America/New_York', july)).toBe('New York · GMT−4');
    for (const zone of BRAZIL_TIME_ZONES) expect(timeZoneLabel(zone)).not.toMatch(/America\/|_/);
  });
});
