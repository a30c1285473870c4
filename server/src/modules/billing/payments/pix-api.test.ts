import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import https from 'node:https';
import os from 'node:os';
import path from 'node:path';
import { parsePixBrCode } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import { hasError, parsePix } from 'pix-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePixPsp, startFakePixPsp } from '../../../../test/support/fake-pix-psp';
import { signUp } from '../../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../../test/support/test-database';
import { ledgerEntries, topupRefunds, topups } from '../billing.db';
import { reconcileTopups } from '../reconcile-topups';
import type { PaymentProvider } from './payment-provider';
import { createPaymentProviders } from './providers';

const OPERATOR_EMAIL = 'operador-pix@carteiro.local';
const WEBHOOK_TOKEN = 'tokenSecretoDoWebhookPix_0123456789';

describe.each(DATABASE_KINDS)('top-ups through the BCB Pix API (fake PSP with mTLS) on %s', (kind) => {
  let t: TestApp;
  let psp: FakePixPsp;
  let provider: PaymentProvider;
  let operatorHeaders: Record<string, string>;
  let secretDir: string;

  beforeAll(async () => {
    psp = await startFakePixPsp({ merchantName: 'Carteiro Serviços', merchantCity: 'São Luís' });
    secretDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-secret-'));
    const secretFile = path.join(secretDir, 'client-secret');
    fs.writeFileSync(secretFile, `${psp.clientSecret}\n`);
    t = await createTestApp(kind, {
      ADMIN_EMAILS: OPERATOR_EMAIL,
      PAYMENT_PROVIDER: 'pix-api',
      PAYMENT_RECONCILE_SECONDS: '0',
      PIX_KEY: 'financeiro@carteiro.com.br',
      PIX_MERCHANT_NAME: 'Carteiro Serviços',
      PIX_MERCHANT_CITY: 'São Luís',
      PIX_API_BASE_URL: psp.baseUrl,
      PIX_API_TOKEN_URL: psp.tokenUrl,
      PIX_API_CLIENT_ID: psp.clientId,
      PIX_API_CLIENT_SECRET_FILE: secretFile,
      PIX_API_CERT_FILE: psp.pki.clientCertFile,
      PIX_API_KEY_FILE: psp.pki.clientKeyFile,
      PIX_API_CA_FILE: psp.pki.caCertFile,
      PIX_API_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
    });
    const active = createPaymentProviders(t.config).active;
    if (!active) throw new Error('pix-api provider not configured');
    provider = active;
    operatorHeaders = (await signUp(t, { email: OPERATOR_EMAIL, verified: true })).headers;
  });
  afterAll(async () => {
    await t.close();
    await psp.close();
    fs.rmSync(secretDir, { recursive: true, force: true });
  });

  const createTopup = async (headers: Record<string, string>, amountMillis: number) => {
    const res = await t.app.inject({ method: 'POST', url: '/api/billing/topups', headers, payload: { amountMillis } });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; txid: string; brCode: string; status: string; mode: string };
  };
  const webhook = (body: unknown, token = WEBHOOK_TOKEN) =>
    t.app.inject({
      method: 'POST',
      url: `/api/webhooks/pix-api/${token}/pix`,
      headers: { 'content-type': 'application/json' },
      payload: body as object,
    });
  const balance = async (headers: Record<string, string>) =>
    (await t.app.inject({ method: 'GET', url: '/api/billing/balance', headers })).json().balanceMillis as number;
  /** The ledger of the account, exact: its entries sum to the cached balance, each running balance is right. */
  const ledgerOf = async (accountId: string) => {
    const rows = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.accountId, accountId))
      .orderBy(ledgerEntries.seq);
    let running = 0;
    for (const row of rows) {
      running += row.amountMillis;
      expect(row.balanceAfterMillis).toBe(running);
    }
    return { rows, sum: running, kinds: rows.map((r) => `${r.kind}:${r.amountMillis}`) };
  };

  it('creates a cob over mTLS with an OAuth2 token; its copia e cola is a dynamic BR Code pix-utils accepts', async () => {
    const owner = await signUp(t);
    const topup = await createTopup(owner.headers, 25_000);
    expect(topup.mode).toBe('dynamic');
    expect(topup.txid).toMatch(/^[A-Za-z0-9]{26,35}$/);
    const cob = psp.cobs.get(topup.txid);
    expect(cob?.valor.original).toBe('25.00');
    expect(cob?.chave).toBe('financeiro@carteiro.com.br');
    expect(cob?.calendario.expiracao).toBe(t.config.TOPUP_EXPIRY_MINUTES * 60);
    expect(psp.tokensIssued).toBeGreaterThanOrEqual(1);

    const parsed = parsePix(topup.brCode);
    expect(hasError(parsed)).toBe(false);
    expect(parsed).toMatchObject({ type: 'DYNAMIC', url: cob?.location, merchantCity: 'SAO LUIS' });
    expect(parsePixBrCode(topup.brCode).pointOfInitiation).toBe('12');
    // One altered character and the CRC no longer checks.
    expect(hasError(parsePix(topup.brCode.replace('SAO LUIS', 'SAO LUIZ')))).toBe(true);

    // The PSP refuses a client without a certificate from its CA, and a call without a token.
    const rogue = new https.Agent({
      cert: psp.pki.read(psp.pki.rogueCertFile),
      key: psp.pki.read(psp.pki.rogueKeyFile),
      ca: psp.pki.read(psp.pki.caCertFile),
    });
    const refusedBefore = psp.refused.tls;
    await expect(
      new Promise((resolve, reject) => {
        https.get(`${psp.baseUrl}/cob/${topup.txid}`, { agent: rogue }, resolve).on('error', reject);
      }),
    ).rejects.toThrow();
    expect(psp.refused.tls).toBeGreaterThan(refusedBefore);
    const mtls = new https.Agent({
      cert: psp.pki.read(psp.pki.clientCertFile),
      key: psp.pki.read(psp.pki.clientKeyFile),
      ca: psp.pki.read(psp.pki.caCertFile),
    });
    const status = await new Promise<number>((resolve, reject) => {
      https
        .get(`${psp.baseUrl}/cob/${topup.txid}`, { agent: mtls }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });
    expect(status).toBe(401);
  });

  it('credits each paid charge once: webhooks twice, concurrently, out of order; forged ones refused', async () => {
    const owner = await signUp(t);
    const a = await createTopup(owner.headers, 10_000);
    const b = await createTopup(owner.headers, 30_000);
    const pixA = psp.pay(a.txid);
    const pixB = psp.pay(b.txid);

    // Forged: wrong address token → 401; right token but an invented Pix (other e2e id, bigger amount) → nothing.
    expect((await webhook(psp.callback(pixA), 'tokenErradoDoWebhookPix_000000000000')).statusCode).toBe(401);
    const invented = { ...pixA, endToEndId: 'E00000000202501011200abcdefabcdef', valor: '9999.00' };
    const forged = await webhook(psp.callback(invented));
    expect(forged.statusCode).toBe(200);
    expect(forged.json().outcome).toBe('ignored');
    const unknownTxid = await webhook(psp.callback({ ...pixA, txid: 'X'.repeat(30) }));
    expect(unknownTxid.json().outcome).toBe('ignored');
    expect(await balance(owner.headers)).toBe(0);

    // Out of order (B before A), then A delivered twice at once and once more.
    expect((await webhook(psp.callback(pixB))).json().outcome).toBe('credited');
    const twice = await Promise.all([webhook(psp.callback(pixA)), webhook(psp.callback(pixA))]);
    expect(twice.map((r) => r.json().outcome).sort()).toEqual(['credited', 'duplicate']);
    expect((await webhook(psp.callback(pixA, pixB))).json().outcomes).toEqual(['duplicate', 'duplicate']);

    expect(await balance(owner.headers)).toBe(40_000);
    const ledger = await ledgerOf(owner.accountId);
    expect(ledger.kinds).toEqual(['topup:30000', 'topup:10000']);
    expect(ledger.sum).toBe(40_000);
    const page = await t.app.inject({ method: 'GET', url: `/api/billing/topups/${a.id}`, headers: owner.headers });
    expect(page.json()).toMatchObject({ status: 'paid', mode: 'dynamic' });
    const receipt = await t.app.inject({
      method: 'GET',
      url: `/api/billing/topups/${a.id}/receipt`,
      headers: owner.headers,
    });
    expect(receipt.json()).toMatchObject({ provider: 'pix-api', providerPaymentId: pixA.endToEndId });
  });

  it('reconciliation recovers a dropped webhook, expires unpaid charges, credits a late payment, sends a wrong amount to review', async () => {
    const owner = await signUp(t);
    const dropped = await createTopup(owner.headers, 10_000);
    const unpaid = await createTopup(owner.headers, 20_000);
    const late = await createTopup(owner.headers, 15_000);
    const wrong = await createTopup(owner.headers, 50_000);
    psp.pay(dropped.txid); // no webhook ever arrives

    psp.expire(unpaid.txid);
    psp.expire(late.txid);
    const past = new Date(Date.now() - 60_000);
    await t.database.db.update(topups).set({ expiresAt: past }).where(eq(topups.id, unpaid.id));
    await t.database.db.update(topups).set({ expiresAt: past }).where(eq(topups.id, late.id));
    // The page already shows it expired...
    const shown = await t.app.inject({ method: 'GET', url: `/api/billing/topups/${late.id}`, headers: owner.headers });
    expect(shown.json().status).toBe('expired');
    // ...and then the PSP settles it anyway (the payer's bank accepted it before the cob expired there).
    psp.pay(late.txid, { late: true });
    psp.pay(wrong.txid, { amountMillis: 49_990 });

    const first = await reconcileTopups(t.database.db, provider);
    expect(first).toMatchObject({ credited: 2, review: 1, expired: 1, errors: 0 });
    const status = async (id: string) =>
      (await t.database.db.select().from(topups).where(eq(topups.id, id)))[0] as typeof topups.$inferSelect;
    expect((await status(dropped.id)).status).toBe('paid');
    expect((await status(late.id)).status).toBe('paid');
    expect((await status(unpaid.id)).status).toBe('expired');
    const review = await status(wrong.id);
    expect(review.status).toBe('review');
    expect(review.reviewReason).toBe('Valor pago R$\u00a049,99 diferente do valor da recarga R$\u00a050,00.');
    expect(review.providerReport).toMatchObject({ amountMillis: 49_990 });

    // Running again (or a late webhook) changes nothing.
    const second = await reconcileTopups(t.database.db, provider);
    expect(second).toMatchObject({ credited: 0, review: 0, expired: 0 });
    const cob = psp.cobs.get(dropped.txid);
    expect((await webhook(psp.callback(...(cob?.pix ?? [])))).json().outcome).toBe('duplicate');

    expect(await balance(owner.headers)).toBe(25_000);
    expect((await ledgerOf(owner.accountId)).kinds.sort()).toEqual(['topup:10000', 'topup:15000']);
  });

  it('refunds a top-up through the PSP, whole or part, never more than what is left or than the balance', async () => {
    const owner = await signUp(t);
    const topup = await createTopup(owner.headers, 50_000);
    const pix = psp.pay(topup.txid);
    await webhook(psp.callback(pix));
    const refund = (amountMillis: number, requestKey: string = randomUUID()) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/topups/${topup.id}/refunds`,
        headers: operatorHeaders,
        payload: { amountMillis, reason: 'Cliente pediu a devolução', requestKey },
      });

    // Members cannot refund.
    const denied = await t.app.inject({
      method: 'POST',
      url: `/api/admin/topups/${topup.id}/refunds`,
      headers: owner.headers,
      payload: { amountMillis: 1_000, reason: 'x'.repeat(5), requestKey: randomUUID() },
    });
    expect(denied.statusCode).toBe(403);

    const key = randomUUID();
    // A double click (same key, at once) is one refund.
    const both = await Promise.all([refund(20_000, key), refund(20_000, key)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 201]);
    const partial = both.find((r) => r.statusCode === 201) as (typeof both)[number];
    expect(partial.json()).toMatchObject({ amountMillis: 20_000, status: 'processing' });
    expect(both[0]?.json().id).toBe(both[1]?.json().id);
    const again = await refund(20_000, key);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(partial.json().id);
    expect(psp.refunds.filter((r) => r.valor === '20.00')).toHaveLength(1);
    expect(psp.refunds.at(-1)).toMatchObject({ natureza: 'ORIGINAL' });

    const tooMuch = await refund(40_000);
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toBe('O valor máximo a devolver desta recarga é R$\u00a030,00.');

    // The rest of the balance was spent: refunding more than is left of it is refused with the missing amount.
    const debit = await t.app.inject({
      method: 'POST',
      url: `/api/admin/accounts/${owner.accountId}/adjustments`,
      headers: operatorHeaders,
      payload: { amountMillis: -25_000, reason: 'Envio consumido' },
    });
    expect(debit.statusCode).toBe(201);
    const short = await refund(10_000);
    expect(short.statusCode).toBe(402);
    expect(short.json().error).toMatchObject({
      code: 'insufficient_balance',
      message: 'Saldo insuficiente: faltam R$\u00a05,00 para devolver este valor (o saldo já foi usado).',
    });

    // The PSP refuses a refund (NAO_REALIZADO): the amount comes back to the balance, once.
    psp.failRefunds(true);
    const failed = await refund(5_000);
    expect(failed.statusCode).toBe(201);
    expect(failed.json()).toMatchObject({
      status: 'failed',
      failureReason: 'Saldo insuficiente na conta do recebedor.',
    });
    psp.failRefunds(false);

    expect(await balance(owner.headers)).toBe(5_000);
    const ledger = await ledgerOf(owner.accountId);
    expect(ledger.kinds).toEqual([
      'topup:50000',
      'refund:-20000',
      'adjustment:-25000',
      'refund:-5000',
      'adjustment:5000',
    ]);
    const row = (await t.database.db.select().from(topups).where(eq(topups.id, topup.id)))[0];
    expect(row?.refundedMillis).toBe(20_000);
    const statement = await t.app.inject({ method: 'GET', url: '/api/billing/statement', headers: owner.headers });
    expect(statement.json().entries.map((e: { kind: string }) => e.kind)).toContain('refund');

    // The reconciliation asks the PSP again about the processing refund (same id: idempotent there).
    psp.refunds.forEach((r) => {
      if (r.valor === '20.00') r.status = 'DEVOLVIDO';
    });
    const refundsAsked = psp.refunds.length;
    const report = await reconcileTopups(t.database.db, provider);
    expect(report.refundsSettled).toBe(1);
    expect(psp.refunds).toHaveLength(refundsAsked); // followed with GET, never asked twice
    const [settled] = await t.database.db.select().from(topupRefunds).where(eq(topupRefunds.id, partial.json().id));
    expect(settled?.status).toBe('done');
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/topups?status=paid', headers: operatorHeaders });
    expect(list.json().topups.find((x: { id: string }) => x.id === topup.id)).toMatchObject({ refundedMillis: 20_000 });
    expect(await balance(owner.headers)).toBe(5_000);
  });

  it('a refund the PSP did not answer stays processing (debited) and the reconciliation asks again, once', async () => {
    const owner = await signUp(t);
    const topup = await createTopup(owner.headers, 30_000);
    await webhook(psp.callback(psp.pay(topup.txid)));
    psp.setDown(true);
    let res: Awaited<ReturnType<typeof t.app.inject>>;
    try {
      res = await t.app.inject({
        method: 'POST',
        url: `/api/admin/topups/${topup.id}/refunds`,
        headers: operatorHeaders,
        payload: { amountMillis: 30_000, reason: 'Cliente desistiu', requestKey: randomUUID() },
      });
    } finally {
      psp.setDown(false);
    }
    expect(res.statusCode).toBe(201);
    expect(res.json().status).toBe('processing');
    expect(await balance(owner.headers)).toBe(0);
    const before = psp.refunds.length;
    expect((await reconcileTopups(t.database.db, provider)).refundsSettled).toBeGreaterThanOrEqual(1);
    expect(psp.refunds).toHaveLength(before + 1);
    expect(psp.refunds.at(-1)).toMatchObject({ valor: '30.00', status: 'EM_PROCESSAMENTO' });
    await reconcileTopups(t.database.db, provider);
    expect(psp.refunds).toHaveLength(before + 1);
    expect((await ledgerOf(owner.accountId)).kinds).toEqual(['topup:30000', 'refund:-30000']);
  });

  it('answers 503 (provider retries) when the PSP is down for a webhook, and a clear pt-BR error when creating', async () => {
    const owner = await signUp(t);
    const topup = await createTopup(owner.headers, 10_000);
    const pix = psp.pay(topup.txid);
    psp.setDown(true);
    try {
      expect((await webhook(psp.callback(pix))).statusCode).toBe(503);
      const create = await t.app.inject({
        method: 'POST',
        url: '/api/billing/topups',
        headers: owner.headers,
        payload: { amountMillis: 10_000 },
      });
      expect(create.statusCode).toBe(503);
      expect(create.json().error.message).toBe(
        'O provedor de pagamento não respondeu. Tente gerar a recarga de novo em instantes.',
      );
    } finally {
      psp.setDown(false);
    }
    expect((await webhook(psp.callback(pix))).json().outcome).toBe('credited');
    expect(await balance(owner.headers)).toBe(10_000);
  });
});
