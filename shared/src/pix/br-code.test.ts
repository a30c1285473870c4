import { describe, expect, it } from 'vitest';
import { buildPixBrCode, crc16CcittFalse, InvalidPixBrCodeError, parsePixBrCode } from './br-code';

const BCB_EXAMPLE =
  '00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR5913Fulano de Tal6008BRASILIA62070503***63041D3D';

describe('Pix BR Code', () => {
  it('computes CRC-16/CCITT-FALSE check value 29B1', () => {
    expect(crc16CcittFalse('123456789')).toBe('29B1');
  });

  it('reproduces the Banco Central static example exactly (CRC 1D3D)', () => {
    const code = buildPixBrCode({
      key: '123e4567-e12b-12d1-a456-426655440000',
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
    });
    expect(code).toBe(BCB_EXAMPLE);
    expect(parsePixBrCode(BCB_EXAMPLE)).toEqual({
      key: '123e4567-e12b-12d1-a456-426655440000',
      url: null,
      pointOfInitiation: null,
      merchantName: 'Fulano de Tal',
      merchantCity: 'BRASILIA',
      amountMillis: null,
      txid: null,
      crc: '1D3D',
    });
  });

  it('transliterates accents and cuts name (25) and city (15); amount and txid round-trip', () => {
    const code = buildPixBrCode({
      key: 'pix@carteiro.com.br',
      merchantName: 'Comunicação e Serviços Ação Ltda ME',
      merchantCity: 'São Luís',
      amountMillis: 12_340,
      txid: 'ABC123xyz',
    });
    const parsed = parsePixBrCode(code);
    expect(parsed.merchantCity).toBe('SAO LUIS');
    expect(parsed.merchantName).toBe('Comunicacao e Servicos Ac');
    expect(parsed.amountMillis).toBe(12_340);
    expect(parsed.txid).toBe('ABC123xyz');
    expect(code).toContain('540512.34');
    const long = parsePixBrCode(
      buildPixBrCode({ key: 'k', merchantName: 'X', merchantCity: 'Vila Bela da Santíssima Trindade' }),
    );
    expect(long.merchantCity).toBe('VILA BELA DA SA');
  });

  it('refuses amounts that are not whole cents and bad txids', () => {
    const base = { key: 'k', merchantName: 'A', merchantCity: 'B' };
    expect(() => buildPixBrCode({ ...base, amountMillis: 10_005 })).toThrow(InvalidPixBrCodeError);
    expect(() => buildPixBrCode({ ...base, txid: 'has-dash' })).toThrow(InvalidPixBrCodeError);
    expect(() => buildPixBrCode({ ...base, txid: 'A'.repeat(26) })).toThrow(InvalidPixBrCodeError);
  });

  it('rejects a bad CRC', () => {
    expect(() => parsePixBrCode(`${BCB_EXAMPLE.slice(0, -4)}1D3E`)).toThrow(/CRC inválido/);
    // One character changed in the body: the CRC no longer matches.
    expect(() => parsePixBrCode(BCB_EXAMPLE.replace('Fulano', 'Fulana'))).toThrow(/CRC inválido/);
  });

  it('rejects bad lengths even when the CRC is valid', () => {
    // Name field claims 14 characters but carries 13; recompute the CRC so only the length is wrong.
    const body = BCB_EXAMPLE.slice(0, -4).replace('5913Fulano de Tal', '5914Fulano de Tal');
    const withCrc = body + crc16CcittFalse(body);
    expect(() => parsePixBrCode(withCrc)).toThrow(InvalidPixBrCodeError);
    // Name over 25 characters with a consistent length and CRC.
    const longName = 'N'.repeat(26);
    const body2 = BCB_EXAMPLE.slice(0, -4).replace('5913Fulano de Tal', `5926${longName}`);
    expect(() => parsePixBrCode(body2 + crc16CcittFalse(body2))).toThrow(/25 caracteres/);
    expect(() => parsePixBrCode('000201')).toThrow(InvalidPixBrCodeError);
  });
});
