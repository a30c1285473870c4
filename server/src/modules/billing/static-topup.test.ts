import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { hasError, parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { ledgerEntries } from './billing.db';

describe.each(DATABASE_KINDS)('static top-ups and "simular pagamento" on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      PIX_KEY: 'pix@padaria.com.br',
      PIX_MERCHANT_NAME: 'Carteiro',
      PIX_MERCHANT_CITY: 'Belo Horizonte',
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('without a provider shows a static BR Code (key and amount) that pix-utils accepts, labelled manual', async () => {
    const owner = await signUp(t);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/topups',
      headers: owner.headers,
      payload: { amountMillis: 12_340 },
    });
    const topup = res.json();
    expect(topup).toMatchObject({ mode: 'static', canSimulatePayment: true, refundedMillis: 0 });
    const parsed = parsePix(topup.brCode);
    expect(hasError(parsed)).toBe(false);
    expect(parsed).toMatchObject({
      type: 'STATIC',
      pixKey: 'pix@padaria.com.br',
      transactionAmount: 12.34,
      txid: topup.txid,
      merchantCity: 'BELO HORIZONTE',
    });
  });

  it('simulates a payment in development through the same credit path: balance rises once, the ledger says Recarga', async () => {
    const owner = await signUp(t);
    const topup = (
      await t.app.inject({
        method: 'POST',
        url: '/api/billing/topups',
        headers: owner.headers,
        payload: { amountMillis: 50_000 },
      })
    ).json();
    const simulate = () =>
      t.app.inject({ method: 'POST', url: `/api/billing/topups/${topup.id}/simulate-payment`, headers: owner.headers });
    const paid = await simulate();
    expect(paid.statusCode).toBe(200);
    expect(paid.json()).toMatchObject({ status: 'paid', canSimulatePayment: false });
    const again = await simulate();
    expect(again.statusCode).toBe(409);
    const balance = (await t.app.inject({ method: 'GET', url: '/api/billing/balance', headers: owner.headers })).json();
    expect(balance.balanceMillis).toBe(50_000);
    const rows = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, owner.accountId));
    expect(rows.map((r) => [r.kind, r.amountMillis, r.topupId])).toEqual([['topup', 50_000, topup.id]]);
    // Another account cannot pay someone else's top-up.
    const stranger = await signUp(t);
    const other = await t.app.inject({
      method: 'POST',
      url: `/api/billing/topups/${topup.id}/simulate-payment`,
      headers: stranger.headers,
    });
    expect(other.statusCode).toBe(404);
  });
});

describe('"simular pagamento" in production', () => {
  it('does not exist', async () => {
    const t = await createTestApp('pglite', { NODE_ENV: 'production' });
    try {
      const res = await t.app.inject({ method: 'POST', url: `/api/billing/topups/${randomUUID()}/simulate-payment` });
      expect(res.statusCode).toBe(404);
      const dev = await t.app.inject({ method: 'GET', url: `/api/billing/topups/${randomUUID()}` });
      expect(dev.statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});
