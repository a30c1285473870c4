import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import type { TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { tickAutomations } from '../automations/automations-runtime';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { messages } from '../sending/messages.db';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  testSenderSettings,
} from '../sending/testing/send-fixtures';
import { createTemplate } from '../templates/templates';
import { type LowBalanceCursor, sweepLowBalanceCrossings } from './notify-low-balance';

/** R$ 1,00: each scenario starts R$ 0,01 above it, so its first debit of 15 millis or less crosses it. */
const THRESHOLD = 1_000;
const FROM = 'loja@exemplo.com.br';

/**
 * The one low-balance watcher sees every debit that crosses the threshold, whatever wrote it (a campaign's
 * reservation, an API batch, an automation step), announces each crossing once by e-mail and by the `balance.low`
 * webhook event, and never mistakes a campaign's settlement (release + charge) for a crossing.
 */
describe.each(DATABASE_KINDS)('the low-balance watch on %s', (kind) => {
  const harness = useEngineHarness(kind, { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' });
  let t: TestApp;
  const cursor: LowBalanceCursor = { afterSeq: null };
  beforeAll(() => {
    ({ t } = harness);
  });

  const sweep = () =>
    sweepLowBalanceCrossings(
      { db: t.database.db, mailer: t.mailer, thresholdMillis: THRESHOLD, publicUrl: t.config.PUBLIC_URL },
      undefined,
      cursor,
    );

  /** An account with R$ 1,010 of credit, a verified sender and a webhook endpoint that wants `balance.low`. */
  async function account(): Promise<SignedInUser> {
    const user = await signUp(t, { verified: true });
    await creditAccount(t.database.db, user.accountId, THRESHOLD + 10);
    await trustSenderAddress(t.database.db, user.accountId, FROM);
    const endpoint = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/endpoints',
      headers: user.headers,
      payload: { url: 'http://127.0.0.1:9/ganchos', eventTypes: ['balance.low'] },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    return user;
  }

  async function announced(user: SignedInUser) {
    const mails = (await t.sentMail()).filter(
      (m) => m.to.includes(user.email) && m.subject.startsWith('Seu saldo no Carteiro está baixo'),
    );
    const events = await queryRows<{ payload: { data?: { balanceMillis?: number } } | { balanceMillis?: number } }>(
      t.database.db,
      sql`select payload from webhook_events where account_id = ${user.accountId} and type = 'balance.low'`,
    );
    return { mails: mails.map((m) => m.subject), events: events.length };
  }

  const newSender = () => harness.newSender({ settings: testSenderSettings({ batchSize: 10 }) });

  it('a campaign: its reservation crossing is announced once; its settlement is no new crossing', async () => {
    const user = await account();
    const { listId } = await createListWithContacts(
      t.database.db,
      user.accountId,
      ['a@destino.com.br', 'b@destino.com.br', 'c@destino.com.br'],
      { cidade: 'Recife' },
    );
    const id = await createReadyCampaign(t.database.db, user.accountId, { includeListIds: [listId] });
    const sent = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(await sweep()).toBeGreaterThanOrEqual(1);
    expect(await announced(user)).toEqual({ mails: ['Seu saldo no Carteiro está baixo: R$\u00a00,995'], events: 1 });

    // Delivered and settled: the release takes the balance back to R$ 1,010 and the charge down to R$ 0,995 —
    // not a second crossing.
    const sender = newSender();
    await runEngineUntil(
      sender,
      async () => (await campaignStatus(t.database.db, id))?.status === 'sent',
      'the campaign sent',
    );
    expect((await campaignStatus(t.database.db, id))?.status).toBe('sent');
    const kinds = await queryRows<{ kind: string; balance_after_millis: number }>(
      t.database.db,
      sql`select kind, balance_after_millis from ledger_entries where account_id = ${user.accountId} order by seq`,
    );
    expect(kinds.map((k) => [k.kind, Number(k.balance_after_millis)])).toEqual([
      ['adjustment', 1_010],
      ['reservation', 995],
      ['release', 1_010],
      ['send', 995],
    ]);
    await sweep();
    expect(await announced(user)).toEqual({ mails: ['Seu saldo no Carteiro está baixo: R$\u00a00,995'], events: 1 });
  });

  it('an API batch: the transactional debit is announced once, a further debit below the threshold is not', async () => {
    const user = await account();
    const key = await createApiKeyFor(t, user);
    const batch = (n: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/messages/batch',
        headers: bearer(key, { 'content-type': 'application/json' }),
        payload: {
          messages: Array.from({ length: n }, (_, i) => ({
            to: { email: `pedido${i}@destino.com.br` },
            from: { email: FROM },
            subject: 'Pedido confirmado',
            html: '<p>Obrigado pelo pedido.</p>',
          })),
        },
      });
    const first = await batch(3);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json()).toMatchObject({ costMillis: 15, balanceMillis: 995 });
    await sweep();
    await sweep(); // a second sweep (or another API process) announces nothing more
    expect(await announced(user)).toEqual({ mails: ['Seu saldo no Carteiro está baixo: R$\u00a00,995'], events: 1 });
    expect((await batch(2)).statusCode).toBe(201);
    await sweep();
    expect((await announced(user)).events).toBe(1);

    // Topped up above the threshold, then spent below it again: a new crossing, a new warning.
    await creditAccount(t.database.db, user.accountId, 100);
    expect((await batch(20)).json()).toMatchObject({ costMillis: 100, balanceMillis: 985 });
    await sweep();
    expect(await announced(user)).toEqual({
      mails: ['Seu saldo no Carteiro está baixo: R$\u00a00,985', 'Seu saldo no Carteiro está baixo: R$\u00a00,995'],
      events: 2,
    });
  });

  it('an automation step: its charge is announced once', async () => {
    const user = await account();
    const template = await createTemplate(t.database.db, user.accountId, {
      name: 'Boas-vindas',
      subject: 'Olá!',
      html: '<p>Bem-vindo!</p><a href="{{ link_descadastro }}">Descadastrar</a>',
    });
    const json = { ...user.headers, 'content-type': 'application/json' };
    const list = await t.app.inject({ method: 'POST', url: '/api/lists', headers: json, payload: { name: 'Novos' } });
    const listId = list.json().id as string;
    const automation = await t.app.inject({
      method: 'POST',
      url: '/api/automations',
      headers: json,
      payload: {
        name: 'Boas-vindas',
        fromEmail: FROM,
        fromName: 'Loja',
        trigger: { type: 'list_joined', listId },
        steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template.id }],
      },
    });
    expect(automation.statusCode, automation.body).toBe(201);
    const activated = await t.app.inject({
      method: 'POST',
      url: `/api/automations/${automation.json().id}/activate`,
      headers: user.headers,
    });
    expect(activated.statusCode, activated.body).toBe(200);
    const at = new Date(Date.now() + 1000);
    for (const email of ['novo1@destino.com.br', 'novo2@destino.com.br', 'novo3@destino.com.br']) {
      const added = await t.app.inject({
        method: 'POST',
        url: '/api/contacts',
        headers: json,
        payload: { email, listIds: [listId] },
      });
      expect(added.statusCode, added.body).toBe(201);
    }
    const tick = await tickAutomations({ db: t.database.db, mailer: t.mailer, publicUrl: t.config.PUBLIC_URL }, at);
    expect(tick.sent).toBe(3);
    const queued = await t.database.db.select().from(messages).where(eq(messages.accountId, user.accountId));
    expect(queued).toHaveLength(3);
    await sweep();
    await sweep();
    expect(await announced(user)).toEqual({ mails: ['Seu saldo no Carteiro está baixo: R$\u00a00,995'], events: 1 });
  });
});
