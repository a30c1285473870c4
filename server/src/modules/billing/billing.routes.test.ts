import { createHmac, randomUUID } from 'node:crypto';
import { parsePixBrCode } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { testClock } from '../../../test/support/test-clock';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { accountMembers } from '../accounts/accounts.db';
import { createListWithContacts, createReadyCampaign } from '../sending/testing/send-fixtures';
import { ledgerEntries, topups } from './billing.db';
import { sweepLowBalanceCrossings } from './notify-low-balance';
import { reserveForCampaign } from './reserve-campaign-cost';
import { settleCampaign } from './settle-campaign';
import { csvText } from './statement-csv';

const WEBHOOK_SECRET = 'segredo-do-webhook-mercado-pago';
const OPERATOR_EMAIL = 'operador@carteiro.local';

describe.each(DATABASE_KINDS)('billing API on %s', (kind) => {
  let t: TestApp;
  let operatorHeaders: Record<string, string>;
  const payments = new Map<string, { status: string; amount: number | string; currency: string; ref: string }>();
  const realFetch = globalThis.fetch;
  const clock = testClock();

  beforeAll(async () => {
    t = await createTestApp(
      kind,
      {
        ADMIN_EMAILS: OPERATOR_EMAIL,
        MERCADO_PAGO_WEBHOOK_SECRET: WEBHOOK_SECRET,
        MERCADO_PAGO_ACCESS_TOKEN: 'token-de-teste',
        PIX_KEY: 'financeiro@carteiro.com.br',
        PIX_MERCHANT_NAME: 'Carteiro Serviços Digitais',
        PIX_MERCHANT_CITY: 'São Luís',
      },
      undefined,
      { clock: clock.now },
    );
    // The Mercado Pago API, faked: GET /v1/payments/:id answers the payment registered by the test.
    vi.stubGlobal('fetch', async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      const match = url.match(/^https:\/\/api\.mercadopago\.com\/v1\/payments\/(\w+)$/);
      if (!match) return realFetch(input, init);
      const p = payments.get(match[1] ?? '');
      if (!p) return new Response('{}', { status: 404 });
      return Response.json({
        id: Number(match[1]),
        status: p.status,
        currency_id: p.currency,
        transaction_amount: p.amount,
        external_reference: p.ref,
      });
    });
    operatorHeaders = (await signUp(t, { email: OPERATOR_EMAIL, verified: true })).headers;
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    await t.close();
  });
  afterEach(() => {
    payments.clear();
  });

  function webhook(paymentId: string, opts: { secret?: string; ts?: number } = {}) {
    const ts = String(opts.ts ?? Math.floor(Date.now() / 1000));
    const requestId = randomUUID();
    const v1 = createHmac('sha256', opts.secret ?? WEBHOOK_SECRET)
      .update(`id:${paymentId};request-id:${requestId};ts:${ts};`)
      .digest('hex');
    return t.app.inject({
      method: 'POST',
      url: `/api/webhooks/mercadopago?data.id=${paymentId}&type=payment`,
      headers: { 'content-type': 'application/json', 'x-signature': `ts=${ts},v1=${v1}`, 'x-request-id': requestId },
      payload: { action: 'payment.updated', type: 'payment', data: { id: paymentId } },
    });
  }

  async function balanceOf(headers: Record<string, string>) {
    return (await t.app.inject({ method: 'GET', url: '/api/billing/balance', headers })).json();
  }

  it('creates a Pix top-up with a valid BR Code and a local QR code, then credits it once for 3 concurrent webhooks', async () => {
    const owner = await signUp(t);
    const small = await t.app.inject({
      method: 'POST',
      url: '/api/billing/topups',
      headers: owner.headers,
      payload: { amountMillis: 9_990 },
    });
    expect(small.statusCode).toBe(400);
    expect(small.json().error.message).toContain('R$\u00a010,00');

    const res = await t.app.inject({
      method: 'POST',
      url: '/api/billing/topups',
      headers: owner.headers,
      payload: { amountMillis: 25_000 },
    });
    expect(res.statusCode).toBe(201);
    const topup = res.json();
    expect(topup.txid).toMatch(/^[A-Za-z0-9]{25}$/);
    expect(topup.qrSvgDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
    const parsed = parsePixBrCode(topup.brCode);
    expect(parsed).toMatchObject({
      key: 'financeiro@carteiro.com.br',
      merchantCity: 'SAO LUIS',
      amountMillis: 25_000,
      txid: topup.txid,
    });

    payments.set('9001', { status: 'approved', amount: 25, currency: 'BRL', ref: topup.txid });
    const results = await Promise.all([webhook('9001'), webhook('9001'), webhook('9001')]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    expect(results.map((r) => r.json().outcome).sort()).toEqual(['credited', 'duplicate', 'duplicate']);
    expect((await balanceOf(owner.headers)).balanceMillis).toBe(25_000);
    const later = await webhook('9001');
    expect(later.json().outcome).toBe('duplicate');

    const status = await t.app.inject({
      method: 'GET',
      url: `/api/billing/topups/${topup.id}`,
      headers: owner.headers,
    });
    expect(status.json().status).toBe('paid');
    const receipt = await t.app.inject({
      method: 'GET',
      url: `/api/billing/topups/${topup.id}/receipt`,
      headers: owner.headers,
    });
    expect(receipt.json()).toMatchObject({ receiptNumber: topup.txid, formattedAmount: 'R$\u00a025,00' });
  });

  it("counts a top-up's expiry (TOPUP_EXPIRY_MINUTES) from the app's clock", async () => {
    const owner = await signUp(t);
    clock.set(new Date('2026-11-26T10:00:00Z'));
    try {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/billing/topups',
        headers: owner.headers,
        payload: { amountMillis: 10_000 },
      });
      expect(created.statusCode, created.body).toBe(201);
      const expected = new Date(clock.now().getTime() + t.config.TOPUP_EXPIRY_MINUTES * 60_000).getTime();
      // The clock runs on while the request is answered: within the test's own second of it.
      expect(Math.abs(new Date(created.json().expiresAt).getTime() - expected)).toBeLessThan(1_000);
    } finally {
      clock.reset();
    }
  });

  it('rejects webhooks with a wrong secret or stale timestamp, and sends mismatched or late payments to review', async () => {
    const owner = await signUp(t);
    const create = (amountMillis: number) =>
      t.app.inject({ method: 'POST', url: '/api/billing/topups', headers: owner.headers, payload: { amountMillis } });
    const a = (await create(10_000)).json();
    payments.set('9101', { status: 'approved', amount: 1, currency: 'BRL', ref: a.txid });
    expect((await webhook('9101', { secret: 'errado' })).statusCode).toBe(401);
    expect((await webhook('9101', { ts: Math.floor(Date.now() / 1000) - 600 })).statusCode).toBe(401);
    expect((await webhook('9101')).json().outcome).toBe('review');

    const b = (await create(10_000)).json();
    await t.database.db
      .update(topups)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(topups.id, b.id));
    payments.set('9102', { status: 'approved', amount: '10.00', currency: 'BRL', ref: b.txid });
    expect((await webhook('9102')).json().outcome).toBe('review');

    const c = (await create(10_000)).json();
    payments.set('9103', { status: 'pending', amount: 10, currency: 'BRL', ref: c.txid });
    expect((await webhook('9103')).json().outcome).toBe('ignored');
    expect((await balanceOf(owner.headers)).balanceMillis).toBe(0);

    // Right amount in the wrong currency: review, not a credit.
    const d = (await create(10_000)).json();
    payments.set('9104', { status: 'approved', amount: 10, currency: 'USD', ref: d.txid });
    expect((await webhook('9104')).json().outcome).toBe('review');
    expect((await balanceOf(owner.headers)).balanceMillis).toBe(0);

    // The operator sees the ones in review and can confirm by hand, once.
    const pending = (await t.app.inject({ method: 'GET', url: '/api/admin/topups', headers: operatorHeaders })).json();
    const inReview = pending.topups.filter(
      (x: { accountId: string; status: string }) => x.accountId === owner.accountId,
    );
    expect(inReview.map((x: { status: string }) => x.status).sort()).toEqual(['pending', 'review', 'review', 'review']);
    const confirm = () =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/topups/${b.id}/confirm`,
        headers: operatorHeaders,
        payload: { reason: 'Pix conferido no extrato do banco' },
      });
    expect((await confirm()).statusCode).toBe(200);
    expect((await confirm()).statusCode).toBe(409);
    expect((await balanceOf(owner.headers)).balanceMillis).toBe(10_000);
  });

  it('shows balance, statement with running balance and an Excel-safe CSV', async () => {
    const owner = await signUp(t);
    const headers = operatorHeaders;
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: `/api/admin/accounts/${owner.accountId}/price`,
          headers,
          payload: { priceMillis: 4, reason: 'Volume acima de 1 milhão' },
        })
      ).statusCode,
    ).toBe(200);
    const credit = await t.app.inject({
      method: 'POST',
      url: `/api/admin/accounts/${owner.accountId}/adjustments`,
      headers,
      payload: { amountMillis: 2_000, reason: '=HYPERLINK("http://evil") bônus' },
    });
    expect(credit.statusCode).toBe(201);
    const campaignId = randomUUID();
    await reserveForCampaign(t.database.db, { accountId: owner.accountId, campaignId, recipients: 300 });
    await settleCampaign(t.database.db, { campaignId, sentCount: 250 });

    const balance = await balanceOf(owner.headers);
    expect(balance).toMatchObject({ balanceMillis: 1_000, priceMillis: 4, emailsPaid: 250, formatted: 'R$\u00a01,00' });

    // The campaign's reservation, release and send are one line: its net cost, the send's words, its name.
    const statement = (
      await t.app.inject({ method: 'GET', url: '/api/billing/statement?limit=1', headers: owner.headers })
    ).json();
    expect(statement.entries).toHaveLength(1);
    expect(statement.entries[0]).toMatchObject({
      kind: 'send',
      amountMillis: -1_000,
      balanceAfterMillis: 1_000,
      campaignId,
      campaignName: null,
      description: 'Envio da campanha: 250 e-mails enviados × R$\u00a00,004',
      emailCount: 250,
    });
    const next = (
      await t.app.inject({
        method: 'GET',
        url: `/api/billing/statement?limit=2&cursor=${statement.nextCursor}`,
        headers: owner.headers,
      })
    ).json();
    expect(next.entries.map((e: { kind: string }) => e.kind)).toEqual(['adjustment']);
    expect(next.nextCursor).toBeNull();

    const csv = await t.app.inject({ method: 'GET', url: '/api/billing/statement.csv', headers: owner.headers });
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.body.startsWith('\uFEFFData;Tipo;Descrição')).toBe(true);
    expect(csv.body).toContain(';-1,000;1,000\r\n');
    expect(csv.body).toContain(';"Crédito manual: =HYPERLINK(""http://evil"") bônus";');
    expect(csvText('=1+1')).toBe("'=1+1");
    expect(csvText('@SUM(A1)')).toBe("'@SUM(A1)");
  });

  it('lists a campaign once in the extrato and its CSV, by name, with a date cell without a comma', async () => {
    const owner = await signUp(t);
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/accounts/${owner.accountId}/adjustments`,
      headers: operatorHeaders,
      payload: { amountMillis: 10_000, reason: 'Crédito inicial' },
    });
    const { listId } = await createListWithContacts(t.database.db, owner.accountId, ['a@example.com']);
    const campaignId = await createReadyCampaign(t.database.db, owner.accountId, {
      includeListIds: [listId],
      name: 'Natal 2026',
    });
    await reserveForCampaign(t.database.db, { accountId: owner.accountId, campaignId, recipients: 10 });
    // While it sends, its line is the reservation.
    const sending = (
      await t.app.inject({ method: 'GET', url: '/api/billing/statement', headers: owner.headers })
    ).json();
    expect(sending.entries.map((e: { kind: string }) => e.kind)).toEqual(['reservation', 'adjustment']);
    expect(sending.entries[0]).toMatchObject({ campaignName: 'Natal 2026', amountMillis: -50 });
    await settleCampaign(t.database.db, { campaignId, sentCount: 8 });

    const lines = (await t.app.inject({ method: 'GET', url: '/api/billing/statement', headers: owner.headers })).json();
    expect(lines.entries).toHaveLength(2);
    expect(lines.entries[0]).toMatchObject({
      kind: 'send',
      campaignId,
      campaignName: 'Natal 2026',
      amountMillis: -40,
      balanceAfterMillis: 9_960,
    });
    // Integer millis, summed exactly.
    expect(Number.isInteger(lines.entries[0].amountMillis)).toBe(true);

    const csv = (await t.app.inject({ method: 'GET', url: '/api/billing/statement.csv', headers: owner.headers })).body;
    const rows = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toMatch(
      /^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2};Envio;Envio da campanha: 8 e-mails[^;]*;Natal 2026;-0,040;9,960$/,
    );
    expect(csv).not.toContain(campaignId);
    expect(csv).not.toContain('Reserva;');

    // The public API keeps the ledger's entries as they are (reservation, release and send).
    const ledger = await queryRows<{ kind: string }>(
      t.database.db,
      sql`select kind from ledger_entries where campaign_id = ${campaignId} order by seq`,
    );
    expect(ledger.map((e) => e.kind)).toEqual(['reservation', 'release', 'send']);
  });

  it('warns the owner by e-mail once when the balance crosses the low-balance threshold', async () => {
    const owner = await signUp(t, { email: `dona-${randomUUID().slice(0, 6)}@example.com` });
    const adjust = (amountMillis: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/accounts/${owner.accountId}/adjustments`,
        headers: operatorHeaders,
        payload: { amountMillis, reason: 'Teste de alerta' },
      });
    expect((await adjust(8_000)).statusCode).toBe(201);
    expect((await adjust(-4_000)).statusCode).toBe(201); // 4 000 < 5 000: crossed
    expect((await adjust(-1_000)).statusCode).toBe(201); // still below: no new warning
    const warnings = (await t.sentMail()).filter((m) => m.to.includes(owner.email) && m.subject.includes('saldo'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.subject).toBe('Seu saldo no Carteiro está baixo: R$\u00a04,00');
    expect((await balanceOf(owner.headers)).lowBalance).toBe(true);
  });

  it('filters the extrato by period (AAAA-MM-DD, São Paulo days) in the list and the CSV; impossible dates and reversed periods → 400', async () => {
    const owner = await signUp(t);
    const credit = await t.app.inject({
      method: 'POST',
      url: `/api/admin/accounts/${owner.accountId}/adjustments`,
      headers: operatorHeaders,
      payload: { amountMillis: 12_345, reason: 'Crédito do período' },
    });
    expect(credit.statusCode).toBe(201);
    const day = (offsetDays: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(
        new Date(Date.now() + offsetDays * 86_400_000),
      );
    const today = day(0);
    const list = async (query: string) => {
      const res = await t.app.inject({ method: 'GET', url: `/api/billing/statement?${query}`, headers: owner.headers });
      expect(res.statusCode, query).toBe(200);
      return res.json().entries.map((e: { amountMillis: number }) => e.amountMillis);
    };
    expect(await list(`from=${today}&to=${today}`)).toEqual([12_345]);
    expect(await list(`from=${today}`)).toEqual([12_345]);
    expect(await list(`to=${day(-1)}`)).toEqual([]);
    expect(await list(`from=${day(1)}`)).toEqual([]);

    const csv = (query: string) =>
      t.app.inject({ method: 'GET', url: `/api/billing/statement.csv?${query}`, headers: owner.headers });
    const inPeriod = await csv(`from=${today}&to=${today}`);
    expect(inPeriod.statusCode).toBe(200);
    expect(inPeriod.headers['content-disposition']).toBe(
      `attachment; filename="extrato-carteiro-${today}-a-${today}.csv"`,
    );
    expect(inPeriod.body).toContain('Crédito manual: Crédito do período');
    const before = await csv(`to=${day(-1)}`);
    expect(before.body.split('\r\n').filter(Boolean)).toHaveLength(1); // the header only

    for (const query of ['from=2024-02-30', 'to=2024-13-01', 'from=01/02/2024', `from=${today}&to=${day(-1)}`]) {
      for (const url of [`/api/billing/statement?${query}`, `/api/billing/statement.csv?${query}`]) {
        const res = await t.app.inject({ method: 'GET', url, headers: owner.headers });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error.code).toBe('validation_failed');
      }
    }
    const reversed = await t.app.inject({
      method: 'GET',
      url: `/api/billing/statement?from=${today}&to=${day(-1)}`,
      headers: owner.headers,
    });
    expect(reversed.json().error.message).toContain('A data inicial deve ser anterior ou igual à final.');
  });

  it('a campaign reservation that takes the balance below the threshold e-mails the owner once (retried after a relay failure); a recovered balance gets none', async () => {
    const deps = { db: t.database.db, mailer: t.mailer, thresholdMillis: 5_000, publicUrl: 'http://localhost:3000' };
    const warningsTo = async (email: string) =>
      (await t.sentMail()).filter(
        (m) => m.to.includes(email) && m.subject.startsWith('Seu saldo no Carteiro está baixo'),
      );
    const credit = (accountId: string, amountMillis: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/accounts/${accountId}/adjustments`,
        headers: operatorHeaders,
        payload: { amountMillis, reason: 'Crédito de teste' },
      });

    // 6,000 − 300 × 5 = 4,500: the reservation (sending module, no mailer at hand) crossed R$ 5,00.
    const owner = await signUp(t, { email: `reserva-${randomUUID().slice(0, 6)}@example.com` });
    expect((await credit(owner.accountId, 6_000)).statusCode).toBe(201);
    await reserveForCampaign(t.database.db, { accountId: owner.accountId, campaignId: randomUUID(), recipients: 300 });
    // The relay is down at the first sweep: the failure is logged and the warning stays due.
    const relayDown = {
      send: () => Promise.reject(new Error('relay fora do ar')),
      close: () => undefined,
    };
    const logged: unknown[] = [];
    const failed = await sweepLowBalanceCrossings(
      { ...deps, mailer: relayDown },
      { warn: (o: unknown) => logged.push(o) },
    );
    expect(failed).toBe(0);
    expect(logged).toHaveLength(1);
    expect(await warningsTo(owner.email)).toHaveLength(0);
    await sweepLowBalanceCrossings(deps);
    await sweepLowBalanceCrossings(deps); // a second sweep (or another API process) sends nothing more
    const warnings = await warningsTo(owner.email);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.subject).toBe('Seu saldo no Carteiro está baixo: R$\u00a04,50');
    // Still below: a further reservation is not a new crossing.
    await reserveForCampaign(t.database.db, { accountId: owner.accountId, campaignId: randomUUID(), recipients: 100 });
    await sweepLowBalanceCrossings(deps);
    expect(await warningsTo(owner.email)).toHaveLength(1);

    // Crossed, then topped up above the threshold before the sweep: no warning.
    const other = await signUp(t, { email: `recuperou-${randomUUID().slice(0, 6)}@example.com` });
    expect((await credit(other.accountId, 6_000)).statusCode).toBe(201);
    await reserveForCampaign(t.database.db, { accountId: other.accountId, campaignId: randomUUID(), recipients: 300 });
    expect((await credit(other.accountId, 10_000)).statusCode).toBe(201);
    await sweepLowBalanceCrossings(deps);
    expect(await warningsTo(other.email)).toHaveLength(0);
  });

  it('uses a negotiated price everywhere: cost preview, short-balance refusal, reservation, settlement, balance; the public price stays', async () => {
    const owner = await signUp(t, { verified: true });
    const price = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/accounts/${owner.accountId}/price`,
      headers: operatorHeaders,
      payload: { priceMillis: 2, reason: 'Contrato de volume' },
    });
    expect(price.statusCode).toBe(200);
    const stamp = randomUUID().slice(0, 6);
    const audience = await createListWithContacts(
      t.database.db,
      owner.accountId,
      [0, 1, 2].map((i) => `preco${i}-${stamp}@destino.com.br`),
      { cidade: 'Recife' }, // the fixture template uses contato.cidade
    );
    const campaignId = await createReadyCampaign(t.database.db, owner.accountId, {
      includeListIds: [audience.listId],
    });

    const summary = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${campaignId}/summary`,
      headers: owner.headers,
    });
    expect(summary.json()).toMatchObject({ recipients: 3, priceMillis: 2, costMillis: 6, isBalanceSufficient: false });

    const send = () =>
      t.app.inject({ method: 'POST', url: `/api/campaigns/${campaignId}/send`, headers: owner.headers });
    const short = await send();
    expect(short.statusCode, short.body).toBe(402);
    expect(short.json().error.message).toContain('faltam R$\u00a00,006');

    await t.app.inject({
      method: 'POST',
      url: `/api/admin/accounts/${owner.accountId}/adjustments`,
      headers: operatorHeaders,
      payload: { amountMillis: 1_000, reason: 'Crédito de teste' },
    });
    expect(await balanceOf(owner.headers)).toMatchObject({ priceMillis: 2, emailsPaid: 500 });
    expect((await send()).statusCode).toBe(200);
    const [reservation] = await t.database.db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.campaignId, sql`${campaignId}::uuid`));
    expect(reservation).toMatchObject({ kind: 'reservation', amountMillis: -6, priceMillis: 2, emailCount: 3 });

    // The operator changes the price mid-send: the settlement keeps the price the reservation was made at.
    await t.app.inject({
      method: 'PUT',
      url: `/api/admin/accounts/${owner.accountId}/price`,
      headers: operatorHeaders,
      payload: { priceMillis: 5, reason: 'Fim do contrato' },
    });
    const settlement = await settleCampaign(t.database.db, { campaignId, sentCount: 2 });
    expect(settlement).toMatchObject({ chargedMillis: 4, releasedMillis: 6 });
    expect((await balanceOf(owner.headers)).balanceMillis).toBe(1_000 - 4);

    const publicConfig = (await t.app.inject({ method: 'GET', url: '/api/public-config' })).json();
    expect(publicConfig.priceMillis).toBe(5);
  });

  it('keeps the statement and top-ups from members (the balance stays visible to them)', async () => {
    const owner = await signUp(t);
    const member = await signUp(t);
    await t.database.db
      .insert(accountMembers)
      .values({ accountId: owner.accountId, userId: member.userId, role: 'member' });
    const asMember = { ...member.headers, 'x-account-id': owner.accountId };
    expect((await t.app.inject({ method: 'GET', url: '/api/billing/balance', headers: asMember })).statusCode).toBe(
      200,
    );
    for (const [method, url] of [
      ['GET', '/api/billing/statement'],
      ['GET', '/api/billing/statement.csv'],
      ['POST', '/api/billing/topups'],
    ] as const) {
      const res = await t.app.inject({
        method,
        url,
        headers: asMember,
        payload: method === 'POST' ? { amountMillis: 10_000 } : undefined,
      });
      expect(res.statusCode, url).toBe(403);
    }
  });
});
