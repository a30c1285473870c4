import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { type Database, queryRows } from '../../db/database';
import { accounts } from '../accounts/accounts.db';
import { startCampaignSend } from '../campaigns/start-campaign-send';
import { createListWithContacts, createReadyCampaign, creditAccount } from '../sending/testing/send-fixtures';
import { expandEventBatches } from './dispatch';
import { createSecretBox, generateWebhookSecret } from './signing';
import { webhookEndpoints } from './webhooks.db';

/**
 * The engine's coalesced outbox rows expand into one event — with its own id — per message, whatever plan the
 * database chooses. With statistics taken while the webhook tables were empty (as on a fresh deployment, or the
 * send benchmark), PostgreSQL evaluated the event id once per outbox row instead of once per message: every
 * statement then failed on the events' primary key and no `message.delivered` event was ever delivered.
 */
describe.each(DATABASE_KINDS)('expanding engine batches into events (%s)', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('gives every message of every batch its own event and delivery, under statistics of empty webhook tables', async () => {
    const db = database.db;
    const [account] = await db
      .insert(accounts)
      .values({
        uuid: randomUUID(),
        ownerUserId: 'dispatch-test',
        name: 'Loja Eventos',
        address: 'Rua das Flores, 100 — Recife/PE',
        legalName: 'Loja Eventos Ltda.',
        taxId: '11.222.333/0001-81',
      })
      .returning();
    if (!account) throw new Error('no account');
    await creditAccount(db, account.id, 1_000_000);
    const emails = Array.from({ length: 600 }, (_, i) => `pessoa${i}@exemplo.com.br`);
    const { listId } = await createListWithContacts(db, account.id, emails, { cidade: 'Recife' });
    // Statistics now: one account, the contacts, and empty messages and webhook tables.
    await db.execute(sql`analyze`);
    const campaignId = await createReadyCampaign(db, account.id, { includeListIds: [listId] });
    await startCampaignSend(db, account.id, campaignId, null);
    await db.execute(sql`update messages set status = 'sent', sent_at = now() where campaign_id = ${campaignId}`);
    const box = createSecretBox('dispatch-test-secret-dispatch-test-secret');
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        accountId: account.id,
        url: 'https://hooks.exemplo.com.br/carteiro',
        eventTypes: ['message.delivered'],
        secretCiphertext: box.seal(generateWebhookSecret()),
      })
      .returning();
    if (!endpoint) throw new Error('no endpoint');
    const ids = await queryRows<{ id: string }>(
      db,
      sql`select id::text as id from messages where campaign_id = ${campaignId} order by id`,
    );
    expect(ids).toHaveLength(600);
    // Three outbox rows as the engine writes them: one per recorded batch.
    for (let i = 0; i < 600; i += 200) {
      const batch = ids.slice(i, i + 200).map((r) => r.id);
      await db.execute(
        sql`insert into webhook_event_batches (account_id, type, message_ids)
            values (${account.id}, 'message.delivered', ${`{${batch.join(',')}}`}::bigint[])`,
      );
    }

    // Then a backlog of older rows whose messages are gone (each expands to nothing): the outbox is large on the
    // disk while its statistics still say empty — the state in which the planner drew one id per batch.
    await db.execute(
      sql`insert into webhook_event_batches (account_id, type, message_ids)
          select ${account.id}, 'message.delivered', array(select -(g * 500 + k) * 7919 from generate_series(1, 500) k)
            from generate_series(1, 400) g`,
    );
    let expanded = 0;
    for (let n = await expandEventBatches(db); n > 0; n = await expandEventBatches(db)) expanded += n;
    expect(expanded).toBe(403);

    const [events] = await queryRows<{ events: number; distinct_ids: number; messages: number }>(
      db,
      sql`select count(*)::int as events, count(distinct id)::int as distinct_ids,
                 count(distinct payload->'data'->>'messageId')::int as messages
            from webhook_events where account_id = ${account.id}`,
    );
    expect(events).toEqual({ events: 600, distinct_ids: 600, messages: 600 });
    const deliveries = await queryRows<{ n: number }>(
      db,
      sql`select count(distinct event_id)::int as n from webhook_deliveries where endpoint_id = ${endpoint.id}`,
    );
    expect(deliveries[0]?.n).toBe(600);
    const [payload] = await queryRows<{ payload: { id: string; type: string; data: { messageId: string } } }>(
      db,
      sql`select payload from webhook_events where account_id = ${account.id} order by id limit 1`,
    );
    const [event] = await queryRows<{ id: string }>(
      db,
      sql`select id from webhook_events where account_id = ${account.id} order by id limit 1`,
    );
    // The payload's id is the event's own (receivers deduplicate on it).
    expect(payload?.payload.id).toBe(event?.id);
    expect(payload?.payload.type).toBe('message.delivered');
    // Nothing left to expand.
    expect(await expandEventBatches(db)).toBe(0);
  });
});
