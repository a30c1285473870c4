import { transactionalMessageSchema } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createDatabaseBeforeMigration, DATABASE_KINDS, insertAccountRow } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  testSenderSettings,
} from '../sending/testing/send-fixtures';
import { sendTransactional } from '../transactional/send-transactional';
import { dashboardStats } from './reports';

const BROWSER = { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/120 Safari/537.36' };

/**
 * What the dashboard must say, counted from every message and event of the account (what dashboardStats read
 * before it read the rollup): the oracle.
 */
async function rawDashboard(db: Db, accountId: string) {
  const [row] = await queryRows<Record<string, number>>(
    db,
    sql`select (select count(*) from messages where account_id = ${accountId} and status = 'sent'
                  and sent_at >= date_trunc('month', now(), 'UTC'))::int as month,
               (select count(*) from messages where account_id = ${accountId} and status = 'sent')::int as total,
               (select count(*) from messages where account_id = ${accountId} and status = 'sent'
                  and sent_at >= date_trunc('month', now(), 'UTC') - interval '1 month')::int as delivered,
               (select count(distinct message_id) from message_events
                 where account_id = ${accountId} and kind = 'open' and not machine)::int as opened,
               (select count(distinct message_id) from message_events
                 where account_id = ${accountId} and kind = 'click' and not machine)::int as clicked`,
  );
  const r = row as Record<'month' | 'total' | 'delivered' | 'opened' | 'clicked', number>;
  const rate = (x: number) => (r.delivered > 0 ? Math.round((x / r.delivered) * 10_000) / 10_000 : 0);
  return {
    sentThisMonth: r.month,
    sentTotal: r.total,
    openRate: rate(r.opened),
    clickRate: rate(r.clicked),
    rateWindowDelivered: r.delivered,
  };
}

describe.each(DATABASE_KINDS)('the dashboard home numbers on %s', (kind) => {
  const harness = useEngineHarness(kind);

  it('say what the engine delivered — a campaign and a transactional message, not the refused one — and the first human opens and clicks, as the raw messages and events do; another account sees none of it', async () => {
    const { t, db, sink } = harness;
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 100_000);
    const list = await createListWithContacts(
      db,
      user.accountId,
      ['ana@destino.com.br', 'bia@destino.com.br', 'caio@destino.com.br', 'duda@recusa.com.br'],
      { cidade: 'Recife' },
    );
    sink.rcptReply = (address) =>
      address.endsWith('@recusa.com.br') ? { code: 550, message: '5.1.1 Caixa inexistente' } : null;
    const campaignId = await createReadyCampaign(db, user.accountId, { includeListIds: [list.listId] });
    const started = await t.app.inject({
      method: 'POST',
      url: `/api/campaigns/${campaignId}/send`,
      headers: user.headers,
    });
    expect(started.statusCode, started.body).toBe(200);
    await trustSenderAddress(db, user.accountId, 'pedidos@loja.com.br');
    const transactional = await sendTransactional(
      db,
      user.accountId,
      [
        transactionalMessageSchema.parse({
          to: { email: 'cliente@destino.com.br' },
          from: { email: 'pedidos@loja.com.br' },
          subject: 'Pedido confirmado',
          html: '<p>Obrigado! <a href="https://loja.com.br/pedido">Ver pedido</a></p>',
        }),
      ],
      { publicUrl: 'https://app.carteiro.test' },
    );
    const before = sink.messages.length;
    const sender = harness.newSender({ settings: testSenderSettings({ publicUrl: 'https://app.carteiro.test' }) });
    await runEngineUntil(
      sender,
      async () => {
        const [queued] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from messages where account_id = ${user.accountId} and status = 'queued'`,
        );
        return (await campaignStatus(db, campaignId))?.status === 'sent' && queued?.n === 0;
      },
      'the campaign and the transactional message delivered',
      { pauseMs: 0 },
    );
    expect(transactional.messages).toHaveLength(1);

    // Two opens and a click of the same message, an open of another: two messages opened, one clicked.
    const received = await Promise.all(
      sink.messages.slice(before).map(async (m) => String((await simpleParser(m.raw)).html)),
    );
    expect(received).toHaveLength(4);
    const pixels = received.map((html) => /\/o\/([A-Za-z0-9_-]+)\.gif/.exec(html)?.[1]);
    const clicks = received.map((html) => /\/c\/([A-Za-z0-9_-]+)"/.exec(html)?.[1]);
    for (const token of [pixels[0], pixels[0], pixels[1]]) {
      expect((await t.app.inject({ method: 'GET', url: `/o/${token}.gif`, headers: BROWSER })).statusCode).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: `/c/${clicks[0]}`, headers: BROWSER })).statusCode).toBe(302);
    await t.app.trackingRecorder.flush();

    const shown = (await t.app.inject({ method: 'GET', url: '/api/dashboard/stats', headers: user.headers })).json();
    expect(shown).toEqual(await rawDashboard(db, user.accountId));
    // 3 of the campaign (the refused one failed) + the transactional message.
    expect(shown).toMatchObject({ sentThisMonth: 4, sentTotal: 4, rateWindowDelivered: 4, openRate: 0.5 });
    expect(shown.clickRate).toBe(0.25);

    const other = await signUp(t, { verified: true });
    const theirs = await t.app.inject({ method: 'GET', url: '/api/dashboard/stats', headers: other.headers });
    expect(theirs.json()).toEqual({
      sentThisMonth: 0,
      sentTotal: 0,
      openRate: 0,
      clickRate: 0,
      rateWindowDelivered: 0,
    });
  });
});

describe.each(DATABASE_KINDS)('the delivered rollup migration on %s', (kind) => {
  it('folds the messages delivered before it, by campaign and UTC hour, so the dashboard says what the messages say', async () => {
    const database = await createDatabaseBeforeMigration(kind, '_delivered_rollup');
    try {
      const db = database.db;
      const accountId = await insertAccountRow(db);
      const [campaign] = await queryRows<{ id: string }>(
        db,
        sql`insert into campaigns (uuid, created_by, name, subject, status, template, sent_count)
            values (gen_random_uuid(), ${accountId}, 'Antiga', 'Oi', 'sent', '<p>Oi</p>', 5) returning id`,
      );
      // Delivered this month, last month, two months ago (outside the rates' window); one failed, one queued.
      await db.execute(
        sql`insert into messages (campaign_id, account_id, email, status, sent_at, token)
            select ${campaign?.id}, ${accountId}, 'p' || i || '@destino.com.br', s, at, 'tok-' || i
              from (values (1, 'sent', date_trunc('month', now(), 'UTC') + interval '1 minute'),
                           (2, 'sent', date_trunc('month', now(), 'UTC') + interval '1 minute'),
                           (3, 'sent', date_trunc('month', now(), 'UTC') - interval '3 days'),
                           (4, 'sent', date_trunc('month', now(), 'UTC') - interval '40 days'),
                           (5, 'sent', date_trunc('month', now(), 'UTC') - interval '70 days'),
                           (6, 'failed', null::timestamptz),
                           (7, 'queued', null::timestamptz)) v(i, s, at)`,
      );
      await database.migrate();
      const [hours] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from campaign_report_counts where class = 'delivered'`,
      );
      expect(hours?.n).toBe(4);
      expect(await dashboardStats(db, accountId)).toEqual(await rawDashboard(db, accountId));
      expect(await dashboardStats(db, accountId)).toMatchObject({
        sentThisMonth: 2,
        sentTotal: 5,
        rateWindowDelivered: 3,
      });
    } finally {
      await database.close();
    }
  }, 120_000);
});
