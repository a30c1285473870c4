import { execFileSync } from 'node:child_process';
import { createSign, generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import nodemailer from 'nodemailer';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { type BounceReceiver, type InboundOutcome, startBounceReceiver } from '../bounces/bounce-receiver';
import { DEFAULT_REPORT_SETTINGS, recordDeliveryReport } from '../bounces/record-report';
import { sesWebhookRoutes } from '../bounces/ses-webhook.routes';
import { canonicalSnsString, SnsVerifier } from '../bounces/sns';
import { writeEngagementCounters } from '../campaigns/campaign-records';
import { hashEmail } from '../contacts/email-hash';
import { applyTracking } from './campaign-links';
import { EventRecorder, type PendingEvent } from './event-recorder';
import { signTrackingToken } from './tracking-token';

const PUBLIC = 'http://localhost:3000';

interface Seeded {
  campaignId: string;
  listId: string;
  otherListId: string;
  recipients: Array<{ contactId: string; email: string; token: string; messageId: number }>;
}

async function seed(db: Db, accountId: string, count = 2, status = 'sending'): Promise<Seeded> {
  const [list] = await queryRows<{ id: string }>(
    db,
    sql`insert into lists (account_id, name) values (${accountId}, 'Novidades') returning id`,
  );
  const [other] = await queryRows<{ id: string }>(
    db,
    sql`insert into lists (account_id, name) values (${accountId}, 'Promoções') returning id`,
  );
  const listId = (list as { id: string }).id;
  const otherListId = (other as { id: string }).id;
  const [campaign] = await queryRows<{ id: string }>(
    db,
    sql`insert into campaigns (uuid, created_by, name, subject, include_list_ids, status, template)
        values (${randomUUID()}, ${accountId}, 'Campanha teste', 'Oi', array[${listId}::uuid], ${status},
                '<html><body><a href="https://loja.example/oferta?a=1&amp;b=2">Oferta</a></body></html>') returning id`,
  );
  const campaignId = (campaign as { id: string }).id;
  await db.execute(
    sql`insert into campaign_sends (campaign_id, account_id, recipients) values (${campaignId}, ${accountId}, ${count})`,
  );
  const recipients: Seeded['recipients'] = [];
  for (let i = 0; i < count; i++) {
    const email = `pessoa${i}-${randomUUID().slice(0, 6)}@example.com`;
    const [contact] = await queryRows<{ id: string }>(
      db,
      sql`insert into contacts (account_id, email) values (${accountId}, ${email}) returning id`,
    );
    const contactId = (contact as { id: string }).id;
    await db.execute(
      sql`insert into list_memberships (list_id, contact_id) values (${listId}, ${contactId}), (${otherListId}, ${contactId})`,
    );
    const token = randomBytes(20).toString('hex');
    const [message] = await queryRows<{ id: number }>(
      db,
      sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at)
          values (${campaignId}, ${accountId}, ${contactId}, ${email}, 'sent', ${token}, now() - interval '1 hour') returning id`,
    );
    recipients.push({ contactId, email, token, messageId: Number((message as { id: number }).id) });
  }
  // As the engine keeps them: the campaign's counters equal its message rows.
  await db.execute(sql`update campaigns set sent_count = ${count} where id = ${campaignId}`);
  return { campaignId, listId, otherListId, recipients };
}

async function contactState(db: Db, contactId: string) {
  const [c] = await queryRows<{ status: string }>(db, sql`select status from contacts where id = ${contactId}`);
  const lists = await queryRows<{ list_id: string; status: string }>(
    db,
    sql`select list_id, status from list_memberships where contact_id = ${contactId}`,
  );
  return { status: c?.status, lists: Object.fromEntries(lists.map((l) => [l.list_id, l.status])) };
}

async function suppressed(db: Db, accountId: string, email: string): Promise<boolean> {
  const rows = await queryRows(
    db,
    sql`select 1 from suppressions where account_id = ${accountId} and email_hash = ${hashEmail(email)}`,
  );
  return rows.length > 0;
}

function dsn(token: string, recipient: string, action: string, status: string, diagnostic: string): string {
  const boundary = `b-${randomBytes(4).toString('hex')}`;
  return [
    'From: MAILER-DAEMON@mx.example.net',
    `To: b+${token}@bounces.carteiro.test`,
    'Subject: Undelivered Mail Returned to Sender',
    'Auto-Submitted: auto-replied',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=delivery-status; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=us-ascii',
    '',
    'This is the mail system at host mx.example.net. Your message could not be delivered.',
    '',
    `--${boundary}`,
    'Content-Type: message/delivery-status',
    '',
    'Reporting-MTA: dns; mx.example.net',
    'Arrival-Date: Mon, 1 Jan 2024 10:00:00 +0000',
    '',
    `Final-Recipient: rfc822; ${recipient}`,
    `Original-Recipient: rfc822;${recipient}`,
    `Action: ${action}`,
    `Status: ${status}`,
    `Diagnostic-Code: smtp; ${diagnostic}`,
    '',
    `--${boundary}`,
    'Content-Type: text/rfc822-headers',
    '',
    `Return-Path: <b+${token}@bounces.carteiro.test>`,
    `Message-ID: <${token}@carteiro.test>`,
    'Subject: Oi',
    '',
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

function arf(token: string, recipient: string): string {
  const boundary = `a-${randomBytes(4).toString('hex')}`;
  return [
    'From: fbl@isp.example',
    'To: abuse@bounces.carteiro.test',
    'Subject: FW: Oi',
    'MIME-Version: 1.0',
    `Content-Type: multipart/report; report-type=feedback-report; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain',
    '',
    'This is an email abuse report.',
    '',
    `--${boundary}`,
    'Content-Type: message/feedback-report',
    '',
    'Feedback-Type: abuse',
    'User-Agent: SomeGenerator/1.0',
    'Version: 1',
    `Original-Rcpt-To: ${recipient}`,
    '',
    `--${boundary}`,
    'Content-Type: message/rfc822',
    '',
    `Return-Path: <b+${token}@bounces.carteiro.test>`,
    `Message-ID: <${token}@carteiro.test>`,
    'From: loja@example.com',
    `To: ${recipient}`,
    'Subject: Oi',
    '',
    'corpo',
    '',
    `--${boundary}--`,
    '',
  ].join('\r\n');
}

const outOfOffice = (token: string) =>
  [
    'From: pessoa@example.com',
    `To: b+${token}@bounces.carteiro.test`,
    'Subject: Resposta automática: Fora do escritório',
    'Auto-Submitted: auto-replied',
    'Content-Type: text/plain; charset=utf-8',
    '',
    'Estou de férias até segunda.',
    '',
  ].join('\r\n');

describe.each(DATABASE_KINDS)('after the send on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let accountId: string;
  let headers: { cookie: string; origin: string };
  let receiver: BounceReceiver;
  const waiting: Array<(o: InboundOutcome) => void> = [];
  let smtp: ReturnType<typeof nodemailer.createTransport>;

  beforeAll(async () => {
    t = await createTestApp(kind, { PUBLIC_URL: PUBLIC, TRACKING_FLUSH_MS: '10' });
    db = t.database.db;
    const user = await signUp(t, { verified: true });
    accountId = user.accountId;
    headers = user.headers;
    receiver = await startBounceReceiver({
      db,
      port: 0,
      logger: pino({ level: 'silent' }),
      settings: { ...DEFAULT_REPORT_SETTINGS, softBounceLimit: 3 },
      onHandled: (o) => waiting.shift()?.(o),
    });
    smtp = nodemailer.createTransport({ host: '127.0.0.1', port: receiver.port, secure: false, ignoreTLS: true });
  });
  afterAll(async () => {
    smtp?.close();
    await receiver?.close();
    await t?.close();
  });

  const deliver = (to: string, raw: string) =>
    new Promise<InboundOutcome>((resolve, reject) => {
      waiting.push(resolve);
      smtp.sendMail({ envelope: { from: '', to: [to] }, raw }).catch(reject);
    });

  // --- RFC 8058 one-click ---------------------------------------------------------------------------------
  it('one-click POST form-urlencoded without cookies → 200, no redirect, unsubscribed from the campaign lists; repeat idempotent', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const post = () =>
      t.app.inject({
        method: 'POST',
        url: `/u/${r.token}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'List-Unsubscribe=One-Click',
      });
    const res = await post();
    expect(res.statusCode).toBe(200);
    expect(res.headers.location).toBeUndefined();
    const state = await contactState(db, r.contactId);
    expect(state.lists[s.listId]).toBe('unsubscribed');
    expect(state.lists[s.otherListId]).toBe('subscribed');
    expect((await post()).statusCode).toBe(200);
    const events = await queryRows(
      db,
      sql`select 1 from message_events where message_id = ${r.messageId} and kind = 'unsubscribe'`,
    );
    expect(events).toHaveLength(1);
  });

  it('one-click POST multipart/form-data → 200 and unsubscribed', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const boundary = '----carteiro123';
    const payload = `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`;
    const res = await t.app.inject({
      method: 'POST',
      url: `/u/${r.token}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode).toBe(200);
    expect((await contactState(db, r.contactId)).lists[s.listId]).toBe('unsubscribed');
  });

  it('GET shows a pt-BR page and changes nothing; tampered token → 404, no change', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const res = await t.app.inject({ method: 'GET', url: `/u/${r.token}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Confirmar cancelamento');
    expect(res.body).toContain('Promoções');
    expect((await contactState(db, r.contactId)).lists[s.listId]).toBe('subscribed');
    const tampered = `${r.token.slice(0, -1)}${r.token.endsWith('0') ? '1' : '0'}`;
    const bad = await t.app.inject({
      method: 'POST',
      url: `/u/${tampered}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(bad.statusCode).toBe(404);
    expect((await contactState(db, r.contactId)).lists[s.listId]).toBe('subscribed');
  });

  it("preference centre: another account's list → 400 and no change; resubscribe restores", async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const other = await signUp(t, { verified: true });
    const foreign = await seed(db, other.accountId, 1);
    const res = await t.app.inject({
      method: 'POST',
      url: `/u/${r.token}/preferences`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `list=${foreign.listId}`,
    });
    expect(res.statusCode).toBe(400);
    expect((await contactState(db, r.contactId)).lists[s.listId]).toBe('subscribed');
    // Keep only Promoções.
    const keep = await t.app.inject({
      method: 'POST',
      url: `/u/${r.token}/preferences`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `list=${s.otherListId}`,
    });
    expect(keep.statusCode).toBe(200);
    expect((await contactState(db, r.contactId)).lists).toEqual({
      [s.listId]: 'unsubscribed',
      [s.otherListId]: 'subscribed',
    });
    const back = await t.app.inject({ method: 'POST', url: `/u/${r.token}/resubscribe` });
    expect(back.statusCode).toBe(200);
    expect((await contactState(db, r.contactId)).lists[s.listId]).toBe('subscribed');
  });

  // --- Tracking --------------------------------------------------------------------------------------------
  it('rewrites links, redirects only to the stored URL, ignores ?url=, 404s altered tokens', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const html = await applyTracking(
      db,
      '<html><body><a href="https://loja.example/oferta?a=1&amp;b=2">Oferta</a> <a href="mailto:x@y.z">m</a></body></html>',
      {
        campaignId: s.campaignId,
        messageToken: r.token,
        publicUrl: PUBLIC,
      },
    );
    const click = /href="(http:\/\/localhost:3000\/c\/[^"]+)"/.exec(html)?.[1] as string;
    expect(click).toBeTruthy();
    expect(html).toContain('href="mailto:x@y.z"');
    expect(html).toMatch(/<img src="http:\/\/localhost:3000\/o\/[A-Za-z0-9_-]+\.gif"/);
    const path = click.slice(PUBLIC.length);
    const ok = await t.app.inject({
      method: 'GET',
      url: path,
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' },
    });
    expect(ok.statusCode).toBe(302);
    expect(ok.headers.location).toBe('https://loja.example/oferta?a=1&b=2');
    expect(ok.headers['cache-control']).toBe('no-store');
    expect(ok.headers['referrer-policy']).toBe('no-referrer'); // the token never reaches the destination
    expect(ok.headers['content-security-policy']).toBe("default-src 'none'");
    const withUrl = await t.app.inject({ method: 'GET', url: `${path}?url=https://evil.example` });
    expect(withUrl.headers.location).toBe('https://loja.example/oferta?a=1&b=2');
    const token = path.slice(3);
    const altered = `${token.slice(0, 10)}${token[10] === 'A' ? 'B' : 'A'}${token.slice(11)}`;
    const bad = await t.app.inject({ method: 'GET', url: `/c/${altered}?url=https://evil.example` });
    expect(bad.statusCode).toBe(404);
    expect(bad.headers.location).toBeUndefined();
    const unknownLink = await t.app.inject({ method: 'GET', url: `/c/${signTrackingToken(r.token, 999_999)}` });
    expect(unknownLink.statusCode).toBe(404);
    expect(unknownLink.headers.location).toBeUndefined();
    await t.app.trackingRecorder.flush();
    const report = (
      await t.app.inject({ method: 'GET', url: `/api/campaigns/${s.campaignId}/report`, headers })
    ).json();
    expect(report.clicks.unique).toBe(1);
    expect(report.links[0]).toMatchObject({ url: 'https://loja.example/oferta?a=1&b=2', clicks: 2 });
  });

  it('open pixel: GIF, no-store, parameters ignored; Apple MPP / HEAD / scanners flagged machine', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const url = `/o/${signTrackingToken(r.token, 0)}.gif`;
    const human = await t.app.inject({
      method: 'GET',
      url: `${url}?redirect=https://evil.example&x=1`,
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone) Mobile' },
    });
    expect(human.statusCode).toBe(200);
    expect(human.headers['content-type']).toBe('image/gif');
    expect(String(human.headers['cache-control'])).toContain('no-store');
    expect(human.headers['content-security-policy']).toBe("default-src 'none'");
    expect(human.headers['x-content-type-options']).toBe('nosniff');
    expect(human.headers.location).toBeUndefined();
    expect(human.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    await t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Mozilla/5.0' }, remoteAddress: '17.58.1.2' });
    await t.app.inject({ method: 'HEAD', url, headers: { 'user-agent': 'Mozilla/5.0 (Windows) Chrome/120' } });
    await t.app.inject({ method: 'GET', url, headers: { 'user-agent': 'Barracuda Sentinel (EE)' } });
    const forged = await t.app.inject({ method: 'GET', url: `/o/${'x'.repeat(48)}.gif` });
    expect(forged.statusCode).toBe(200);
    await t.app.trackingRecorder.flush();
    const rows = await queryRows<{ machine: boolean }>(
      db,
      sql`select machine from message_events where message_id = ${r.messageId} and kind = 'open' order by id`,
    );
    expect(rows.map((x) => x.machine).sort()).toEqual([false, true, true, true]);
    const report = (
      await t.app.inject({ method: 'GET', url: `/api/campaigns/${s.campaignId}/report`, headers })
    ).json();
    expect(report.opens).toMatchObject({ uniqueHuman: 1, machine: 3 });
  });

  it('clicks: HEAD and scanner agents flagged machine; a non-browser agent right after delivery is a machine, later a person', async () => {
    const s = await seed(db, accountId, 2);
    const [early, late] = s.recipients as [Seeded['recipients'][number], Seeded['recipients'][number]];
    // `early` was delivered just now (inside TRACKING_MACHINE_WINDOW_SECONDS); `late` an hour ago.
    await db.execute(sql`update messages set sent_at = now() where id = ${early.messageId}`);
    const clickOf = async (token: string) => {
      const html = await applyTracking(db, '<html><body><a href="https://loja.example/b">B</a></body></html>', {
        campaignId: s.campaignId,
        messageToken: token,
        publicUrl: PUBLIC,
      });
      return (/href="http:\/\/localhost:3000(\/c\/[^"]+)"/.exec(html)?.[1] as string) ?? '';
    };
    const lateClick = await clickOf(late.token);
    const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' };
    const head = await t.app.inject({ method: 'HEAD', url: lateClick, headers: browser });
    expect(head.statusCode).toBe(302);
    for (const ua of ['Mozilla/5.0 (compatible; Proofpoint URL Defense)', 'python-requests/2.31', '']) {
      expect((await t.app.inject({ method: 'GET', url: lateClick, headers: { 'user-agent': ua } })).statusCode).toBe(
        302,
      );
    }
    // A mail app's own fetcher (no Mozilla/ token): a person when it comes an hour after delivery…
    const app = { 'user-agent': 'Outlook-iOS/709.2189947.prod.iphone (4.2.1)' };
    await t.app.inject({ method: 'GET', url: lateClick, headers: app });
    // …a gateway scanning on arrival when it comes within seconds of it.
    await t.app.inject({ method: 'GET', url: await clickOf(early.token), headers: app });
    await t.app.inject({ method: 'GET', url: `/o/${signTrackingToken(early.token, 0)}.gif`, headers: app });
    await t.app.trackingRecorder.flush();
    const eventsOf = (id: number) =>
      queryRows<{ kind: string; machine: boolean }>(
        db,
        sql`select kind, machine from message_events where message_id = ${id} order by id`,
      );
    expect((await eventsOf(late.messageId)).map((e) => [e.kind, e.machine])).toEqual([
      ['click', true],
      ['click', true],
      ['click', true],
      ['click', true],
      ['click', false],
    ]);
    expect((await eventsOf(early.messageId)).map((e) => [e.kind, e.machine])).toEqual([
      ['click', true],
      ['open', true],
    ]);
    const report = (
      await t.app.inject({ method: 'GET', url: `/api/campaigns/${s.campaignId}/report`, headers })
    ).json();
    expect(report.clicks.unique).toBe(1);
    expect(report.opens.uniqueHuman).toBe(0);
  });

  // --- Bounces over SMTP ----------------------------------------------------------------------------------
  it('DSN 5.1.1 → hard bounce, contact bounced and suppressed', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const outcome = await deliver(
      `b+${r.token}@bounces.carteiro.test`,
      dsn(r.token, r.email, 'failed', '5.1.1', '550 5.1.1 user unknown'),
    );
    expect(outcome).toMatchObject({ recorded: true, suppressed: true });
    expect((await contactState(db, r.contactId)).status).toBe('bounced');
    expect(await suppressed(db, accountId, r.email)).toBe(true);
  });

  it('DSN 4.2.2 → soft, not suppressed (until the configured count)', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const outcome = await deliver(
      `b+${r.token}@bounces.carteiro.test`,
      dsn(r.token, r.email, 'delayed', '4.2.2', '452 4.2.2 mailbox full'),
    );
    expect(outcome).toMatchObject({ recorded: true, suppressed: false });
    expect((await contactState(db, r.contactId)).status).toBe('subscribed');
    expect(await suppressed(db, accountId, r.email)).toBe(false);
    const [e] = await queryRows<{ bounce_kind: string }>(
      db,
      sql`select bounce_kind from message_events where message_id = ${r.messageId}`,
    );
    expect(e?.bounce_kind).toBe('soft');
  });

  it('soft bounces of one contact across campaigns: suppressed at the configured count (3), not before', async () => {
    const first = await seed(db, accountId, 1);
    const r = first.recipients[0] as Seeded['recipients'][number];
    // Two more campaigns that reached the same contact.
    const tokens = [r.token];
    for (let i = 0; i < 2; i++) {
      const [campaign] = await queryRows<{ id: string }>(
        db,
        sql`insert into campaigns (uuid, created_by, name, subject, include_list_ids, status, template)
            values (${randomUUID()}, ${accountId}, ${`Campanha ${i}`}, 'Oi', array[${first.listId}::uuid], 'sent', '<p>x</p>')
            returning id`,
      );
      const token = randomBytes(20).toString('hex');
      await db.execute(
        sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at)
            values (${(campaign as { id: string }).id}, ${accountId}, ${r.contactId}, ${r.email}, 'sent', ${token}, now())`,
      );
      tokens.push(token);
    }
    const outcomes: InboundOutcome[] = [];
    for (const token of tokens) {
      outcomes.push(
        await deliver(
          `b+${token}@bounces.carteiro.test`,
          dsn(token, r.email, 'delayed', '4.2.2', '452 4.2.2 mailbox full'),
        ),
      );
      if (outcomes.length < 3) {
        expect((await contactState(db, r.contactId)).status).toBe('subscribed');
        expect(await suppressed(db, accountId, r.email)).toBe(false);
      }
    }
    expect(outcomes.map((o) => (o as { suppressed?: boolean }).suppressed)).toEqual([false, false, true]);
    expect((await contactState(db, r.contactId)).status).toBe('bounced');
    expect(await suppressed(db, accountId, r.email)).toBe(true);
    // The same DSN delivered again is a duplicate, not a fourth bounce.
    const again = await deliver(
      `b+${r.token}@bounces.carteiro.test`,
      dsn(r.token, r.email, 'delayed', '4.2.2', '452 4.2.2 mailbox full'),
    );
    expect(again).toMatchObject({ recorded: false });
  });

  it('DSN 5.7.26 → policy: flagged, not suppressed', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const outcome = await deliver(
      `b+${r.token}@bounces.carteiro.test`,
      dsn(r.token, r.email, 'failed', '5.7.26', '550 5.7.26 unauthenticated mail is prohibited'),
    );
    expect(outcome).toMatchObject({ recorded: true, suppressed: false });
    expect((await contactState(db, r.contactId)).status).toBe('subscribed');
    expect(await suppressed(db, accountId, r.email)).toBe(false);
    const alerts = await queryRows(
      db,
      sql`select 1 from campaign_alerts where campaign_id = ${s.campaignId} and kind = 'policy_rejection'`,
    );
    expect(alerts).toHaveLength(1);
  });

  it('out-of-office auto-reply → nothing', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const outcome = await deliver(`b+${r.token}@bounces.carteiro.test`, outOfOffice(r.token));
    expect(outcome).toMatchObject({ recorded: false, reason: 'auto-reply' });
    expect(await queryRows(db, sql`select 1 from message_events where message_id = ${r.messageId}`)).toHaveLength(0);
  });

  it('ARF abuse report → complaint, suppressed and off every list of the account', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const outcome = await deliver('abuse@bounces.carteiro.test', arf(r.token, r.email));
    expect(outcome).toMatchObject({ recorded: true, suppressed: true });
    const state = await contactState(db, r.contactId);
    expect(state.status).toBe('complained');
    expect(Object.values(state.lists)).toEqual(['unsubscribed', 'unsubscribed']);
    expect(await suppressed(db, accountId, r.email)).toBe(true);
  });

  it('forged VERP token → ignored', async () => {
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const forged = randomBytes(20).toString('hex');
    const outcome = await deliver(
      `b+${forged}@bounces.carteiro.test`,
      dsn(forged, r.email, 'failed', '5.1.1', '550 5.1.1 user unknown'),
    );
    expect(outcome).toMatchObject({ recorded: false, reason: 'unknown_message' });
    expect((await contactState(db, r.contactId)).status).toBe('subscribed');
  });

  // --- Protection ------------------------------------------------------------------------------------------
  it('auto-pauses a sending campaign past 5% hard bounces after ≥ 500 deliveries (not before)', async () => {
    const settings = { ...DEFAULT_REPORT_SETTINGS, protectionMinDeliveries: 20 };
    const s = await seed(db, accountId, 20);
    // 1 of 20 = 5%: not above the limit.
    await recordDeliveryReport(
      db,
      s.recipients[0]?.token as string,
      { type: 'bounce', bounceKind: 'hard', status: '5.1.1', diagnostic: null, source: 'test' },
      settings,
    );
    expect(
      (await queryRows<{ status: string }>(db, sql`select status from campaigns where id = ${s.campaignId}`))[0]
        ?.status,
    ).toBe('sending');
    const out = await recordDeliveryReport(
      db,
      s.recipients[1]?.token as string,
      { type: 'bounce', bounceKind: 'hard', status: '5.1.1', diagnostic: null, source: 'test' },
      settings,
    );
    expect(out).toMatchObject({ paused: true });
    const [row] = await queryRows<{ status: string; paused_reason: string }>(
      db,
      sql`select c.status, s.paused_reason from campaigns c join campaign_sends s on s.campaign_id = c.id where c.id = ${s.campaignId}`,
    );
    expect(row?.status).toBe('paused');
    expect(row?.paused_reason).toContain('devoluções permanentes');
    expect(
      await queryRows(
        db,
        sql`select 1 from campaign_alerts where campaign_id = ${s.campaignId} and kind = 'hard_bounce_rate'`,
      ),
    ).toHaveLength(1);
    // Default minimum: 500 deliveries.
    const small = await seed(db, accountId, 3);
    const o2 = await recordDeliveryReport(
      db,
      small.recipients[0]?.token as string,
      { type: 'bounce', bounceKind: 'hard', status: '5.1.1', diagnostic: null, source: 'test' },
      DEFAULT_REPORT_SETTINGS,
    );
    expect(o2).toMatchObject({ paused: false });
  });

  it('auto-pauses past 0.1% complaints', async () => {
    const settings = { ...DEFAULT_REPORT_SETTINGS, protectionMinDeliveries: 10 };
    const s = await seed(db, accountId, 10);
    const out = await recordDeliveryReport(
      db,
      s.recipients[0]?.token as string,
      { type: 'complaint', feedbackType: 'abuse', source: 'test' },
      settings,
    );
    expect(out).toMatchObject({ paused: true });
    const [row] = await queryRows<{ paused_reason: string }>(
      db,
      sql`select paused_reason from campaign_sends where campaign_id = ${s.campaignId}`,
    );
    expect(row?.paused_reason).toContain('reclamações');
  });

  // --- Reports ---------------------------------------------------------------------------------------------
  it('reports are account-scoped: recipients, CSV, contact activity, dashboard; another account → 404', async () => {
    const s = await seed(db, accountId, 3);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const recipients = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${s.campaignId}/recipients?search=pessoa0`,
      headers,
    });
    expect(recipients.statusCode).toBe(200);
    expect(recipients.json().items).toHaveLength(1);
    const csv = await t.app.inject({ method: 'GET', url: `/api/campaigns/${s.campaignId}/report.csv`, headers });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.split('\r\n').filter(Boolean)).toHaveLength(4);
    // Like the other pt-BR exports: pt-BR headers, São Paulo local times, a file name a person recognises.
    expect(csv.body.split('\r\n')[0]).toBe(
      '\ufeffE-mail;Situação;Enviada em;Aberturas;Cliques;Última abertura;Último clique;Descadastrou;Devolução;Reclamação;Motivo de não envio',
    );
    expect(csv.body).toMatch(/;entregue;\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2};/);
    expect(csv.body).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(csv.headers['content-disposition']).toMatch(
      /^attachment; filename="relatorio-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(csv.headers['content-disposition']).not.toContain(s.campaignId);
    const activity = await t.app.inject({ method: 'GET', url: `/api/contacts/${r.contactId}/activity`, headers });
    expect(activity.json().messages).toHaveLength(1);
    // The dashboard's numbers through the real engine: reports/dashboard-stats.test.ts. Here: only its account's.
    const stats = await t.app.inject({ method: 'GET', url: '/api/dashboard/stats', headers });
    expect(stats.statusCode).toBe(200);
    const other = await signUp(t, { verified: true });
    const otherStats = await t.app.inject({ method: 'GET', url: '/api/dashboard/stats', headers: other.headers });
    expect(otherStats.json()).toMatchObject({ sentThisMonth: 0, sentTotal: 0, rateWindowDelivered: 0 });
    for (const url of [
      `/api/campaigns/${s.campaignId}/report`,
      `/api/campaigns/${s.campaignId}/recipients`,
      `/api/campaigns/${s.campaignId}/report.csv`,
      `/api/contacts/${r.contactId}/activity`,
    ]) {
      expect((await t.app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(404);
    }
  });

  // --- Amazon SES over SNS ---------------------------------------------------------------------------------
  it('SES/SNS: valid signature (v1 and v2) → bounce recorded; tampered → 403; foreign cert URL never fetched; subscription confirmed', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sns-'));
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    fs.writeFileSync(path.join(dir, 'key.pem'), privateKey.export({ type: 'pkcs8', format: 'pem' }));
    execFileSync('openssl', [
      'req',
      '-new',
      '-x509',
      '-key',
      path.join(dir, 'key.pem'),
      '-out',
      path.join(dir, 'cert.pem'),
      '-days',
      '2',
      '-subj',
      '/CN=sns.amazonaws.com',
    ]);
    const pem = fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8');
    const fetched: string[] = [];
    const confirmed: string[] = [];
    const app = Fastify();
    await app.register(sesWebhookRoutes, {
      db,
      verifier: new SnsVerifier(async (url) => {
        fetched.push(url);
        return pem;
      }),
      confirm: async (url) => {
        confirmed.push(url);
      },
      settings: DEFAULT_REPORT_SETTINGS,
      topicArns: [],
    });
    await app.ready();
    const s = await seed(db, accountId);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const topic = 'arn:aws:sns:us-east-1:123456789012:ses-bounces';
    const certUrl = 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-abc.pem';
    const sign = (m: Record<string, string>, version: '1' | '2'): Record<string, string> => {
      const signer = createSign(version === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
      signer.update(canonicalSnsString(m as never));
      return {
        ...m,
        SignatureVersion: version,
        SigningCertURL: m.SigningCertURL ?? certUrl,
        Signature: signer.sign(privateKey, 'base64'),
      };
    };
    const notification = (token: string, bounceType: string, status: string) => ({
      Type: 'Notification',
      MessageId: randomUUID(),
      TopicArn: topic,
      Timestamp: new Date().toISOString(),
      SigningCertURL: certUrl,
      Message: JSON.stringify({
        notificationType: 'Bounce',
        bounce: {
          bounceType,
          bouncedRecipients: [{ emailAddress: r.email, status, diagnosticCode: `smtp; 550 ${status}` }],
        },
        mail: { source: `b+${token}@bounces.carteiro.test`, messageId: 'x' },
      }),
    });
    const post = (body: unknown) =>
      app.inject({
        method: 'POST',
        url: '/api/webhooks/ses',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });

    // Tampered: signed, then the Message changed.
    const signed = sign(notification(r.token, 'Permanent', '5.1.1'), '2');
    const tampered = { ...signed, Message: (signed.Message as string).replace('Permanent', 'Transient') };
    expect((await post(tampered)).statusCode).toBe(403);
    // Foreign certificate host: 403 and never fetched.
    const foreign = sign(
      { ...notification(r.token, 'Permanent', '5.1.1'), SigningCertURL: 'https://evil.example/cert.pem' },
      '2',
    );
    expect((await post(foreign)).statusCode).toBe(403);
    expect(fetched.every((u) => u === certUrl)).toBe(true);
    expect(await suppressed(db, accountId, r.email)).toBe(false);

    expect((await post(signed)).statusCode).toBe(200);
    expect((await contactState(db, r.contactId)).status).toBe('bounced');
    expect(await suppressed(db, accountId, r.email)).toBe(true);

    const r2 = s.recipients[1] as Seeded['recipients'][number];
    const v1 = sign(notification(r2.token, 'Transient', '4.2.2'), '1');
    expect((await post(v1)).statusCode).toBe(200);
    expect((await contactState(db, r2.contactId)).status).toBe('subscribed');

    const subscribeUrl = 'https://sns.us-east-1.amazonaws.com/?Action=ConfirmSubscription&Token=abc';
    const sub = sign(
      {
        Type: 'SubscriptionConfirmation',
        MessageId: randomUUID(),
        TopicArn: topic,
        Timestamp: new Date().toISOString(),
        Token: 'abc',
        SubscribeURL: subscribeUrl,
        Message: 'confirm',
      },
      '2',
    );
    expect((await post(sub)).json()).toMatchObject({ subscription: 'confirmed' });
    expect(confirmed).toEqual([subscribeUrl]);
    const evilSub = sign(
      {
        Type: 'SubscriptionConfirmation',
        MessageId: randomUUID(),
        TopicArn: topic,
        Timestamp: new Date().toISOString(),
        Token: 'abc',
        SubscribeURL: 'https://evil.example/confirm',
        Message: 'confirm',
      },
      '2',
    );
    expect((await post(evilSub)).json()).toMatchObject({ subscription: 'failed' });
    expect(confirmed).toEqual([subscribeUrl]);
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

// --- Batched open/click writes ------------------------------------------------------------------------------
describe.each(DATABASE_KINDS)('tracking event batches on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let accountId: string;
  const silent = pino({ level: 'silent' });
  const browser = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' };

  beforeAll(async () => {
    // A flush interval far longer than the test: only flush() and close() write.
    t = await createTestApp(kind, { PUBLIC_URL: PUBLIC, TRACKING_FLUSH_MS: '10000' });
    db = t.database.db;
    accountId = (await signUp(t, { verified: true })).accountId;
  });
  afterAll(async () => {
    await t?.close();
  });

  const eventsOf = (messageId: number) =>
    queryRows<{ kind: string; machine: boolean; link_id: number | null; user_agent: string | null }>(
      db,
      sql`select kind, machine, link_id, user_agent from message_events where message_id = ${messageId} order by id`,
    );
  const clickPath = async (s: Seeded, token: string) => {
    const html = await applyTracking(db, '<html><body><a href="https://loja.example/a">A</a></body></html>', {
      campaignId: s.campaignId,
      messageToken: token,
      publicUrl: PUBLIC,
    });
    return (/href="http:\/\/localhost:3000(\/c\/[^"]+)"/.exec(html)?.[1] as string) ?? '';
  };

  it('answers at once, writes nothing until the batch is flushed, then one row per request', async () => {
    const s = await seed(db, accountId, 2);
    const [a, b] = s.recipients as [Seeded['recipients'][number], Seeded['recipients'][number]];
    const pixel = (token: string) => `/o/${signTrackingToken(token, 0)}.gif`;
    const before = t.app.trackingRecorder.pending;
    for (let i = 0; i < 3; i++) {
      expect((await t.app.inject({ method: 'GET', url: pixel(a.token), headers: browser })).statusCode).toBe(200);
    }
    await t.app.inject({ method: 'HEAD', url: pixel(b.token), headers: browser });
    const click = await clickPath(s, b.token);
    expect((await t.app.inject({ method: 'GET', url: click, headers: browser })).statusCode).toBe(302);
    expect(t.app.trackingRecorder.pending).toBe(before + 5);
    expect(await eventsOf(a.messageId)).toEqual([]);
    expect(await eventsOf(b.messageId)).toEqual([]);

    await t.app.trackingRecorder.flush();
    expect(t.app.trackingRecorder.pending).toBe(0);
    expect((await eventsOf(a.messageId)).map((e) => [e.kind, e.machine])).toEqual([
      ['open', false],
      ['open', false],
      ['open', false],
    ]);
    const bEvents = await eventsOf(b.messageId);
    expect(bEvents.map((e) => [e.kind, e.machine])).toEqual([
      ['open', true],
      ['click', false],
    ]);
    expect(bEvents[1]?.link_id).toBeGreaterThan(0);
  });

  it('stores user agents with quotes, backslashes, braces and commas exactly; empty → null', async () => {
    const s = await seed(db, accountId, 1);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const odd = [
      'Mozilla/5.0 "quoted" \\back\\slash\\ {braces}, commas, NULL',
      'NULL',
      'Mozilla/5.0 (ação; São Paulo) ☃',
    ];
    const url = `/o/${signTrackingToken(r.token, 0)}.gif`;
    for (const ua of odd) await t.app.inject({ method: 'GET', url, headers: { 'user-agent': ua } });
    await t.app.inject({ method: 'GET', url, headers: { 'user-agent': '' } });
    await t.app.trackingRecorder.flush();
    expect((await eventsOf(r.messageId)).map((e) => e.user_agent)).toEqual([...odd, null]);
  });

  it('a click on a link of another campaign, or a token of an unknown message, is answered but not recorded', async () => {
    const s = await seed(db, accountId, 1);
    const other = await seed(db, accountId, 1);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const foreignClick = await clickPath(other, (other.recipients[0] as Seeded['recipients'][number]).token);
    const foreignLinkId = Number(
      (
        await queryRows<{ id: number }>(db, sql`select id from campaign_links where campaign_id = ${other.campaignId}`)
      )[0]?.id,
    );
    expect(foreignClick).toBeTruthy();
    const crossed = await t.app.inject({ method: 'GET', url: `/c/${signTrackingToken(r.token, foreignLinkId)}` });
    expect(crossed.statusCode).toBe(302); // the link exists; the event is dropped at write time
    const ghost = randomBytes(20).toString('hex');
    expect((await t.app.inject({ method: 'GET', url: `/o/${signTrackingToken(ghost, 0)}.gif` })).statusCode).toBe(200);
    await t.app.trackingRecorder.flush();
    expect(await eventsOf(r.messageId)).toEqual([]);
    const ghosts = await queryRows(db, sql`select 1 from message_events where user_agent is null and message_id < 0`);
    expect(ghosts).toEqual([]);
  });

  it('a full batch (maxBatch) is written without waiting for the interval; past maxPending events are dropped and counted', async () => {
    const s = await seed(db, accountId, 1);
    const r = s.recipients[0] as Seeded['recipients'][number];
    const recorder = new EventRecorder(db, {
      logger: silent,
      writeEngagementCounters,
      flushMs: 60_000,
      maxBatch: 3,
      maxPending: 4,
    });
    const event = (): PendingEvent => ({
      messageToken: r.token,
      kind: 'open',
      linkId: null,
      machine: false,
      nonBrowser: false,
      userAgent: 'Mozilla/5.0 (X11) Firefox/130',
      ip: '203.0.113.9',
      at: new Date(),
    });
    for (let i = 0; i < 3; i++) recorder.record(event());
    // The third event started the write; two more fill maxPending (3 in flight + 1 queued), the sixth is dropped.
    recorder.record(event());
    recorder.record(event());
    expect(recorder.stats.dropped).toBe(1);
    for (let i = 0; i < 50 && recorder.stats.written < 3; i++) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(recorder.stats.written).toBe(3);
    expect(await eventsOf(r.messageId)).toHaveLength(3);
    await recorder.close();
    expect(await eventsOf(r.messageId)).toHaveLength(4);
    recorder.record(event()); // closed: ignored
    await recorder.flush();
    expect(await eventsOf(r.messageId)).toHaveLength(4);
    expect(recorder.stats).toMatchObject({ recorded: 4, written: 4, dropped: 1, failedBatches: 0 });
  });

  it('closing the app (graceful shutdown) writes the last batch and refreshes the campaign counters', async () => {
    const s = await seed(db, accountId, 2);
    const [a, b] = s.recipients as [Seeded['recipients'][number], Seeded['recipients'][number]];
    await t.app.inject({ method: 'GET', url: `/o/${signTrackingToken(a.token, 0)}.gif`, headers: browser });
    await t.app.inject({ method: 'GET', url: `/o/${signTrackingToken(a.token, 0)}.gif`, headers: browser });
    await t.app.inject({
      method: 'GET',
      url: `/o/${signTrackingToken(b.token, 0)}.gif`,
      headers: { 'user-agent': '' },
    });
    await t.app.inject({ method: 'GET', url: await clickPath(s, b.token), headers: browser });
    expect(await eventsOf(a.messageId)).toEqual([]);
    await t.app.close(); // runtime.stop() closes the app before the database
    expect(await eventsOf(a.messageId)).toHaveLength(2);
    expect((await eventsOf(b.messageId)).map((e) => [e.kind, e.machine])).toEqual([
      ['open', true],
      ['click', false],
    ]);
    const [counters] = await queryRows<{ opened_count: number; clicked_count: number }>(
      db,
      sql`select opened_count, clicked_count from campaigns where id = ${s.campaignId}`,
    );
    expect(counters).toEqual({ opened_count: 1, clicked_count: 1 });
  });
});
