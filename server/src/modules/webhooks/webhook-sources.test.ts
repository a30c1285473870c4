import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENT_SCHEMAS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { SendingEngine } from '../../worker/sending-engine';
import { createRelayTransport } from '../../worker/sending-runtime';
import { accounts } from '../accounts/accounts.db';
import { topups } from '../billing/billing.db';
import { confirmTopupManually } from '../billing/credit-topup';
import { appendLedgerEntry } from '../billing/ledger';
import { notifyLowBalanceIfCrossed } from '../billing/notify-low-balance';
import { DEFAULT_REPORT_SETTINGS, recordDeliveryReport } from '../bounces/record-report';
import { pauseCampaign, resumeCampaign } from '../campaigns/campaign-controls';
import { unsubscribeContacts } from '../contacts/unsubscribe-contacts';
import { runEngineUntil } from '../sending/testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  testSenderSettings,
} from '../sending/testing/send-fixtures';
import { type SmtpSink, startSmtpSink } from '../sending/testing/smtp-sink';
import { signTrackingToken } from '../tracking/tracking-token';
import { createSecretBox } from './signing';
import { startWebhookWorker, type WebhookWorker } from './webhooks-runtime';

/**
 * Every event source, through the real code paths (engine, tracking routes, DSN intake, unsubscribe page,
 * contacts, billing), reaches an endpoint on a loopback receiver exactly as often as it happened.
 */
