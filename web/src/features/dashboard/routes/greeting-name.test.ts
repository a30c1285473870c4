import { describe, expect, it } from 'vitest';
import { greetingName, rateWindowStart } from './dashboard-home-page';

describe('greetingName', () => {
  it("greets by the person's first name, and by nothing when there is no name", () => {
    expect(greetingName('Ana Souza')).toBe('Ana');
    expect(greetingName('  Maria   Teste ')).toBe('Maria');
    expect(greetingName('   ')).toBe('');
  });
});

describe('rateWindowStart', () => {
  const now = new Date('2026-11-25T15:00:00Z');
  it('starts the rates at the account’s creation when it is newer than the previous month', () => {
    expect(rateWindowStart('2026-11-25T13:00:00Z', 'America/Sao_Paulo', now)).toBe('25/11/2026');
  });
  it('else at the first day of the previous month', () => {
    expect(rateWindowStart('2025-02-01T10:00:00Z', 'America/Sao_Paulo', now)).toBe('01/10/2026');
    expect(rateWindowStart(undefined, 'America/Sao_Paulo', now)).toBe('01/10/2026');
  });
});
