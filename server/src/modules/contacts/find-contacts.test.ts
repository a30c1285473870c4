import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { findContacts } from './find-contacts';

describe.each(DATABASE_KINDS)('findContacts status filter on %s', (kind) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('pages through each status newest first, by keyset, across equal timestamps', async () => {
    const account = await createTestAccount(database.db);
    const statuses = ['subscribed', 'unsubscribed', 'bounced', 'complained'];
    // 20 contacts, 5 per status; pairs share a created_at so the id breaks the tie.
    await queryRows(
      database.db,
      sql`insert into contacts (account_id, email, status, created_at)
          select ${account.id}, 'c' || g || '@x.com', (${`{${statuses.join(',')}}`}::text[])[1 + g % 4],
                 timestamptz '2026-01-01' + (g / 2) * interval '1 minute'
          from generate_series(0, 19) g`,
    );
    for (const status of statuses) {
      const expected = await queryRows<{ email: string }>(
        database.db,
        sql`select email from contacts where account_id = ${account.id} and status = ${status}
            order by created_at desc, id desc`,
      );
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await findContacts(database.db, account.id, {
          status: status as 'subscribed',
          limit: 2,
          cursor,
        });
        for (const item of page.items) {
          expect(item.status).toBe(status);
          seen.push(item.email);
        }
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(seen).toEqual(expected.map((r) => r.email));
      expect(seen).toHaveLength(5);
    }
  });

  it('refuses a status that is not one of the contact statuses', async () => {
    const account = await createTestAccount(database.db);
    await expect(
      findContacts(database.db, account.id, { status: "x' or 1=1 --" as unknown as 'subscribed' }),
    ).rejects.toThrow('Status inválido.');
  });
});
