import { randomUUID } from 'node:crypto';
import { SKIP_REASON_LABELS, type SkipReason } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Db, queryRows } from '../../src/db/database';
import { tickAutomations } from '../../src/modules/automations/automations-runtime';
import { decideDueAbTests } from '../../src/modules/campaigns/ab-test';
import { trustSenderAddress } from '../../src/modules/sender-identities/testing/trust-sender';
import { runEngineUntil, useEngineHarness } from '../../src/modules/sending/testing/engine-harness';
import { creditAccount, TEST_TEMPLATE } from '../../src/modules/sending/testing/send-fixtures';
import type { SmtpSink } from '../../src/modules/sending/testing/smtp-sink';
import { bearer, createApiKeyFor } from '../support/api-key';
import { type SignedInUser, signUp } from '../support/sign-in';
import type { TestApp } from '../support/test-app';
import { DATABASE_KINDS } from '../support/test-database';

/**
 * The seam matrix, audience side: every audience source × every kind of send, through the HTTP routes a user or an
 * integrator calls and the real engine, to a loopback relay that keeps every DATA. For each cell, the recipients the
 * product previewed (the cost preview's count and the snapshot's rows) are exactly the ones the relay received, each
 * address once, and nobody else. Then the same rule asked again at the claim: recipients who stopped being eligible
 * after the snapshot are skipped with their reason, which the report, the CSV and the webhook show.
 *
 * The people (one account), and who each audience must reach:
 *   ana  L1, Recife          bia  L1 + L2           caio L2, Recife         duda no list, Recife
 *   edu  L1, Natal           fabi L1, Recife, on the suppression list     hugo Recife, unsubscribed (no list)
 *   gui  L1 + L3, Recife — after the first campaign, leaves L1 by its one-click unsubscribe (stays on L3)
 *   segment S = cidade is Recife
 *
 * Combinations the product does not have are not cells: automations start from a list join, a date or an API event
 * (no segment); a transactional send names its recipients (no list or segment).
 */
const FROM = 'loja@exemplo.com.br';
const at = (name: string) => `${name}@destino.com.br`;

