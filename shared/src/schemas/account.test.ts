import { describe, expect, it } from 'vitest';
import { accountUpdateSchema, formatTaxId, isValidCnpj, isValidCpf } from './account';

describe('CPF / CNPJ check digits', () => {
  it('accepts valid and refuses invalid numbers', () => {
    expect(isValidCpf('529.982.247-25')).toBe(true);
    expect(isValidCpf('52998224726')).toBe(false);
    expect(isValidCpf('11111111111')).toBe(false);
    expect(isValidCnpj('11.222.333/0001-81')).toBe(true);
    expect(isValidCnpj('11222333000182')).toBe(false);
    expect(isValidCnpj('00000000000000')).toBe(false);
  });

  it('formats and normalises', () => {
    expect(formatTaxId('52998224725')).toBe('529.982.247-25');
    expect(formatTaxId('11222333000181')).toBe('11.222.333/0001-81');
    expect(accountUpdateSchema.parse({ taxId: '11.222.333/0001-81' }).taxId).toBe('11222333000181');
    expect(accountUpdateSchema.parse({ taxId: '' }).taxId).toBeNull();
    expect(accountUpdateSchema.parse({}).taxId).toBeUndefined();
    expect(accountUpdateSchema.safeParse({ taxId: '123' }).success).toBe(false);
  });
});
