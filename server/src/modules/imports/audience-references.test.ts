import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { createList } from '../lists/create-list';

/**
 * contacts → accounts, list_memberships → lists and → contacts are enforced by statement-level triggers
 * (migration 0016) instead of declared foreign keys, for the bulk import's sake. They must behave like the
 * foreign keys they replace: no dangling reference can be written, deletes cascade, and a concurrent delete
 * either waits for the insert and removes what it wrote, or makes it fail.
 */
describe.each(DATABASE_KINDS)('contact and membership references on %s', (kind) => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  const run = (query: ReturnType<typeof sql>) => queryRows<Record<string, unknown>>(database.db, query);
  const count = async (query: ReturnType<typeof sql>) => Number((await run(query))[0]?.n);
  const errorCode = async (query: ReturnType<typeof sql>) => {
    try {
      await run(query);
    } catch (error) {
      for (let e = error as { code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
        if (e.code) return e.code;
      }
      return 'no code';
    }
    return 'no error';
  };
  async function contact(accountId: string, email: string): Promise<string> {
    const [row] = await run(sql`insert into contacts (account_id, email) values (${accountId}, ${email}) returning id`);
    return row?.id as string;
  }

  it('refuses a contact of an unknown account and a membership of an unknown list or contact (23503, nothing written)', async () => {
    const account = await createTestAccount(database.db);
    const list = await createList(database.db, account.id, { name: 'L' });
    const c = await contact(account.id, 'a@x.com');
    expect(
      await errorCode(
        sql`insert into contacts (account_id, email) values (${account.id}, 'b@x.com'), (${randomUUID()}, 'c@x.com')`,
      ),
    ).toBe('23503');
    expect(
      await errorCode(
        sql`insert into list_memberships (list_id, contact_id) values (${list.id}, ${c}), (${randomUUID()}, ${c})`,
      ),
    ).toBe('23503');
    expect(
      await errorCode(
        sql`insert into list_memberships (list_id, contact_id) values (${list.id}, ${c}), (${list.id}, ${randomUUID()})`,
      ),
    ).toBe('23503');
    // A contact and its membership written by one statement (as the import does) pass.
    await run(sql`with c as (insert into contacts (account_id, email) values (${account.id}, 'd@x.com') returning id)
                  insert into list_memberships (list_id, contact_id) select ${list.id}::uuid, id from c`);
    expect(await count(sql`select count(*)::int as n from contacts where account_id = ${account.id}`)).toBe(2);
    expect(await count(sql`select count(*)::int as n from list_memberships where list_id = ${list.id}`)).toBe(1);
    // Updates that point a reference elsewhere are checked too; a referenced id cannot change.
    await run(sql`insert into list_memberships (list_id, contact_id) values (${list.id}, ${c})`);
    expect(await errorCode(sql`update list_memberships set contact_id = ${randomUUID()} where contact_id = ${c}`)).toBe(
      '23503',
    );
    expect(await errorCode(sql`update contacts set account_id = ${randomUUID()} where id = ${c}`)).toBe('23503');
    expect(await errorCode(sql`update contacts set id = ${randomUUID()} where id = ${c}`)).toBe('23503');
    expect(await errorCode(sql`update lists set id = ${randomUUID()} where id = ${list.id}`)).toBe('23503');
  });

  it('cascades deletes: a list takes its memberships, a contact its memberships, an account its contacts', async () => {
    const account = await createTestAccount(database.db);
    const other = await createTestAccount(database.db);
    const [l1, l2] = [
      await createList(database.db, account.id, { name: 'L1' }),
      await createList(database.db, account.id, { name: 'L2' }),
    ];
    const ids = [await contact(account.id, 'um@x.com'), await contact(account.id, 'dois@x.com')];
    const kept = await contact(other.id, 'um@x.com');
    for (const list of [l1, l2]) {
      for (const id of ids)
        await run(sql`insert into list_memberships (list_id, contact_id) values (${list.id}, ${id})`);
    }
    await run(sql`delete from lists where id = ${l1.id}`);
    expect(await count(sql`select count(*)::int as n from list_memberships where list_id = ${l1.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from list_memberships where list_id = ${l2.id}`)).toBe(2);
    await run(sql`delete from contacts where id = ${ids[0]}`);
    expect(await count(sql`select count(*)::int as n from list_memberships where list_id = ${l2.id}`)).toBe(1);
    await run(sql`delete from accounts where id = ${account.id}`);
    expect(await count(sql`select count(*)::int as n from contacts where account_id = ${account.id}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from list_memberships where contact_id = ${ids[1]}`)).toBe(0);
    expect(await count(sql`select count(*)::int as n from contacts where id = ${kept}`)).toBe(1);
  });

  // Two connections at once: PGlite has one, so this case exists on PostgreSQL only (not a skipped test).
  if (kind === 'postgres') {
    it('a concurrent contact delete waits for a membership insert and then removes it, or makes it fail', async () => {
      const account = await createTestAccount(database.db);
      const list = await createList(database.db, account.id, { name: 'L' });
      const [first, second] = [await contact(account.id, 'p@x.com'), await contact(account.id, 'q@x.com')];
      const a = new pg.Client({ connectionString: database.url as string });
      const b = new pg.Client({ connectionString: database.url as string });
      await a.connect();
      await b.connect();
      try {
        // The insert locks the existing contact: the delete waits for its commit, then cascades to the new row.
        await a.query('begin');
        await a.query('insert into list_memberships (list_id, contact_id) values ($1, $2)', [list.id, first]);
        const deleting = b.query('delete from contacts where id = $1', [first]);
        await new Promise((resolve) => setTimeout(resolve, 200));
        await a.query('commit');
        await deleting;
        expect(await count(sql`select count(*)::int as n from list_memberships where contact_id = ${first}`)).toBe(0);

        // The delete comes first: the insert waits for it and fails when it commits.
        await b.query('begin');
        await b.query('delete from contacts where id = $1', [second]);
        const inserting = a
          .query('insert into list_memberships (list_id, contact_id) values ($1, $2)', [list.id, second])
          .then(
            () => 'inserted',
            (error: { code?: string }) => error.code,
          );
        await new Promise((resolve) => setTimeout(resolve, 200));
        await b.query('commit');
        expect(await inserting).toBe('23503');
        expect(await count(sql`select count(*)::int as n from list_memberships where list_id = ${list.id}`)).toBe(0);
      } finally {
        await a.end();
        await b.end();
      }
    });
  }
});
