import type { MessageListQuery } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRowsRead } from '../../../test/support/plan-rows-read';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import type { Database, Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { findMessagePage } from './message-lookup';

/**
 * The public API's message list reads the rows its page needs however long the account's past is: a recipient's
 * messages and a test key's from their own index ranges, a live key's list (with a date window or not) from an
 * index-only walk of the stream that skips the campaigns' messages and a window's newer ones. Each read every row of
 * that past before (0.1–1.6 s at 1M–3M messages, docs/benchmarks.md); here a stream of 5,000 messages over ~3.5 days
 * then a campaign's 3,000, and the plan's rows read of `messages` must stay a small multiple of the page.
 */
describe.each(DATABASE_KINDS)('the cost of a message list page on %s', (kind) => {
  let database: Database;
  let db: Db;
  let accountId: string;
  const minute = 60_000;
  const newest = Date.now();
  const at = (minutesAgo: number) => new Date(newest - minutesAgo * minute).toISOString();

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
    accountId = (await createTestAccount(db)).id;
    const [stream] = await queryRows<{ id: string }>(
      db,
      sql`insert into campaigns (uuid, created_by, name, subject, status, kind)
          values (gen_random_uuid(), ${accountId}::uuid, 'API', '', 'sending', 'transactional') returning id`,
    );
    // One message a minute, oldest first (ids grow with time), every 250th a test key's; 40 recipients.
    await queryRows(
      db,
      sql`insert into messages (campaign_id, account_id, email, status, token, skip_reason, created_at)
          select ${stream?.id}::uuid, ${accountId}::uuid, 'r' || (g % 40) || '@destino.com.br',
                 case when g % 250 = 0 then 'skipped' else 'sent' end, md5(g::text),
                 case when g % 250 = 0 then 'sandbox' end,
                 ${at(5000)}::timestamptz + (g || ' minutes')::interval
            from generate_series(1, 5000) g`,
    );
    // Then a campaign to 3,000 contacts: its messages come after the stream's in id order, as a campaign sent
    // since the last API message would.
    await queryRows(
      db,
      sql`insert into contacts (id, account_id, email, name, status)
          select md5('c' || g)::uuid, ${accountId}::uuid, 'c' || g || '@destino.com.br', 'Pessoa ' || g, 'subscribed'
            from generate_series(1, 3000) g`,
    );
    await queryRows(
      db,
      sql`with c as (insert into campaigns (uuid, created_by, name, subject, status)
                     values (gen_random_uuid(), ${accountId}::uuid, 'Ofertas', 'Oi', 'sent') returning id)
          insert into messages (campaign_id, account_id, contact_id, email, status, token, created_at)
          select c.id, ${accountId}::uuid, md5('c' || g)::uuid, 'c' || g || '@destino.com.br', 'sent',
                 md5('campanha' || g), ${at(0)}::timestamptz
            from c, generate_series(1, 3000) g`,
    );
    await queryRows(db, sql`vacuum analyze messages`);
  });

  afterAll(async () => {
    await database.close();
  });

  const rowsRead = (query: MessageListQuery, mode: 'live' | 'test' = 'live') =>
    planRowsRead(db, 'messages', (explaining) => findMessagePage(explaining, accountId, mode, query));

  it("answers an empty window without reading the stream's rows", async () => {
    expect((await findMessagePage(db, accountId, 'live', { since: at(-10) })).items).toEqual([]);
    expect(await rowsRead({ since: at(-10) })).toBeLessThan(20);
    expect((await findMessagePage(db, accountId, 'live', { until: at(6000) })).items).toEqual([]);
    expect(await rowsRead({ until: at(6000) })).toBeLessThan(20);
  });

  it('answers a short recent window from its range: the last 30 minutes', async () => {
    const page = await findMessagePage(db, accountId, 'live', { since: at(30), limit: 50 });
    expect(page.items.length).toBeGreaterThanOrEqual(29);
    expect(page.items.length).toBeLessThanOrEqual(31);
    expect(await rowsRead({ since: at(30), limit: 50 })).toBeLessThan(200);
  });

  it("walks the stream apart from the campaigns' messages, and past a window's newer messages inside the index", async () => {
    const newest = await findMessagePage(db, accountId, 'live', { limit: 50 });
    expect(newest.items).toHaveLength(50);
    expect(newest.items[0]?.createdAt).toBe(at(1)); // the 5,000th is a test key's
    expect(await rowsRead({ limit: 50 })).toBeLessThan(200);
    // A window ending ~1,000 messages into the stream: 4,000 newer ones come first, newest first.
    const old = await findMessagePage(db, accountId, 'live', { until: at(4000), limit: 50 });
    expect(old.items).toHaveLength(50);
    expect(old.items[0]?.createdAt).toBe(at(4001));
    expect(old.items.every((m) => m.createdAt < at(4000) && !m.sandbox)).toBe(true);
    expect(await rowsRead({ until: at(4000), limit: 50 })).toBeLessThan(200);
  });

  it("reads a recipient's messages and a test key's from their own ranges", async () => {
    expect((await findMessagePage(db, accountId, 'live', { recipient: 'ninguem@destino.com.br' })).items).toEqual([]);
    expect(await rowsRead({ recipient: 'ninguem@destino.com.br' })).toBeLessThan(20);
    const sandbox = await findMessagePage(db, accountId, 'test', { limit: 50 });
    expect(sandbox.items).toHaveLength(20);
    expect(sandbox.items.every((m) => m.sandbox)).toBe(true);
    expect(await rowsRead({ limit: 50 }, 'test')).toBeLessThan(100);
  });
});
