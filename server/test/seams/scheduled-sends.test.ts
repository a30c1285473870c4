import { WEBHOOK_EVENT_SCHEMAS } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/database';
import { type LowBalanceCursor, sweepLowBalanceCrossings } from '../../src/modules/billing/notify-low-balance';
import { DEFAULT_REPORT_SETTINGS, recordDeliveryReport } from '../../src/modules/bounces/record-report';
import { findUnsubscribeTarget } from '../../src/modules/campaigns/message-recipient';
import { messageApi, messageTo } from '../../src/modules/public-api/testing/message-api';
import { drainMessages } from '../../src/modules/sending/testing/dkim-check';
import { useEngineHarness } from '../../src/modules/sending/testing/engine-harness';
import { announceDueSandboxMessages } from '../../src/modules/transactional/sandbox-webhooks';
import { unsubscribeByMessage } from '../../src/modules/unsubscribe/unsubscribe';
import { webhookEndpoints } from '../../src/modules/webhooks/webhooks.db';
import type { SignedInUser } from '../support/sign-in';
import { DATABASE_KINDS } from '../support/test-database';

const HOUR_MS = 3_600_000;
/** R$ 1,00: an account starts R$ 0,01 above it, so a scheduled batch of 15 millis crosses it. */
const THRESHOLD = 1_000;

const message = (to: string, extra: Record<string, unknown> = {}) =>
  messageTo(to, { subject: 'Seu boleto vence amanhã', html: '<p>Seu boleto vence amanhã.</p>', ...extra });
const marketing = (to: string) =>
  message(to, {
    category: 'marketing',
    subject: 'Oferta da semana',
    html: '<p>Oferta</p><p><a href="{{ link_descadastro }}">Descadastrar</a></p>',
  });

type Timeline = Array<{ type: string; at: string | null; detail: string | null }>;

/**
 * Scheduled transactional sends (`sendAt`, ADR 0033) where they meet the rest of the product, through the real
 * engine: a recipient suppressed between acceptance and sendAt, the low-balance watch around a cancel's refund, a
 * test key's scheduled send, and what the lookup says of each.
 */
