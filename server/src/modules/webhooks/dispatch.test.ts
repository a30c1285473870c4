import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { type Database, queryRows } from '../../db/database';
import { accounts } from '../accounts/accounts.db';
import { startCampaignSend } from '../campaigns/start-campaign-send';
import { createListWithContacts, createReadyCampaign, creditAccount } from '../sending/testing/send-fixtures';
import type { ClaimedDelivery, DueKey } from './deliver';
import { type DeliveryBirths, expandEventBatches } from './dispatch';
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

  it('births: per endpoint the oldest up to its room are born claimed in event order, the rest born due, and where they start', async () => {
    const db = database.db;
    const [account] = await db
      .insert(accounts)
      .values({
        uuid: randomUUID(),
        ownerUserId: 'births-test',
        name: 'Loja Nascimentos',
        address: 'Rua das Flores, 200 — Recife/PE',
        legalName: 'Loja Nascimentos Ltda.',
        taxId: '11.222.333/0001-81',
      })
      .returning();
    if (!account) throw new Error('no account');
    await creditAccount(db, account.id, 1_000_000);
    const emails = Array.from({ length: 90 }, (_, i) => `nasc${i}@exemplo.com.br`);
    const { listId } = await createListWithContacts(db, account.id, emails, { cidade: 'Recife' });
    const campaignId = await createReadyCampaign(db, account.id, { includeListIds: [listId] });
    await startCampaignSend(db, account.id, campaignId, null);
    await db.execute(sql`update messages set status = 'sent', sent_at = now() where campaign_id = ${campaignId}`);
    const box = createSecretBox('dispatch-test-secret-dispatch-test-secret');
    const endpoint = async (path: string) => {
      const [row] = await db
        .insert(webhookEndpoints)
        .values({
          accountId: account.id,
          url: `https://hooks.exemplo.com.br/${path}`,
          eventTypes: ['message.delivered'],
          secretCiphertext: box.seal(generateWebhookSecret()),
        })
        .returning();
      if (!row) throw new Error('no endpoint');
      return row.id;
    };
    const roomy = await endpoint('roomy'); // room for all 90
    const tight = await endpoint('tight'); // room for 40
    const full = await endpoint('full'); // not listed: the default room, 0
    const ids = (
      await queryRows<{ id: string }>(
        db,
        sql`select id::text as id from messages where campaign_id = ${campaignId} order by id`,
      )
    ).map((r) => r.id);
    // Three outbox rows, in the engine's order; the third's messages first in id order would hide a wrong order.
    for (const batch of [ids.slice(0, 30), ids.slice(30, 60), ids.slice(60, 90)]) {
      await db.execute(
        sql`insert into webhook_event_batches (account_id, type, message_ids)
            values (${account.id}, 'message.delivered', ${`{${batch.join(',')}}`}::bigint[])`,
      );
    }
    const token = randomUUID();
    let adopted: { born: ClaimedDelivery[]; overflow: Map<string, DueKey> } | null = null;
    const births: DeliveryBirths = {
      plan: () => ({
        claimToken: token,
        leaseSeconds: 600,
        rooms: new Map([
          [roomy, 500],
          [tight, 40],
        ]),
        defaultRoom: 0,
      }),
      adopt: (born, overflow) => {
        adopted = { born, overflow };
      },
    };
    expect(await expandEventBatches(db, 20, births)).toBe(3);
    const got = adopted as { born: ClaimedDelivery[]; overflow: Map<string, DueKey> } | null;
    if (!got) throw new Error('nothing adopted');
    const messageOf = (d: ClaimedDelivery) => (JSON.parse(d.body) as { data: { messageId: string } }).data.messageId;
    const bornTo = (endpointId: string) => got.born.filter((d) => d.endpointId === endpointId);
    // In event order (batch, then message), with the body that is sent and the claim of this round.
    expect(bornTo(roomy).map(messageOf)).toEqual(ids);
    expect(bornTo(tight).map(messageOf)).toEqual(ids.slice(0, 40));
    expect(bornTo(full)).toEqual([]);
    expect(got.born.every((d) => d.claimToken === token && d.runAttempts === 0 && d.endpoint.enabled)).toBe(true);
    // In the table: born claimed = leased under the token; the rest due at their batch's time, unclaimed.
    const rows = await queryRows<{ endpoint_id: string; message_id: string; claimed: boolean; leased: boolean }>(
      db,
      sql`select d.endpoint_id::text, ev.payload->'data'->>'messageId' as message_id,
                 d.claim_token is not null as claimed, d.next_attempt_at > now() + interval '5 minutes' as leased
            from webhook_deliveries d join webhook_events ev on ev.id = d.event_id
           where d.endpoint_id in (${roomy}, ${tight}, ${full})`,
    );
    const claimedOf = (endpointId: string) =>
      rows
        .filter((r) => r.endpoint_id === endpointId && r.claimed && r.leased)
        .map((r) => r.message_id)
        .sort((a, b) => Number(a) - Number(b));
    expect(rows).toHaveLength(270);
    expect(claimedOf(roomy)).toEqual(ids);
    expect(claimedOf(tight)).toEqual(ids.slice(0, 40));
    expect(claimedOf(full)).toEqual([]);
    expect(rows.filter((r) => r.claimed !== r.leased)).toEqual([]);
    // Where the born-due ones start: the 41st event for `tight`, the first for `full`; none for `roomy`.
    expect([...got.overflow.keys()].sort()).toEqual([tight, full].sort());
    const startsAt = async (endpointId: string) => {
      const key = got.overflow.get(endpointId) as DueKey;
      const [first] = await queryRows<{ message_id: string }>(
        db,
        sql`select ev.payload->'data'->>'messageId' as message_id
              from webhook_deliveries d join webhook_events ev on ev.id = d.event_id
             where d.endpoint_id = ${endpointId} and d.claim_token is null
               and (d.next_attempt_at, d.created_at) >= (${key.at}::timestamptz, ${key.created}::timestamptz)
             order by d.next_attempt_at, d.created_at limit 1`,
      );
      const [behind] = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from webhook_deliveries d
             where d.endpoint_id = ${endpointId} and d.claim_token is null
               and (d.next_attempt_at, d.created_at) < (${key.at}::timestamptz, ${key.created}::timestamptz)`,
      );
      return { first: first?.message_id, behind: behind?.n };
    };
    expect(await startsAt(tight)).toEqual({ first: ids[40], behind: 0 });
    expect(await startsAt(full)).toEqual({ first: ids[0], behind: 0 });
  });
});