describe.each(DATABASE_KINDS)('webhook event sources (%s)', (kind) => {
  let t: TestApp;
  let sink: SmtpSink;
  let worker: WebhookWorker;
  let server: http.Server;
  const bodies: Array<{ headers: Record<string, string>; body: string }> = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', WEBHOOKS_RETRY_DELAY_SECONDS: '0' });
    sink = await startSmtpSink();
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    worker = await startWebhookWorker({
      config: t.config,
      db: t.database.db,
      mailer: t.mailer,
      logger: pino({ level: 'silent' }),
      resolver: { addresses: async () => [] },
      box: createSecretBox(t.config.AUTH_SECRET as string),
    });
  });
  afterAll(async () => {
    await worker.stop();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await sink.close();
    await t.close();
  });

  it('emits every event type from its source, once per occurrence, only for the account with the endpoint', async () => {
    const db: Db = t.database.db;
    const owner = await signUp(t, { verified: true });
    const bystander = await signUp(t, { verified: true });
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/endpoints',
      headers: owner.headers,
      payload: { url, eventTypes: [...WEBHOOK_EVENT_TYPES] },
    });
    expect(created.statusCode).toBe(201);
    const secret = (
      await t.app.inject({
        method: 'GET',
        url: `/api/webhooks/endpoints/${created.json().id}/secret`,
        headers: owner.headers,
      })
    ).json().secret as string;

    // The campaign: started, paused (manual), resumed, 3 messages delivered, finished.
    await creditAccount(db, owner.accountId, 100_000);
    const { listId } = await createListWithContacts(
      db,
      owner.accountId,
      ['ana@destino.com.br', 'bia@destino.com.br', 'caio@destino.com.br'],
      { cidade: 'Salvador' },
    );
    const campaignId = await createReadyCampaign(db, owner.accountId, { includeListIds: [listId] });
    const send = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${campaignId}/send`,
      headers: owner.headers,
    });
    expect(send.statusCode, send.body).toBe(200);
    await pauseCampaign(db, owner.accountId, campaignId);
    await resumeCampaign(db, owner.accountId, campaignId);
    const transport = createRelayTransport(sink.url, 1);
    const sender = new SendingEngine({
      db,
      signers: [],
      transports: [transport],
      settings: testSenderSettings(),
      logger: pino({ level: 'silent' }),
      mailer: t.mailer,
    });
    await runEngineUntil(
      sender,
      async () => (await campaignStatus(db, campaignId))?.status === 'sent',
      'the campaign sent',
      {
        pauseMs: 0,
      },
    );
    await sender.stop();
    await transport.close();
    expect((await campaignStatus(db, campaignId))?.status).toBe('sent');

    // A bystander's campaign produces nothing for the owner's endpoint.
    await creditAccount(db, bystander.accountId, 100_000);
    const other = await createListWithContacts(db, bystander.accountId, ['zeca@destino.com.br'], { cidade: 'Recife' });
    const otherCampaign = await createReadyCampaign(db, bystander.accountId, { includeListIds: [other.listId] });
    await t.app.inject({ method: 'POST', url: `/api/campaigns/${otherCampaign}/send`, headers: bystander.headers });

    const msgs = await queryRows<{ id: number; token: string; email: string }>(
      db,
      sql`select id, token, email from messages where campaign_id = ${campaignId} order by email`,
    );
    const [ana, bia, caio] = msgs as [(typeof msgs)[0], (typeof msgs)[0], (typeof msgs)[0]];
    // Open and click (tracking routes, batch recorder).
    // A browser (Mozilla/ token): a person whenever it comes, so no machine window to wait out after delivery.
    const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' };
    const [link] = await queryRows<{ id: number }>(
      db,
      sql`select id from campaign_links where campaign_id = ${campaignId}`,
    );
    expect(
      (await t.app.inject({ method: 'GET', url: `/o/${signTrackingToken(ana.token, 0)}.gif`, headers: browser }))
        .statusCode,
    ).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'GET',
          url: `/c/${signTrackingToken(ana.token, link?.id ?? 0)}`,
          headers: browser,
        })
      ).statusCode,
    ).toBe(302);
    await t.app.trackingRecorder.flush();
    // Bounce and complaint (DSN/ARF intake).
    await recordDeliveryReport(
      db,
      bia.token,
      { type: 'bounce', bounceKind: 'hard', status: '5.1.1', diagnostic: 'user unknown', source: 'dsn' },
      DEFAULT_REPORT_SETTINGS,
    );
    await recordDeliveryReport(
      db,
      caio.token,
      { type: 'complaint', feedbackType: 'abuse', source: 'arf' },
      DEFAULT_REPORT_SETTINGS,
    );
    // Unsubscribe: one-click from the message, and a contact unsubscribed by the sender.
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: `/u/${ana.token}`,
          payload: 'List-Unsubscribe=One-Click',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
        })
      ).statusCode,
    ).toBeLessThan(400);
    const extra = await createListWithContacts(db, owner.accountId, ['duda@destino.com.br']);
    const [duda] = await queryRows<{ id: string }>(
      db,
      sql`select contact_id as id from list_memberships where list_id = ${extra.listId}`,
    );
    expect(await unsubscribeContacts(db, owner.accountId, [duda?.id as string])).toBe(1);
    // Low balance (a debit crossing the threshold) and a top-up credited.
    const [acct] = await db.select().from(accounts).where(eq(accounts.id, owner.accountId));
    const entry = await db.transaction((tx) =>
      appendLedgerEntry(tx, {
        accountId: owner.accountId,
        amountMillis: -((acct?.balanceMillis ?? 0) - 1_000),
        kind: 'adjustment',
        description: 'teste',
      }),
    );
    expect(
      await notifyLowBalanceIfCrossed(
        { db, mailer: t.mailer, thresholdMillis: 5_000, publicUrl: t.config.PUBLIC_URL },
        entry as NonNullable<typeof entry>,
      ),
    ).toBe(true);
    const [topup] = await db
      .insert(topups)
      .values({
        accountId: owner.accountId,
        amountMillis: 20_000,
        txid: 'TESTEWEBHOOK1',
        brCode: 'x',
        expiresAt: new Date(Date.now() + 3600_000),
      })
      .returning();
    await confirmTopupManually(db, { topupId: topup?.id as string, operator: { userId: owner.userId } });

    const expected: Record<WebhookEventType, number> = {
      'message.delivered': 3,
      'message.opened': 1,
      'message.clicked': 1,
      'message.bounced': 1,
      'message.complained': 1,
      'contact.unsubscribed': 2,
      'campaign.started': 1,
      'campaign.finished': 1,
      'campaign.paused': 1,
      'balance.low': 1,
      'topup.credited': 1,
    };
    const total = Object.values(expected).reduce((a, b) => a + b, 0);
    const started = Date.now();
    while (bodies.length < total && Date.now() - started < 20_000) {
      await worker.dispatchOnce();
      await new Promise((r) => setTimeout(r, 50));
    }
    await new Promise((r) => setTimeout(r, 300));
    await worker.dispatchOnce();
    const verifier = new Webhook(secret);
    const events = bodies.map(
      (b) =>
        verifier.verify(b.body, b.headers) as {
          type: WebhookEventType;
          account: { id: string };
          data: Record<string, unknown>;
        },
    );
    const counts = Object.fromEntries(
      WEBHOOK_EVENT_TYPES.map((type) => [type, events.filter((e) => e.type === type).length]),
    );
    expect(counts).toEqual(expected);
    for (const e of events) {
      expect(e.account.id).toBe(owner.accountId);
      const parsed = WEBHOOK_EVENT_SCHEMAS[e.type].safeParse(e);
      expect(parsed.success, `${e.type}: ${JSON.stringify(parsed.error?.issues)}`).toBe(true);
    }
    const finished = events.find((e) => e.type === 'campaign.finished');
    expect(finished?.data).toMatchObject({
      campaignId,
      status: 'sent',
      counts: { sent: 3, failed: 0, skipped: 0 },
      costMillis: 15,
    });
    expect(events.find((e) => e.type === 'message.bounced')?.data).toMatchObject({
      email: bia.email,
      bounceType: 'hard',
    });
    expect(events.find((e) => e.type === 'message.opened')?.data).toMatchObject({ machine: false });
    expect(events.find((e) => e.type === 'message.clicked')?.data).toMatchObject({
      url: 'https://exemplo.com.br/oferta',
      machine: false,
    });
    expect(events.find((e) => e.type === 'topup.credited')?.data).toMatchObject({ amountMillis: 20_000 });
  });
});
