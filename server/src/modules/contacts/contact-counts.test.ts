import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../../test/support/seeded-random';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { type Database, type Db, queryRows } from '../../db/database';
import { accountContactCountSql, foldContactCounts } from './contact-counts';

/**
 * An account's contact count from its delta rows (migration 0065) is the count of its contacts, after every shape of
 * statement that writes contacts: multi-row inserts, an upsert that inserts some and updates others (the import's
 * and the API's form), deletes of some, a contact moved to another account, an account deleted with its contacts,
 * and folds in between.
 */
describe.each(DATABASE_KINDS)('contact counts on %s', (kind) => {
  let database: Database;
  let db: Db;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
  });
  afterAll(async () => {
    await database.close();
  });

  const counted = async (accountId: string) => {
    const [row] = await queryRows<{ contacts: number | string; count_rows: number }>(
      db,
      sql`select * from ${accountContactCountSql(accountId)} t`,
    );
    return { contacts: Number(row?.contacts), rows: Number(row?.count_rows) };
  };
  const actual = async (accountId: string) => {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from contacts where account_id = ${accountId}::uuid`,
    );
    return Number(row?.n);
  };
  const insert = (accountId: string, emails: string[]) =>
    queryRows(
      db,
      sql`insert into contacts (account_id, email, name, fields, status)
          select ${accountId}::uuid, e, 'Pessoa', jsonb_build_object('cidade', 'Recife'), 'subscribed'
            from unnest(${`{${emails.join(',')}}`}::text[]) e
          on conflict (account_id, email) do update set name = excluded.name || ' (de novo)'`,
    );

  it('follows generated inserts, upserts, deletions, moves and folds', async () => {
    const { next: rnd } = seededRandom(65);
    const a = (await createTestAccount(db)).id;
    const b = (await createTestAccount(db)).id;
    for (let round = 0; round < 40; round++) {
      const account = rnd() < 0.7 ? a : b;
      const op = rnd();
      if (op < 0.5) {
        // Some new, some already there (updated, not counted again).
        const emails = Array.from({ length: 1 + Math.floor(rnd() * 30) }, () => `c${Math.floor(rnd() * 200)}@x.com.br`);
        await insert(account, [...new Set(emails)]);
      } else if (op < 0.8) {
        await queryRows(
          db,
          sql`delete from contacts where account_id = ${account}::uuid and email like ${`c${Math.floor(rnd() * 10)}%`}`,
        );
      } else if (op < 0.9) {
        // A contact moved to the other account (an address the other does not have).
        const other = account === a ? b : a;
        await queryRows(
          db,
          sql`update contacts c set account_id = ${other}::uuid
               where c.id = (select id from contacts x where x.account_id = ${account}::uuid
                               and not exists (select 1 from contacts y where y.account_id = ${other}::uuid
                                                 and y.email = x.email)
                             order by x.email limit 1)`,
        );
      } else {
        await foldContactCounts(db, account);
        expect((await counted(account)).rows).toBeLessThanOrEqual(1);
      }
      expect((await counted(a)).contacts, `round ${round}`).toBe(await actual(a));
      expect((await counted(b)).contacts, `round ${round}`).toBe(await actual(b));
    }
    expect(await actual(a)).toBeGreaterThan(20);
  });

  it('appends nothing when an upsert only updates, and leaves no row for a deleted account', async () => {
    const a = (await createTestAccount(db)).id;
    await insert(a, ['um@x.com.br', 'dois@x.com.br']);
    const before = await counted(a);
    await insert(a, ['um@x.com.br', 'dois@x.com.br']);
    expect(await counted(a)).toEqual(before);
    expect(before.contacts).toBe(2);
    await queryRows(db, sql`delete from accounts where id = ${a}::uuid`);
    const [left] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from contact_count_deltas where account_id = ${a}::uuid`,
    );
    expect(left?.n).toBe(0);
  });

  if (kind === 'postgres') {
    it('counts concurrent inserts and a fold between them exactly', async () => {
      const pool = database.pool;
      if (!pool) throw new Error('no pool');
      const a = (await createTestAccount(db)).id;
      // Two transactions insert while a fold runs; both commit after it.
      const t1 = await pool.connect();
      const t2 = await pool.connect();
      try {
        await t1.query('begin');
        await t2.query('begin');
        await t1.query(
          `insert into contacts (account_id, email, status) select $1, 'p' || g || '@x.com.br', 'subscribed'
             from generate_series(1, 50) g`,
          [a],
        );
        await t2.query(
          `insert into contacts (account_id, email, status) select $1, 'q' || g || '@x.com.br', 'subscribed'
             from generate_series(1, 70) g`,
          [a],
        );
        await foldContactCounts(db, a);
        await t1.query('commit');
        await foldContactCounts(db, a);
        await t2.query('commit');
      } finally {
        t1.release();
        t2.release();
      }
      expect((await counted(a)).contacts).toBe(120);
      await foldContactCounts(db, a);
      expect(await counted(a)).toEqual({ contacts: 120, rows: 1 });
    });
  }
});
