import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import type { SendingEngine } from '../../worker/sending-engine';
import { ledgerEntries } from '../billing/billing.db';
import { messages } from '../sending/messages.db';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import { messageApi, messageTo } from './testing/message-api';

const HOUR = 3_600_000;

const message = (to: string, extra: Record<string, unknown> = {}) =>
  messageTo(to, { subject: 'Lembrete do seu pedido', text: 'Seu pedido chega amanhã.', ...extra });

/**
 * Scheduled transactional sends (`sendAt`, ADR 0033): accepted and charged at once, delivered by the engine no
 * earlier than sendAt (its batch is due then), shown `scheduled` in the lookup, cancellable with a refund until then.
 */
describe.each(DATABASE_KINDS)('scheduled messages (sendAt) on %s', (kind) => {
  const h = useEngineHarness(kind, { API_RATE_LIMIT: '1000' });

  const { keyWithCredit, call, balanceOf, statusOf } = messageApi(h);

  const tickUntil = (sender: SendingEngine, done: () => Promise<boolean>, ms: number) =>
    runEngineUntil(sender, done, 'the scheduled message', { ms, pauseMs: 200 });

  it('delivers no earlier than sendAt, through the engine; the lookup shows it scheduled, then delivered', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    // An hour ahead; its time "comes" below by moving the stored schedule, not by waiting (the due time is the
    // database's now(), ARCHITECTURE.md "Time").
    const sendAt = new Date(Date.now() + HOUR);
    const sent = await call(
      secret,
      'POST',
      '/api/v1/messages',
      message('programada@destino.com.br', { sendAt: sendAt.toISOString().replace('Z', '+00:00') }),
    );
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({ costMillis: 5, messages: [{ status: 'scheduled', costMillis: 5 }] });
    expect(await balanceOf(user.accountId)).toBe(995);
    const id = sent.json().messages[0].id as string;

    const sender = h.newSender();
    await sender.tick();
    await sender.tick();
    expect(h.sink.messages.filter((m) => m.to === 'programada@destino.com.br')).toEqual([]);
    const early = (await call(secret, 'GET', `/api/v1/messages/${id}`)).json();
    expect(early).toMatchObject({ status: 'scheduled', sendAt: sendAt.toISOString() });
    expect(early.events.map((e: { type: string }) => e.type)).toEqual(['queued', 'scheduled']);

    // Its time comes: the schedule (the message's sendAt and its batch's due time) an hour earlier, now just past.
    const due = new Date(sendAt.getTime() - HOUR);
    await queryRows(
      h.db,
      sql`update transactional_messages set send_at = send_at - interval '1 hour' where message_id = ${Number(id)}`,
    );
    await queryRows(
      h.db,
      sql`update message_batches set due_at = due_at - interval '1 hour'
           where ${Number(id)} between first_message_id and last_message_id`,
    );
    await tickUntil(sender, async () => (await statusOf(id)) === 'sent', 20_000);
    const [delivered] = h.sink.messages.filter((m) => m.to === 'programada@destino.com.br');
    expect(delivered).toBeDefined();
    const [row] = await h.db
      .select()
      .from(messages)
      .where(eq(messages.id, Number(id)));
    expect(row?.sentAt?.getTime()).toBeGreaterThanOrEqual(due.getTime());

    const lookup = (await call(secret, 'GET', `/api/v1/messages/${id}`)).json();
    expect(lookup).toMatchObject({ status: 'delivered', sendAt: due.toISOString(), costMillis: 5 });
    expect(lookup.events.map((e: { type: string }) => e.type)).toEqual(['queued', 'scheduled', 'delivered']);
    const listed = (await call(secret, 'GET', '/api/v1/messages?status=delivered')).json();
    expect(listed.items.map((m: { id: string }) => m.id)).toContain(id);
  }, 60_000);

  it('a send due at once never waits in a scheduled batch', async () => {
    const { secret } = await keyWithCredit(1_000);
    const later = await call(
      secret,
      'POST',
      '/api/v1/messages',
      message('depois@destino.com.br', { sendAt: new Date(Date.now() + HOUR).toISOString() }),
    );
    expect(later.statusCode).toBe(201);
    const now = await call(secret, 'POST', '/api/v1/messages', message('agora@destino.com.br'));
    expect(now.statusCode, now.body).toBe(201);
    expect(now.json().messages[0].status).toBe('queued');
    const sender = h.newSender();
    await tickUntil(sender, async () => (await statusOf(now.json().messages[0].id)) === 'sent', 20_000);
    expect(await statusOf(later.json().messages[0].id)).toBe('queued');
    expect(h.sink.messages.filter((m) => m.to === 'depois@destino.com.br')).toEqual([]);
  }, 60_000);

  it('cancels a scheduled batch message with its copies and refunds it; then 409; nothing is delivered', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const sendAt = new Date(Date.now() + HOUR).toISOString();
    const sent = await call(secret, 'POST', '/api/v1/messages/batch', {
      sendAt,
      messages: [
        message('cancelar@destino.com.br', { cc: [{ email: 'copia-cancelar@destino.com.br' }] }),
        message('fica@destino.com.br'),
      ],
    });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      costMillis: 15,
      messages: [{ status: 'scheduled', copies: [{ status: 'scheduled' }] }, { status: 'scheduled' }],
    });
    expect(await balanceOf(user.accountId)).toBe(985);
    const [first, second] = sent.json().messages;

    // By the copy's id: the whole message goes (to and cc), the other message of the batch stays.
    const asked = Date.now();
    const cancelled = await call(secret, 'POST', `/api/v1/messages/${first.copies[0].id}/cancel`);
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json()).toMatchObject({ status: 'cancelled', costMillis: 0, sendAt });
    expect(cancelled.json().events.map((e: { type: string }) => e.type)).toEqual(['queued', 'scheduled', 'cancelled']);
    // The cancellation is dated, on the message and on its copy alike.
    const lookedUp = (await call(secret, 'GET', `/api/v1/messages/${first.id}`)).json();
    expect(lookedUp.status).toBe('cancelled');
    for (const detail of [cancelled.json(), lookedUp]) {
      const at = detail.events.find((e: { type: string }) => e.type === 'cancelled').at as string;
      expect(Math.abs(new Date(at).getTime() - asked)).toBeLessThan(60_000);
    }
    expect((await call(secret, 'GET', `/api/v1/messages/${second.id}`)).json().status).toBe('scheduled');
    expect(await balanceOf(user.accountId)).toBe(995);
    const refunds = await h.db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.accountId, user.accountId), eq(ledgerEntries.kind, 'refund')));
    expect(refunds.map((r) => [Number(r.amountMillis), r.emailCount])).toEqual([[10, 2]]);

    const again = await call(secret, 'POST', `/api/v1/messages/${first.id}/cancel`);
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'message_not_scheduled' });
    expect(again.json().error.message).toContain('não está programada');

    // Even once due, the cancelled rows are not delivered; the other message is.
    // (The hour passes: its batch becomes due now.)
    await queryRows(
      h.db,
      sql`update message_batches set due_at = now()
           where campaign_id = (select campaign_id from messages where id = ${Number(second.id)}) returning id`,
    );
    await tickUntil(h.newSender(), async () => (await statusOf(second.id)) === 'sent', 20_000);
    expect(h.sink.messages.filter((m) => m.to.includes('cancelar@destino.com.br'))).toEqual([]);
    expect(await statusOf(first.id)).toBe('skipped');
    // Once it went, a message cannot be cancelled.
    expect((await call(secret, 'POST', `/api/v1/messages/${second.id}/cancel`)).statusCode).toBe(409);
    expect(await balanceOf(user.accountId)).toBe(995);
  }, 60_000);

  it('refuses a bad sendAt with a pt-BR 400; cancel answers 409 for a message not scheduled and 404 for another account', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const other = await keyWithCredit(1_000);
    const cases: [object, string][] = [
      [message('a@destino.com.br', { sendAt: '2030-01-01T10:00:00' }), 'com fuso'],
      [message('a@destino.com.br', { sendAt: 'amanhã' }), 'ISO 8601'],
      [message('a@destino.com.br', { sendAt: new Date(Date.now() - 60_000).toISOString() }), 'no futuro'],
      [message('a@destino.com.br', { sendAt: new Date(Date.now() + 31 * 24 * HOUR).toISOString() }), '30 dias'],
    ];
    for (const [body, expected] of cases) {
      const res = await call(secret, 'POST', '/api/v1/messages', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error.message, JSON.stringify(body)).toContain(expected);
    }
    const perMessage = await call(secret, 'POST', '/api/v1/messages/batch', {
      messages: [message('a@destino.com.br', { sendAt: new Date(Date.now() + HOUR).toISOString() })],
    });
    expect(perMessage.statusCode).toBe(400);
    expect(perMessage.json().error.details.fields[0].path).toBe('messages.0.sendAt');
    expect(await h.db.select().from(messages).where(eq(messages.accountId, user.accountId))).toHaveLength(0);

    const immediate = await call(secret, 'POST', '/api/v1/messages', message('agora2@destino.com.br'));
    const notScheduled = await call(secret, 'POST', `/api/v1/messages/${immediate.json().messages[0].id}/cancel`);
    expect(notScheduled.statusCode).toBe(409);
    expect(notScheduled.json().error.code).toBe('message_not_scheduled');
    const theirs = await call(
      other.secret,
      'POST',
      '/api/v1/messages',
      message('deles@destino.com.br', { sendAt: new Date(Date.now() + HOUR).toISOString() }),
    );
    expect((await call(secret, 'POST', `/api/v1/messages/${theirs.json().messages[0].id}/cancel`)).statusCode).toBe(
      404,
    );
    const rows = await queryRows<{ status: string }>(
      h.db,
      sql`select status from messages where id = ${Number(theirs.json().messages[0].id)}`,
    );
    expect(rows[0]?.status).toBe('queued');
  });
});
