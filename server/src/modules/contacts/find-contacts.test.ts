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

  it('answers a search the same from the matches (selective) and by walking the account (unselective)', async () => {
    const account = await createTestAccount(database.db);
    await queryRows(
      database.db,
      sql`insert into contacts (account_id, email, name, status, created_at)
          select ${account.id}, 'p' || g || '@x.com', case when g % 3 = 0 then 'Ana ' || g else 'Bia ' || g end,
                 case when g % 5 = 0 then 'bounced' else 'subscribed' end,
                 timestamptz '2026-01-01' + (g / 2) * interval '1 minute'
          from generate_series(0, 59) g`,
    );
    const all = async (query: Parameters<typeof findContacts>[2], probeLimit: number) => {
      const seen: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await findContacts(database.db, account.id, { ...query, limit: 4, cursor }, probeLimit);
        seen.push(...page.items.map((c) => c.email));
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      return seen;
    };
    for (const query of [
      { search: 'ana' },
      { search: 'P1' },
      { search: 'p1@x' },
      { search: 'ana', status: 'bounced' as const },
      { search: 'nada' },
    ]) {
      const fromMatches = await all(query, 1000);
      const walking = await all(query, 0);
      expect(fromMatches).toEqual(walking);
    }
    expect(await all({ search: 'ana' }, 1000)).toHaveLength(20);
    expect(await all({ search: 'p1' }, 1000)).toHaveLength(11); // p1, p10–p19
    expect(await all({ search: 'p1@x' }, 1000)).toEqual(['p1@x.com']);
    expect(await all({ search: 'nada' }, 1000)).toEqual([]);
  });

  it('refuses a status that is not one of the contact statuses', async () => {
    const account = await createTestAccount(database.db);
    await expect(
      findContacts(database.db, account.id, { status: "x' or 1=1 --" as unknown as 'subscribed' }),
    ).rejects.toThrow('Status inválido.');
  });
});
