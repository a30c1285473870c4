import { randomUUID } from 'node:crypto';
import { parsePixBrCode } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import { hasError, parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeMercadoPago, startFakeMercadoPago } from '../../../../test/support/fake-mercado-pago';
import { signUp } from '../../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../../test/support/test-database';
import { ledgerEntries, topups } from '../billing.db';
import { reconcileTopups } from '../reconcile-topups';
import type { PaymentProvider } from './payment-provider';
import { createPaymentProviders } from './providers';

const OPERATOR_EMAIL = 'operador-mp@carteiro.local';

describe.each(DATABASE_KINDS)('top-ups through Mercado Pago (fake API) on %s', (kind) => {
  let t: TestApp;
  let mp: FakeMercadoPago;
  let provider: PaymentProvider;
  let operatorHeaders: Record<string, string>;

  beforeAll(async () => {
    mp = await startFakeMercadoPago();
    t = await createTestApp(kind, {
      ADMIN_EMAILS: OPERATOR_EMAIL,
      PAYMENT_PROVIDER: 'mercadopago',
      PAYMENT_RECONCILE_SECONDS: '0',
      MERCADO_PAGO_API_URL: mp.apiUrl,
      MERCADO_PAGO_ACCESS_TOKEN: mp.accessToken,
      MERCADO_PAGO_WEBHOOK_SECRET: mp.webhookSecret,
    });
    const active = createPaymentProviders(t.config).active;
    if (!active) throw new Error('mercadopago provider not configured');
    provider = active;
    operatorHeaders = (await signUp(t, { email: OPERATOR_EMAIL, verified: true })).headers;
  });
  afterAll(async () => {
    await t.close();
    await mp.close();
  });

  const createTopup = async (headers: Record<string, string>, amountMillis: number) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/topups', headers, payload: { amountMillis } });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; txid: string; brCode: string; mode: string };
  };
  const notify = (paymentId: string, secret?: string) => {
    const n = mp.notification(paymentId, { secret });
    return t.app.inject({ method: 'POST', url: n.url, headers: n.headers, payload: n.payload });
  };
  const balance = async (headers: Record<string, string>) =>
    (await t.app.inject({ method: 'GET', url: '/api/billing/balance', headers })).json().balanceMillis as number;
  const kinds = async (accountId: string) => {
    const rows = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.accountId, accountId))
      .orderBy(ledgerEntries.seq);
    let running = 0;
    for (const r of rows) {
      running += r.amountMillis;
      expect(r.balanceAfterMillis).toBe(running);
    }
    return rows.map((r) => `${r.kind}:${r.amountMillis}`);
  };

  it('creates a Pix payment (external_reference = txid, idempotency key) whose qr_code pix-utils accepts; credits it once', async () => {
    const owner = await signUp(t);
    const topup = await createTopup(owner.headers, 12_340);
    expect(topup.mode).toBe('dynamic');
    const paymentId = mp.paymentIdFor(topup.txid);
    const payment = mp.payments.get(paymentId);
    expect(payment).toMatchObject({ transaction_amount: 12.34, external_reference: topup.txid, status: 'pending' });
    expect(topup.brCode).toBe(payment?.point_of_interaction?.transaction_data?.qr_code);
    const parsed = parsePix(topup.brCode);
    expect(hasError(parsed)).toBe(false);
    expect(parsed).toMatchObject({ type: 'DYNAMIC' });
    expect(parsePixBrCode(topup.brCode).pointOfInitiation).toBe('12');

    // Pending notification (status update) first: nothing; then paid: twice at once and again out of order.
    expect((await notify(paymentId)).json().outcome).toBe('ignored');
    mp.pay(paymentId);
    expect((await notify(paymentId, 'segredo-forjado')).statusCode).toBe(401);
    const twice = await Promise.all([notify(paymentId), notify(paymentId)]);
    expect(twice.map((r) => r.json().outcome).sort()).toEqual(['credited', 'duplicate']);
    expect((await notify(paymentId)).json().outcome).toBe('duplicate');
    expect(await balance(owner.headers)).toBe(12_340);
    expect(await kinds(owner.accountId)).toEqual(['topup:12340']);
  });

  it('reads JSON-number amounts exactly: R$ 1,234 is one real, not one thousand; a mismatch goes to review', async () => {
    const owner = await signUp(t);
    const topup = await createTopup(owner.headers, 10_000);
    const paymentId = mp.paymentIdFor(topup.txid);
    mp.pay(paymentId, { amount: 1.234 });
    expect((await notify(paymentId)).json().outcome).toBe('review');
    const [row] = await t.database.db.select().from(topups).where(eq(topups.id, topup.id));
    expect(row?.reviewReason).toBe('Valor pago R$\u00a01,234 diferente do valor da recarga R$\u00a010,00.');
    expect(row?.providerReport).toMatchObject({ amountMillis: 1_234 });
    expect(await balance(owner.headers)).toBe(0);
  });

  it('reconciliation credits a payment whose webhook was dropped and expires one never paid', async () => {
    const owner = await signUp(t);
    const dropped = await createTopup(owner.headers, 20_000);
    const unpaid = await createTopup(owner.headers, 30_000);
    mp.pay(mp.paymentIdFor(dropped.txid));
    mp.expire(mp.paymentIdFor(unpaid.txid));
    const report = await reconcileTopups(t.database.db, provider);
    expect(report).toMatchObject({ credited: 1, expired: 1, errors: 0 });
    expect((await reconcileTopups(t.database.db, provider)).credited).toBe(0);
    expect(await balance(owner.headers)).toBe(20_000);
    expect(await kinds(owner.accountId)).toEqual(['topup:20000']);
  });

  it('refunds part of a payment through POST /v1/payments/:id/refunds, once', async () => {
    const owner = await signUp(t);
    const topup = await createTopup(owner.headers, 40_000);
    const paymentId = mp.paymentIdFor(topup.txid);
    mp.pay(paymentId);
    await notify(paymentId);
    const requestKey = randomUUID();
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/topups/${topup.id}/refunds`,
        headers: operatorHeaders,
        payload: { amountMillis: 15_000, reason: 'Devolução parcial combinada', requestKey },
      });
    const first = await send();
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ status: 'done', amountMillis: 15_000 });
    expect((await send()).statusCode).toBe(200);
    expect(mp.refunds).toHaveLength(1);
    expect(mp.refunds[0]).toMatchObject({ amount: 15, payment_id: Number(paymentId) });
    expect(await balance(owner.headers)).toBe(25_000);
    expect(await kinds(owner.accountId)).toEqual(['topup:40000', 'refund:-15000']);
  });
});
