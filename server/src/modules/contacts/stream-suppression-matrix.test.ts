import { randomUUID } from 'node:crypto';
import { type MessageStream, SUPPRESSION_REASON_VALUES, type SuppressionReason } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { signUp } from '../../../test/support/sign-in';
import type { TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { accounts } from '../accounts/accounts.db';
import { tickAutomations } from '../automations/automations-runtime';
import { DEFAULT_REPORT_SETTINGS, recordDeliveryReport } from '../bounces/record-report';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import { campaignStatus, createReadyCampaign, creditAccount } from '../sending/testing/send-fixtures';
import { createTemplate } from '../templates/templates';

const FROM = 'loja@exemplo.com.br';
const json = { 'content-type': 'application/json' };

/** What each kind of message Carteiro sends belongs to. */
const KINDS = {
  campanha: 'marketing',
  automação: 'marketing',
  'API marketing': 'marketing',
  'API transacional': 'transactional',
  'e-mail do sistema': 'system',
} as const satisfies Record<string, MessageStream>;
type Kind = keyof typeof KINDS;

/** The product's table (issue text), written out: which causes stop which streams. */
const STOPS: Record<SuppressionReason, Record<MessageStream, boolean>> = {
  unsubscribed: { marketing: true, transactional: false, system: false },
  bounced: { marketing: true, transactional: true, system: true },
  complained: { marketing: true, transactional: true, system: true },
  erased: { marketing: true, transactional: true, system: true },
  manual: { marketing: true, transactional: true, system: true },
};

/**
 * Every kind of message × every suppression cause, each cause made through its real path (the dashboard's
 * "descadastrar", a hard bounce and a complaint through the delivery-report intake, the LGPD erasure, a manual
 * entry) and each message through its real path to a loopback relay (the campaign engine, an automation step, the
 * API in both categories, Carteiro's own mail through the Mailer). A control address on the same list, never
 * suppressed, gets every kind — so "not delivered" always means "suppressed", never "nothing worked".
 */
describe.each(DATABASE_KINDS)('stream × suppression cause on %s', (kind) => {
  const engine = useEngineHarness(kind);
  let t: TestApp;
  let db: Db;
  beforeAll(() => {
    ({ t, db } = engine);
  });

  async function deliverAll(accountId: string) {
    await runEngineUntil(
      engine.newSender(),
      async () => {
        const [left] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from messages where account_id = ${accountId} and status = 'queued'`,
        );
        return Number(left?.n) === 0;
      },
      'no message of the account queued',
    );
  }

  async function setUp() {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 100_000);
    await trustSenderAddress(db, user.accountId, FROM);
    await db
      .update(accounts)
      .set({ defaultFromEmail: FROM, defaultFromName: 'Loja' })
      .where(eq(accounts.id, user.accountId));
    const key = await createApiKeyFor(t, user);
    const h = { ...user.headers, ...json };
    const listId = (
      await t.app.inject({ method: 'POST', url: '/api/lists', headers: h, payload: { name: 'Todos' } })
    ).json().id as string;
    const template = await createTemplate(db, user.accountId, {
      name: 'Boas-vindas',
      subject: 'Bem-vindo',
      html: '<p>Olá!</p><a href="{{ link_descadastro }}">Descadastrar</a>',
    });
    const automation = await t.app.inject({
      method: 'POST',
      url: '/api/automations',
      headers: h,
      payload: {
        name: 'Boas-vindas',
        fromEmail: FROM,
        fromName: 'Loja',
        trigger: { type: 'list_joined', listId },
        steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template.id }],
      },
    });
    expect(automation.statusCode, automation.body).toBe(201);
    await t.app.inject({
      method: 'POST',
      url: `/api/automations/${automation.json().id}/activate`,
      headers: user.headers,
    });
    const stamp = randomUUID().slice(0, 8);
    const target = `alvo-${stamp}@destino.com.br`;
    const control = `controle-${stamp}@destino.com.br`;
    const ids: Record<string, string> = {};
    for (const email of [target, control]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/contacts',
        headers: bearer(key, json),
        payload: { email, listIds: [listId], legalBasis: 'consent' },
      });
      expect(res.statusCode, res.body).toBe(201);
      ids[email] = res.json().id;
    }
    return { user, key, listId, target, control, targetId: ids[target] as string };
  }

  type Setup = Awaited<ReturnType<typeof setUp>>;

  /** Makes the cause happen to the target address through its own path. */
  async function cause(s: Setup, reason: SuppressionReason) {
    const h = { ...s.user.headers, ...json };
    if (reason === 'unsubscribed') {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/contacts/bulk',
        headers: h,
        payload: { action: 'unsubscribe', ids: [s.targetId] },
      });
      expect(res.json().affected).toBe(1);
    } else if (reason === 'bounced' || reason === 'complained') {
      // A message the address received, then the provider's report about it.
      const sent = await t.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: bearer(s.key, json),
        payload: { to: { email: s.target }, from: { email: FROM }, subject: 'Pedido', html: '<p>Pedido 1</p>' },
      });
      expect(sent.statusCode, sent.body).toBe(201);
      await deliverAll(s.user.accountId);
      const [message] = await queryRows<{ token: string }>(
        db,
        sql`select token from messages where id = ${Number(sent.json().messages[0].id)}`,
      );
      const outcome = await recordDeliveryReport(
        db,
        message?.token as string,
        reason === 'bounced'
          ? { type: 'bounce', bounceKind: 'hard', status: '5.1.1', diagnostic: 'caixa inexistente', source: 'teste' }
          : { type: 'complaint', feedbackType: 'abuse', source: 'teste' },
        DEFAULT_REPORT_SETTINGS,
      );
      expect(outcome).toMatchObject({ recorded: true, suppressed: true });
    } else if (reason === 'erased') {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/contacts/${s.targetId}/erase`,
        headers: s.user.headers,
      });
      expect(res.statusCode, res.body).toBeLessThan(300);
    } else {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/suppressions',
        headers: h,
        payload: { emails: [s.target] },
      });
      expect(res.json().added).toBe(1);
    }
  }

  type ApiAnswer = { messages: Array<{ to: string; status: string; stream: string; suppressionReason?: string }> };

  /** Sends every kind to both addresses; answers, per kind, which addresses received it, and the API's answers. */
  async function sendEveryKind(s: Setup): Promise<{ got: Record<Kind, string[]>; api: Record<string, ApiAnswer> }> {
    const received = (from: number, subject: string) =>
      engine.sink.messages
        .slice(from)
        .filter(
          (m) => (m.to === s.target || m.to === s.control) && m.raw.toString('latin1').includes(`Subject: ${subject}`),
        )
        .map((m) => m.to);
    const before = engine.sink.messages.length;
    // Automation: its step to whoever joined the list and is still allowed to get marketing.
    await tickAutomations({ db, mailer: t.mailer, publicUrl: t.config.PUBLIC_URL }, new Date(Date.now() + 1000));
    // Campaign to the list.
    const campaignId = await createReadyCampaign(db, s.user.accountId, {
      includeListIds: [s.listId],
      subject: 'Campanha',
      template: '<p>Oferta</p><a href="{{ link_descadastro }}">Descadastrar</a>',
    });
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${campaignId}/send`,
      headers: s.user.headers,
    });
    expect(started.statusCode, started.body).toBe(200);
    // The API, both categories.
    const api: Record<string, ApiAnswer> = {};
    for (const category of ['marketing', 'transactional'] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/v1/messages/batch',
        headers: bearer(s.key, json),
        payload: {
          messages: [s.target, s.control].map((email) => ({
            to: { email },
            from: { email: FROM },
            subject: `API ${category}`,
            html: '<p>Olá</p><a href="{{ link_descadastro }}">Descadastrar</a>',
            category,
          })),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      api[category] = res.json();
    }
    await deliverAll(s.user.accountId);
    expect((await campaignStatus(db, campaignId))?.status).toBe('sent');
    // Carteiro's own e-mail about this account (an invitation, a notice) through the Mailer.
    const systemSubject = `Aviso do sistema ${randomUUID().slice(0, 6)}`;
    for (const to of [s.target, s.control]) {
      await t.mailer.send({
        to,
        subject: systemSubject,
        text: 'Aviso',
        html: '<p>Aviso</p>',
        accountId: s.user.accountId,
      });
    }
    const system = (await t.sentMail()).filter((m) => m.subject === systemSubject).flatMap((m) => m.to);
    const got = {
      campanha: received(before, 'Campanha'),
      automação: received(before, 'Bem-vindo'),
      'API marketing': received(before, 'API marketing'),
      'API transacional': received(before, 'API transactional'),
      'e-mail do sistema': system.map((to) => to.replace(/^.*<|>.*$/g, '')),
    };
    return { got, api };
  }

  for (const reason of SUPPRESSION_REASON_VALUES) {
    it(`${reason}: ${Object.entries(KINDS)
      .map(([k, stream]) => `${k} ${STOPS[reason][stream] ? 'suprimida' : 'enviada'}`)
      .join(', ')}`, async () => {
      const s = await setUp();
      await cause(s, reason);
      const { got, api } = await sendEveryKind(s);
      for (const [name, stream] of Object.entries(KINDS) as Array<[Kind, MessageStream]>) {
        const expected = STOPS[reason][stream] ? [s.control] : [s.control, s.target];
        expect([...got[name]].sort(), `${reason} × ${name}`).toEqual([...expected].sort());
      }
      // The API answered each message with its stream and, when suppressed, the reason; the control always goes.
      for (const stream of ['marketing', 'transactional'] as const) {
        const [target, control] = api[stream]?.messages ?? [];
        expect(control).toMatchObject({ status: 'queued', stream });
        expect(target).toEqual(
          STOPS[reason][stream]
            ? expect.objectContaining({ status: 'suppressed', stream, suppressionReason: reason, costMillis: 0 })
            : expect.objectContaining({ status: 'queued', stream }),
        );
      }
    });
  }
});
