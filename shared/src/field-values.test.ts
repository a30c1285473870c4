import { describe, expect, it } from 'vitest';
import { displayFieldValue, parseFieldDate, parseFieldNumber, typedFieldValue } from './field-values';

describe('typed custom-field values', () => {
  it('shows a stored date as dd/mm/aaaa and everything else as stored', () => {
    expect(displayFieldValue('1985-07-04')).toBe('04/07/1985');
    expect(parseFieldDate(displayFieldValue('1985-07-04'))).toBe('1985-07-04');
    for (const kept of ['2000-02-31', '12/03/1990', '01310-100', '1234.56', 'Recife', '']) {
      expect(displayFieldValue(kept), kept).toBe(kept);
    }
  });

  it('reads dd/mm/aaaa and AAAA-MM-DD as the ISO day, refusing days the calendar lacks', () => {
    expect(parseFieldDate('15/03/1985')).toBe('1985-03-15');
    expect(parseFieldDate(' 5/3/1990 ')).toBe('1990-03-05');
    expect(parseFieldDate('1992-02-29')).toBe('1992-02-29');
    expect(parseFieldDate('29/02/2000')).toBe('2000-02-29');
    for (const bad of ['31/02/2000', '29/02/1900', '31/04/2020', '00/01/2020', '10/13/2020', '1993-02-29']) {
      expect(parseFieldDate(bad), bad).toBeNull();
    }
    for (const bad of ['15/03/85', '15-03-1985', '1985/03/15', 'março', '15/03']) {
      expect(parseFieldDate(bad), bad).toBeNull();
    }
  });

  it('reads Brazilian and plain numbers into one spelling', () => {
    expect(parseFieldNumber('1.234,56')).toBe('1234.56');
    expect(parseFieldNumber('1.000')).toBe('1000');
    expect(parseFieldNumber('1,5')).toBe('1.5');
    expect(parseFieldNumber('1234.50')).toBe('1234.5');
    expect(parseFieldNumber('R$ 10,00')).toBe('10');
    expect(parseFieldNumber('-3,50')).toBe('-3.5');
    expect(parseFieldNumber('-0')).toBe('0');
    expect(parseFieldNumber('007')).toBe('7');
    for (const bad of ['dez', '1,234.56', '1.2.3', '', '1,', ',5', '12 345']) {
      expect(parseFieldNumber(bad), bad).toBeNull();
    }
  });

  it('says why a cell is refused, naming the column; text passes as written', () => {
    expect(typedFieldValue('date', '31/02/2000', 'Aniversário')).toEqual({
      problem: 'Data que não existe (coluna Aniversário): 31/02/2000',
    });
    expect(typedFieldValue('date', '2000/02/01', 'Aniversário').problem).toContain('use dd/mm/aaaa');
    expect(typedFieldValue('number', 'dez', 'Total').problem).toBe(
      'Número inválido (coluna Total): dez — use 1.234,56 ou 1234.56',
    );
    expect(typedFieldValue('text', '31/02/2000', 'obs')).toEqual({ value: '31/02/2000' });
  });
});
