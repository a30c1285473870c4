import { describe, expect, it } from 'vitest';
import { BRAZIL_TIME_ZONES, OTHER_TIME_ZONES, timeZoneLabel } from './time-zones';

describe('timeZoneLabel', () => {
  const july = new Date('2026-07-01T12:00:00Z');
  it('names São Paulo as Horário de Brasília and other zones by region and offset, never the raw id', () => {
    expect(timeZoneLabel('America/Sao_Paulo')).toBe('Horário de Brasília');
    expect(timeZoneLabel('America/Manaus', july)).toBe('Amazonas (Manaus) · GMT−4');
    expect(timeZoneLabel('America/Noronha', july)).toBe('Fernando de Noronha · GMT−2');
    expect(timeZoneLabel('America/New_York', july)).toBe('Estados Unidos (Nova York) · GMT−4');
    expect(timeZoneLabel('Europe/Lisbon', july)).toBe('Portugal (Lisboa) · GMT+1');
    expect(timeZoneLabel('UTC')).toBe('Tempo universal (UTC)');
    // A zone outside both lists (kept by an account) reads by its city, without the underscores.
    expect(timeZoneLabel('America/Port_of_Spain', july)).toBe('Port of Spain · GMT−4');
    for (const zone of [...BRAZIL_TIME_ZONES, ...OTHER_TIME_ZONES]) expect(timeZoneLabel(zone)).not.toMatch(/\/|_/);
  });

  it('offers a short list after Brazil: every zone real, none repeated, none of Brazil', () => {
    expect(OTHER_TIME_ZONES.length).toBeLessThan(25);
    expect(new Set(OTHER_TIME_ZONES).size).toBe(OTHER_TIME_ZONES.length);
    for (const zone of OTHER_TIME_ZONES) {
      expect(BRAZIL_TIME_ZONES).not.toContain(zone);
      expect(() => new Intl.DateTimeFormat('pt-BR', { timeZone: zone })).not.toThrow();
    }
  });
});
