import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyMercadoPagoSignature } from './mercado-pago';

const secret = 'mp-webhook-secret';
const now = new Date('2025-03-10T12:00:00Z');
const ts = String(Math.floor(now.getTime() / 1000));

function sign(manifest: string, key = secret): string {
  return createHmac('sha256', key).update(manifest).digest('hex');
}

describe('Mercado Pago x-signature', () => {
  const requestId = 'bb56a2f1-6aae-46ac-982e-9dcd3581d08e';
  const dataId = '123456789';
  const manifest = `id:${dataId};request-id:${requestId};ts:${ts};`;

  it('accepts the documented manifest id:<data.id>;request-id:<x-request-id>;ts:<ts>;', () => {
    expect(() =>
      verifyMercadoPagoSignature({
        secret,
        xSignature: `ts=${ts},v1=${sign(manifest)}`,
        xRequestId: requestId,
        dataId,
        now,
      }),
    ).not.toThrow();
  });

  it('rejects a wrong secret', () => {
    expect(() =>
      verifyMercadoPagoSignature({
        secret,
        xSignature: `ts=${ts},v1=${sign(manifest, 'other-secret')}`,
        xRequestId: requestId,
        dataId,
        now,
      }),
    ).toThrow(/assinatura inválida/);
  });

  it('rejects an altered id', () => {
    expect(() =>
      verifyMercadoPagoSignature({
        secret,
        xSignature: `ts=${ts},v1=${sign(manifest)}`,
        xRequestId: requestId,
        dataId: '123456780',
        now,
      }),
    ).toThrow(/assinatura inválida/);
  });

  it('rejects a stale timestamp even when correctly signed', () => {
    const old = String(Number(ts) - 6 * 60);
    const oldManifest = `id:${dataId};request-id:${requestId};ts:${old};`;
    expect(() =>
      verifyMercadoPagoSignature({
        secret,
        xSignature: `ts=${old},v1=${sign(oldManifest)}`,
        xRequestId: requestId,
        dataId,
        now,
      }),
    ).toThrow(/expirada/);
  });

  it('rejects a missing or malformed header', () => {
    expect(() =>
      verifyMercadoPagoSignature({ secret, xSignature: undefined, xRequestId: requestId, dataId, now }),
    ).toThrow();
    expect(() =>
      verifyMercadoPagoSignature({ secret, xSignature: 'ts=abc,v1=zz', xRequestId: requestId, dataId, now }),
    ).toThrow(/malformado/);
  });
});
