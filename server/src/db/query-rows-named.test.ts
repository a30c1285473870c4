import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { DATABASE_KINDS } from '../../test/support/test-database';
import { asDb, queryRows, queryRowsNamed } from './database';

describe.each(DATABASE_KINDS)('named prepared statements (queryRowsNamed) on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers like queryRows, with its parameters, and PostgreSQL keeps the statement on the connection', async () => {
    const db = t.database.db;
    const statement = (n: number, word: string) =>
      sql`select ${n}::int + 1 as next, upper(${word}) as word, ${[1, 2, 3].length}::int as three`;
    expect(await queryRowsNamed(db, 'query_rows_named_probe', statement(41, 'olá'))).toEqual(
      await queryRows(db, statement(41, 'olá')),
    );
    // Same name, other parameters, inside one transaction (one connection): parsed once, run twice.
    const prepared = await db.transaction(async (tx) => {
      const q = asDb(tx);
      const first = await queryRowsNamed<{ next: number; word: string }>(
        q,
        'query_rows_named_probe',
        statement(1, 'a'),
      );
      const second = await queryRowsNamed<{ next: number; word: string }>(
        q,
        'query_rows_named_probe',
        statement(9, 'b'),
      );
      expect(first).toEqual([{ next: 2, word: 'A', three: 3 }]);
      expect(second).toEqual([{ next: 10, word: 'B', three: 3 }]);
      return queryRows<{ name: string }>(q, sql`select name from pg_prepared_statements`);
    });
    if (t.database.kind === 'postgres') expect(prepared.map((p) => p.name)).toContain('query_rows_named_probe');
    else expect(prepared.map((p) => p.name)).not.toContain('query_rows_named_probe'); // PGlite: in-process, unnamed
  });
});