describe.each(DATABASE_KINDS)('scheduled sends meet the rest of the product on %s', (kind) => {
  const h = useEngineHarness(kind, { API_RATE_LIMIT: '1000' });
  const api = messageApi(h);

  /** The hour passes: the account's scheduled engine batches become due now. */
  const timePasses = (accountId: string) =>
    queryRows(
      h.db,
      sql`update message_batches b set due_at = now()
            from campaigns c
           where c.id = b.campaign_id and c.created_by = ${accountId} and c.kind = 'transactional'
             and b.status = 'queued'
          returning b.id`,
    );
  const tokenOf = async (id: string) =>
    (await queryRows<{ token: string }>(h.db, sql`select token from messages where id = ${Number(id)}`))[0]
      ?.token as string;
  const skipReasonOf = async (id: string) =>
    (
      await queryRows<{ skip_reason: string | null }>(
        h.db,
        sql`select skip_reason from messages where id = ${Number(id)}`,
      )
    )[0]?.skip_reason;
  const lookup = async (secret: string, id: string) => (await api.call(secret, 'GET', `/api/v1/messages/${id}`)).json();

  it('a recipient suppressed after acceptance: a hard bounce or a complaint skips and refunds it at claim, the lookup says so; an unsubscribe stops only marketing', async () => {
    const { user, secret } = await api.keyWithCredit(1_000);
    const to = {
      bounce: 'devolve@destino.com.br',
      complaint: 'reclama@destino.com.br',
      unsubscribe: 'sai@destino.com.br',
    };
    const sendAt = new Date(Date.now() + HOUR_MS).toISOString();
    const scheduled = await api.call(secret, 'POST', '/api/v1/messages/batch', {
      sendAt,
      messages: [
        message(to.bounce),
        message(to.complaint),
        message(to.unsubscribe),
        marketing(to.bounce),
        marketing(to.complaint),
        marketing(to.unsubscribe),
      ],
    });
    expect(scheduled.statusCode, scheduled.body).toBe(201);
    expect(scheduled.json()).toMatchObject({ costMillis: 30, balanceMillis: 970 });
    const ids = scheduled.json().messages.map((m: { id: string }) => m.id) as string[];
    const [bounceTx, complaintTx, unsubscribeTx, bounceMk, complaintMk, unsubscribeMk] = ids as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];

    // Meanwhile each address gets a message at once, and answers it: a hard bounce, a complaint, an unsubscribe.
    const now = await api.call(secret, 'POST', '/api/v1/messages/batch', {
      messages: [message(to.bounce), message(to.complaint), marketing(to.unsubscribe)],
    });
    expect(now.statusCode, now.body).toBe(201);
    const [bounced, complained, left] = now.json().messages.map((m: { id: string }) => m.id) as string[];
    await drainMessages(h.db, h.newSender(), [bounced, complained, left].map(Number));
    expect(await api.balanceOf(user.accountId)).toBe(955);
    const hard = await recordDeliveryReport(
      h.db,
      await tokenOf(bounced as string),
      { type: 'bounce', bounceKind: 'hard', status: '5.1.1', diagnostic: 'caixa inexistente', source: 'teste' },
      DEFAULT_REPORT_SETTINGS,
    );
    expect(hard).toMatchObject({ recorded: true, suppressed: true });
    const complaint = await recordDeliveryReport(
      h.db,
      await tokenOf(complained as string),
      { type: 'complaint', feedbackType: 'abuse', source: 'teste' },
      DEFAULT_REPORT_SETTINGS,
    );
    expect(complaint).toMatchObject({ recorded: true, suppressed: true });
    const target = await findUnsubscribeTarget(h.db, await tokenOf(left as string));
    expect(target).not.toBeNull();
    expect(await unsubscribeByMessage(h.db, target as NonNullable<typeof target>, 'one-click')).toBe(true);

    await timePasses(user.accountId);
    const before = h.sink.messages.length;
    await drainMessages(h.db, h.newSender(), ids.map(Number));
    const got = h.sink.messages.slice(before).map((m) => m.to);
    // Transactional mail still reaches whoever only unsubscribed from marketing; nothing else goes.
    expect(got).toEqual([to.unsubscribe]);
    expect(await api.statusOf(unsubscribeTx)).toBe('sent');
    for (const id of [bounceTx, complaintTx, bounceMk, complaintMk, unsubscribeMk]) {
      expect(await api.statusOf(id), id).toBe('skipped');
      expect(await skipReasonOf(id), id).toBe('suppressed');
    }
    // Skipped at claim after being charged at acceptance: refunded, as every transactional message that does not go
    // (transactional-lanes.ts record: failed or skipped → one refund line per batch and account).
    expect(await api.balanceOf(user.accountId)).toBe(955 + 25);
    const refunds = await queryRows<{ amount_millis: number | string; email_count: number }>(
      h.db,
      sql`select amount_millis, email_count from ledger_entries
           where account_id = ${user.accountId} and kind = 'refund'`,
    );
    expect(refunds.map((r) => [Number(r.amount_millis), Number(r.email_count)])).toEqual([[25, 5]]);

    const skipped = await lookup(secret, bounceTx);
    expect(skipped).toMatchObject({ status: 'suppressed', costMillis: 0, sendAt });
    const events = skipped.events as Timeline;
    expect(events.map((e) => e.type)).toEqual(['queued', 'scheduled', 'suppressed']);
    expect(events[2]?.detail).toBe('não enviado: endereço na lista de supressão');
    // Skipped when its time came, not when it was accepted: the engine does not record the moment of a skip.
    expect(events[2]?.at).toBeNull();
    expect((await lookup(secret, unsubscribeMk)).status).toBe('suppressed');
    expect(await lookup(secret, unsubscribeTx)).toMatchObject({ status: 'delivered', costMillis: 5 });
  }, 60_000);

  it('a test key’s scheduled send: answered and looked up like a live one; at sendAt delivered in the lookup and announced by its test webhook; never sent nor charged', async () => {
    const { user } = await api.keyWithCredit(1_000);
    const secret = await api.keyOf(user, { mode: 'test' });
    await h.db.insert(webhookEndpoints).values({
      accountId: user.accountId,
      url: 'https://hooks.example/carteiro',
      eventTypes: ['message.delivered'],
      secretCiphertext: 'sealed',
    });
    const events = async () =>
      (
        await queryRows<{ payload: { data: Record<string, unknown> } | string }>(
          h.db,
          sql`select payload from webhook_events where account_id = ${user.accountId} and type = 'message.delivered'`,
        )
      ).map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload));
    const sendAt = new Date(Date.now() + HOUR_MS).toISOString();
    const sent = await api.call(
      secret,
      'POST',
      '/api/v1/messages',
      message('teste@destino.com.br', { sendAt, tags: ['boleto'], metadata: { pedido: '42' } }),
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ costMillis: 0, messages: [{ status: 'scheduled' }] });
    const id = sent.json().messages[0].id as string;
    expect(await lookup(secret, id)).toMatchObject({ status: 'scheduled', sandbox: true, sendAt });
    // Not before its time: a live one is announced when the engine delivers it, at sendAt.
    expect(await announceDueSandboxMessages(h.db)).toBe(0);
    expect(await events()).toEqual([]);
    // The hour passes (its time, moved back: a test message has no engine batch to wait on).
    const past = new Date(Date.now() - 1000).toISOString();
    await queryRows(
      h.db,
      sql`update transactional_messages set send_at = ${past}::timestamptz where message_id = ${Number(id)}`,
    );
    const later = await lookup(secret, id);
    expect(later).toMatchObject({ status: 'delivered', sandbox: true, costMillis: 0 });
    expect((later.events as Timeline).map((e) => [e.type, e.at])).toEqual([
      ['queued', later.createdAt],
      ['scheduled', later.createdAt],
      ['delivered', past],
    ]);
    // Its time came: one message.delivered, marked test, dated sendAt, with its tags and metadata — once.
    expect(await announceDueSandboxMessages(h.db)).toBeGreaterThanOrEqual(1);
    expect(await announceDueSandboxMessages(h.db)).toBe(0);
    const announced = await events();
    expect(announced).toHaveLength(1);
    expect(announced[0]?.data).toMatchObject({
      messageId: id,
      email: 'teste@destino.com.br',
      test: true,
      sentAt: past,
      tags: ['boleto'],
      metadata: { pedido: '42' },
    });
    WEBHOOK_EVENT_SCHEMAS['message.delivered'].parse(announced[0]);
    // Cancelled before its time, like a live one: dated in the lookup, never announced; too late once announced.
    const other = await api.call(secret, 'POST', '/api/v1/messages', message('desiste@destino.com.br', { sendAt }));
    const otherId = other.json().messages[0].id as string;
    const cancelled = await api.call(secret, 'POST', `/api/v1/messages/${otherId}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', sandbox: true, costMillis: 0 });
    const cancelledAt = (cancelled.json().events as Timeline).find((e) => e.type === 'cancelled')?.at as string;
    expect(Math.abs(new Date(cancelledAt).getTime() - Date.now())).toBeLessThan(60_000);
    expect((await api.call(secret, 'POST', `/api/v1/messages/${otherId}/cancel`)).statusCode).toBe(409);
    expect((await api.call(secret, 'POST', `/api/v1/messages/${id}/cancel`)).json().error.code).toBe(
      'message_not_scheduled',
    );
    await queryRows(
      h.db,
      sql`update transactional_messages set send_at = ${past}::timestamptz where message_id = ${Number(otherId)}`,
    );
    expect(await announceDueSandboxMessages(h.db)).toBe(0);
    expect(await events()).toHaveLength(1);
    expect((await lookup(secret, otherId)).status).toBe('cancelled');

    await drainMessages(h.db, h.newSender(), [Number(id), Number(otherId)]);
    expect(h.sink.messages.filter((m) => m.to.endsWith('@destino.com.br') && /teste|desiste/.test(m.to))).toEqual([]);
    expect(await api.balanceOf(user.accountId)).toBe(1_000);
  });

  it('the low-balance watch around a cancel: a crossing refunded before the sweep is never announced; one announced re-arms after the refund', async () => {
    const cursor: LowBalanceCursor = { afterSeq: null };
    const sweep = () =>
      sweepLowBalanceCrossings(
        { db: h.db, mailer: h.t.mailer, thresholdMillis: THRESHOLD, publicUrl: h.t.config.PUBLIC_URL },
        undefined,
        cursor,
      );
    const { user, secret } = await api.keyWithCredit(THRESHOLD + 10);
    const announced = async (u: SignedInUser) =>
      (await h.t.sentMail()).filter(
        (m) => m.to.includes(u.email) && m.subject.startsWith('Seu saldo no Carteiro está baixo'),
      ).length;
    const schedule = async () => {
      const res = await api.call(secret, 'POST', '/api/v1/messages/batch', {
        sendAt: new Date(Date.now() + HOUR_MS).toISOString(),
        messages: [message('a@destino.com.br'), message('b@destino.com.br'), message('c@destino.com.br')],
      });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().messages.map((m: { id: string }) => m.id) as string[];
    };
    const cancel = async (ids: string[]) => {
      for (const id of ids)
        expect((await api.call(secret, 'POST', `/api/v1/messages/${id}/cancel`)).statusCode).toBe(200);
      expect(await api.balanceOf(user.accountId)).toBe(THRESHOLD + 10);
    };

    // Crossed and refunded before the watch looked: the balance is back above the line, nothing to announce.
    await cancel(await schedule());
    await sweep();
    expect(await announced(user)).toBe(0);
    // Crossed and announced; the refund takes the balance back up (no new notice) …
    const second = await schedule();
    await sweep();
    expect(await announced(user)).toBe(1);
    await cancel(second);
    await sweep();
    expect(await announced(user)).toBe(1);
    // … and the next crossing is a new one, announced again (one notice per crossing, by e-mail and webhook alert).
    await schedule();
    await sweep();
    expect(await announced(user)).toBe(2);
    const alerts = await queryRows<{ n: number | string }>(
      h.db,
      sql`select count(*) as n from low_balance_alerts where account_id = ${user.accountId}`,
    );
    expect(Number(alerts[0]?.n)).toBe(2);
  }, 60_000);
});
