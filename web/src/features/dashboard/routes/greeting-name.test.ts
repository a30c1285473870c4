import { describe, expect, it } from 'vitest';
import { greetingName } from './dashboard-home-page';

describe('greetingName', () => {
  it('greets a person by the first name, and a business typed as the name in full', () => {
    expect(greetingName('Maria Teste', 'Padaria Pão Quente')).toBe('Maria');
    expect(greetingName('Padaria Pão Quente', 'Padaria Pão Quente')).toBe('Padaria Pão Quente');
    expect(greetingName('  Ana  ', undefined)).toBe('Ana');
  });
});
