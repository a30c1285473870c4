import { describe, expect, it } from 'vitest';
import { reportCsvFileName } from './reports';

describe('the per-recipient export file name', () => {
  it('is the campaign name in plain letters and the São Paulo day', () => {
    expect(reportCsvFileName('Promoção de Natal — 20% OFF!', new Date('2026-11-26T01:30:00Z'))).toBe(
      'relatorio-promocao-de-natal-20-off-2026-11-25.csv',
    );
    expect(reportCsvFileName('***', new Date('2026-11-26T12:00:00Z'))).toBe('relatorio-campanha-2026-11-26.csv');
  });
});