describe.each(DATABASE_KINDS)('seam matrix — audiences × sends on %s', (kind) => {
  const engine = useEngineHarness(kind, { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' });
  let t: TestApp;
  let db: Db;
  let sink: SmtpSink;
  let user: SignedInUser;
  const lists: Record<'L1' | 'L2' | 'L3', string> = { L1: '', L2: '', L3: '' };
  const contactIds: Record<string, string> = {};
  let segment = '';
  let first = ''; // the first campaign (lists [L1]), sent before the matrix; the follow-up resends it
  const json = { 'content-type': 'application/json' };

  async function call(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) {
    const headers = payload === undefined ? user.headers : { ...user.headers, ...json };
    const res = await t.app.inject({ method, url, headers, payload: payload as never });
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.statusCode === 204 ? null : res.json();
  }

  async function addContact(email: string, listIds: string[], cidade: string) {
    const created = await call('POST', '/api/contacts', {
      email,
      name: email.split('@')[0],
      listIds,
      fields: { cidade },
    });
    contactIds[email] = created.id;
    return created.id as string;
  }

  async function createCampaign(audience: Record<string, unknown>, name: string): Promise<string> {
    const created = await call('POST', '/api/campaigns', {
      uuid: randomUUID(),
      name,
      subject: 'Oferta para {{ contato.nome }}',
      fromName: 'Loja Ação',
      fromEmail: FROM,
      template: TEST_TEMPLATE,
      ...audience,
    });
    return created.id;
  }

  /** The cost preview's count, then "Enviar": the snapshot's rows. Both must name the expected people. */
  async function previewAndSend(id: string, expected: string[]): Promise<void> {
    const summary = await call('GET', `/api/campaigns/${id}/summary`);
    expect(summary.recipients).toBe(expected.length);
    const started = await call('POST', `/api/campaigns/${id}/send`);
    expect(started.recipients).toBe(expected.length);
    const snapshot = await queryRows<{ email: string }>(
      db,
      sql`select email from messages where campaign_id = ${id} order by email`,
    );
    expect(snapshot.map((r) => r.email)).toEqual([...expected].sort());
  }

  /** Ticks a fresh worker until the campaign is sent; A/B tests are decided as soon as their test share is out. */
  async function deliver(id: string): Promise<void> {
    await runEngineUntil(
      engine.newSender({ signers: [] }),
      async () => {
        await decideDueAbTests(db, new Date(Date.now() + 100 * 3_600_000));
        const [row] = await queryRows<{ status: string }>(db, sql`select status from campaigns where id = ${id}`);
        return row?.status === 'sent';
      },
      `campaign ${id} sent`,
      { ms: 20_000, pauseMs: 0 },
    );
  }

  /** Who the relay received a message of this campaign for (its List-Id names the campaign), one entry per DATA. */
  function receivedBy(id: string): string[] {
    return sink.messages
      .filter((m) => m.raw.toString('latin1').includes(`List-Id: <${id}.`))
      .map((m) => m.to)
      .sort();
  }

  async function countsOf(id: string) {
    const [row] = await queryRows<{ sent_count: number; skipped_count: number; failed_count: number }>(
      db,
      sql`select sent_count, skipped_count, failed_count from campaigns where id = ${id}`,
    );
    return { sent: Number(row?.sent_count), skipped: Number(row?.skipped_count), failed: Number(row?.failed_count) };
  }

  /** previewed = snapshot = delivered, each address once, nothing skipped or failed. */
  async function expectDeliveredAsPreviewed(id: string, people: string[]): Promise<void> {
    const expected = people.map(at);
    await previewAndSend(id, expected);
    await deliver(id);
    expect(receivedBy(id)).toEqual([...expected].sort());
    expect(await countsOf(id)).toEqual({ sent: expected.length, skipped: 0, failed: 0 });
  }

  beforeAll(async () => {
    ({ t, db, sink } = engine);
    user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 1_000_000);
    await trustSenderAddress(db, user.accountId, FROM);
    for (const name of ['L1', 'L2', 'L3'] as const) lists[name] = (await call('POST', '/api/lists', { name })).id;
    await addContact(at('ana'), [lists.L1], 'Recife');
    await addContact(at('bia'), [lists.L1, lists.L2], 'Olinda');
    await addContact(at('caio'), [lists.L2], 'Recife');
    await addContact(at('duda'), [], 'Recife');
    await addContact(at('edu'), [lists.L1], 'Natal');
    await addContact(at('fabi'), [lists.L1], 'Recife');
    await addContact(at('gui'), [lists.L1, lists.L3], 'Recife');
    const hugo = await addContact(at('hugo'), [], 'Recife');
    await call('POST', '/api/suppressions', { emails: [at('fabi')] });
    await call('POST', '/api/contacts/bulk', { action: 'unsubscribe', ids: [hugo] });
    segment = (
      await call('POST', '/api/segments', {
        name: 'Recife',
        conditions: {
          type: 'group',
          match: 'all',
          conditions: [{ type: 'field', field: { custom: 'cidade' }, operator: 'equals', value: 'Recife' }],
        },
      })
    ).id;

    // The first campaign reaches L1 (fabi suppressed); ana opens it in a mail client, gui leaves L1 with its
    // one-click unsubscribe (RFC 8058) and stays on L3.
    first = await createCampaign({ includeListIds: [lists.L1] }, 'Primeira');
    await expectDeliveredAsPreviewed(first, ['ana', 'bia', 'edu', 'gui']);
    const tokenOf = async (email: string) =>
      (
        await queryRows<{ token: string }>(
          db,
          sql`select token from messages where campaign_id = ${first} and email = ${email}`,
        )
      )[0]?.token as string;
    const anaMessage = sink.messages.find((m) => m.to === at('ana')) as (typeof sink.messages)[number];
    const pixel = /\/o\/[^"'\s]+\.gif/.exec((await simpleParser(anaMessage.raw)).html || '')?.[0] as string;
    const open = await t.app.inject({
      url: pixel,
      headers: { 'user-agent': 'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 (KHTML, like Gecko)' },
    });
    expect(open.statusCode).toBe(200);
    const unsubscribe = await t.app.inject({
      method: 'POST',
      url: `/u/${await tokenOf(at('gui'))}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(unsubscribe.statusCode).toBe(200);
    // The open is written by the tracking recorder's batch: wait until it is visible.
    const until = Date.now() + 5_000;
    for (;;) {
      const [row] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from message_events where campaign_id = ${first} and kind = 'open'`,
      );
      if (Number(row?.n) > 0) break;
      if (Date.now() > until) throw new Error('the open was never recorded');
      await new Promise((r) => setTimeout(r, 50));
    }
  });

  describe('campaigns', () => {
    it('lists: the subscribed members, minus the suppressed and those who left the list', async () => {
      await expectDeliveredAsPreviewed(await createCampaign({ includeListIds: [lists.L1] }, 'Listas'), [
        'ana',
        'bia',
        'edu',
      ]);
    });

    it('two lists: a member of both is mailed once', async () => {
      const id = await createCampaign({ includeListIds: [lists.L1, lists.L2] }, 'Duas listas');
      await expectDeliveredAsPreviewed(id, ['ana', 'bia', 'caio', 'edu']);
    });

    it('a segment alone: its contacts, on a list or not (nothing is skipped at the claim)', async () => {
      const id = await createCampaign({ includeSegmentIds: [segment] }, 'Segmento');
      await expectDeliveredAsPreviewed(id, ['ana', 'caio', 'duda', 'gui']);
    });

    it('lists + segment: the union, each address once', async () => {
      const id = await createCampaign({ includeListIds: [lists.L2], includeSegmentIds: [segment] }, 'L2 + segmento');
      await expectDeliveredAsPreviewed(id, ['ana', 'bia', 'caio', 'duda', 'gui']);
    });

    it('lists + segment: who left one of the lists is not mailed through the segment', async () => {
      const id = await createCampaign({ includeListIds: [lists.L1], includeSegmentIds: [segment] }, 'L1 + segmento');
      await expectDeliveredAsPreviewed(id, ['ana', 'bia', 'caio', 'duda', 'edu']);
    });

    it('resend to non-openers: the delivered who did not open, minus who unsubscribed from the original', async () => {
      const followUp = await call('POST', `/api/campaigns/${first}/resend-non-openers`, {});
      await expectDeliveredAsPreviewed(followUp.id, ['bia', 'edu']);
    });
  });

  describe('A/B tests', () => {
    for (const [label, audience, people] of [
      ['a segment', () => ({ includeSegmentIds: [segment] }), ['ana', 'caio', 'duda', 'gui']],
      [
        'lists + segment',
        () => ({ includeListIds: [lists.L2], includeSegmentIds: [segment] }),
        ['ana', 'bia', 'caio', 'duda', 'gui'],
      ],
    ] as const) {
      it(`${label}: test share and the winner's rest together reach the previewed set once`, async () => {
        const id = await createCampaign(
          {
            ...audience(),
            abTest: { variants: [{ subject: 'Assunto B' }], testPercent: 50, criterion: 'opens', waitHours: 1 },
          },
          `A/B ${label}`,
        );
        await expectDeliveredAsPreviewed(id, [...people]);
        const variants = await queryRows<{ variant: number | null }>(
          db,
          sql`select variant from messages where campaign_id = ${id}`,
        );
        expect(variants.every((v) => v.variant !== null)).toBe(true);
      });
    }
  });

  it('automation (list joined): each contact who joins is mailed once, whoever else is on the list', async () => {
    const template = await call('POST', '/api/templates', {
      name: 'Boas-vindas',
      subject: 'Olá!',
      html: TEST_TEMPLATE,
    });
    const automation = await call('POST', '/api/automations', {
      name: 'Boas-vindas L3',
      fromEmail: FROM,
      fromName: 'Loja Ação',
      trigger: { type: 'list_joined', listId: lists.L3 },
      steps: [{ waitAmount: 0, waitUnit: 'hours', templateId: template.id }],
    });
    await call('POST', `/api/automations/${automation.id}/activate`);
    await addContact(at('ivo'), [lists.L3], 'Recife');
    await addContact(at('ju'), [lists.L3], 'Natal');
    const before = sink.messages.length;
    const tick = await tickAutomations(
      { db, mailer: t.mailer, publicUrl: 'https://app.carteiro.test' },
      new Date(Date.now() + 1000),
    );
    expect(tick.sent).toBe(2);
    await deliverStream();
    expect(
      sink.messages
        .slice(before)
        .map((m) => m.to)
        .sort(),
    ).toEqual([at('ivo'), at('ju')]);
  });

  it('transactional: every named recipient once; a suppressed address answers "suppressed" and is skipped with its reason', async () => {
    const secret = await createApiKeyFor(t, user, 'send_only');
    const message = (to: string) => ({
      to: { email: to },
      from: { email: FROM },
      subject: 'Pedido',
      text: 'Obrigado!',
    });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/messages/batch',
      headers: bearer(secret, json),
      payload: { messages: [message(at('ana')), message(at('novo')), message(at('fabi'))] },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().messages.map((m: { to: string; status: string }) => [m.to, m.status])).toEqual([
      [at('ana'), 'queued'],
      [at('novo'), 'queued'],
      [at('fabi'), 'suppressed'],
    ]);
    const before = sink.messages.length;
    await deliverStream();
    expect(
      sink.messages
        .slice(before)
        .map((m) => m.to)
        .sort(),
    ).toEqual([at('ana'), at('novo')]);
    const [fabi] = await queryRows<{ status: string; skip_reason: string }>(
      db,
      sql`select status, skip_reason from messages where id = ${Number(res.json().messages[2].id)}`,
    );
    expect(fabi).toEqual({ status: 'skipped', skip_reason: 'suppressed' });
  });

  it('after the snapshot: whoever stops being eligible is skipped with its reason in the report, the CSV and the webhook', async () => {
    await call('POST', '/api/webhooks/endpoints', {
      url: 'http://127.0.0.1:9/hook',
      eventTypes: ['campaign.finished'],
    });
    // Its own people (a segment of Caruaru, on no list), so the other cells' contacts stay as they are.
    for (const name of ['rui', 'sara', 'teo', 'uri']) await addContact(at(name), [], 'Caruaru');
    const caruaru = await call('POST', '/api/segments', {
      name: 'Caruaru',
      conditions: {
        type: 'group',
        match: 'all',
        conditions: [{ type: 'field', field: { custom: 'cidade' }, operator: 'equals', value: 'Caruaru' }],
      },
    });
    const id = await createCampaign({ includeSegmentIds: [caruaru.id] }, 'Mudaram de ideia');
    await previewAndSend(id, ['rui', 'sara', 'teo', 'uri'].map(at));
    // Between "Enviar" and the worker: teo unsubscribes, sara is suppressed, rui's contact is deleted.
    await call('POST', '/api/contacts/bulk', { action: 'unsubscribe', ids: [contactIds[at('teo')]] });
    await call('POST', '/api/suppressions', { emails: [at('sara')] });
    await call('DELETE', `/api/contacts/${contactIds[at('rui')]}`);
    await deliver(id);

    expect(receivedBy(id)).toEqual([at('uri')]);
    const expected: Partial<Record<SkipReason, number>> = {
      suppressed: 1,
      contact_deleted: 1,
      contact_unsubscribed: 1,
    };
    const report = await call('GET', `/api/campaigns/${id}/report`);
    expect(report).toMatchObject({ delivered: 1, skipped: 3, skippedByReason: expected });
    const rows = await call('GET', `/api/campaigns/${id}/recipients`);
    const reasonOf = new Map(
      (rows.items as { email: string; skipReason: string | null }[]).map((r) => [r.email, r.skipReason]),
    );
    expect(Object.fromEntries(reasonOf)).toEqual({
      [at('rui')]: 'contact_deleted',
      [at('sara')]: 'suppressed',
      [at('teo')]: 'contact_unsubscribed',
      [at('uri')]: null,
    });

    const csv = await t.app.inject({ url: `/api/campaigns/${id}/report.csv`, headers: user.headers });
    const lines = csv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    const header = (lines[0] as string).split(';');
    const column = header.indexOf('Motivo de não envio');
    expect(column).toBeGreaterThan(0);
    const csvReason = new Map(lines.slice(1).map((l) => [l.split(';')[0], l.split(';')[column]]));
    expect(csvReason.get(at('teo'))).toBe(SKIP_REASON_LABELS.contact_unsubscribed);
    expect(csvReason.get(at('sara'))).toBe(SKIP_REASON_LABELS.suppressed);
    expect(csvReason.get(at('uri'))).toBe('');

    const [event] = await queryRows<{ payload: { data: { skippedByReason: unknown; counts: unknown } } | string }>(
      db,
      sql`select payload from webhook_events where type = 'campaign.finished' and payload::text like ${`%${id}%`}`,
    );
    const payload = typeof event?.payload === 'string' ? JSON.parse(event.payload) : event?.payload;
    expect(payload.data).toMatchObject({ counts: { sent: 1, skipped: 3 }, skippedByReason: expected });
  });

  /** Delivers every queued message of the account's transactional stream through a fresh worker. */
  async function deliverStream(): Promise<void> {
    await runEngineUntil(
      engine.newSender({ signers: [] }),
      async () => {
        const [left] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from messages m join campaigns c on c.id = m.campaign_id
               where c.created_by = ${user.accountId} and c.kind = 'transactional' and m.status = 'queued'`,
        );
        return Number(left?.n) === 0;
      },
      'no stream message queued',
      { ms: 20_000, pauseMs: 0 },
    );
  }
});
