import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DATABASE_KINDS } from '../../test/support/test-database';
import { asDb, type Database, prebuildStatement, queryPrebuilt, queryRows } from './database';

const SLOTS = { n: 'integer', word: 'text', maybe: 'text or null' } as const;

describe('prebuildStatement', () => {
  it('keeps the constants of the text and puts each run’s values in their slots, wherever they repeat', () => {
    const statement = prebuildStatement(
      'prebuilt_probe',
      SLOTS,
      (v) => sql`select ${v.n}::int as n, ${'fixo'}::text as fixed, ${v.word} as w, ${v.n}::int + 1, ${v.maybe}::text`,
    );
    expect(statement.text).toBe('select $1::int as n, $2::text as fixed, $3 as w, $4::int + 1, $5::text');
    expect(statement.params({ n: 7, word: 'olá', maybe: null })).toEqual([7, 'fixo', 'olá', 7, null]);
    expect(statement.params({ n: -1, word: 'b', maybe: 'c' })).toEqual([-1, 'fixo', 'b', -1, 'c']);
  });

  it('refuses a value that a helper changed on its way in (it would be baked into every run) and an unused slot', () => {
    expect(() =>
      prebuildStatement('prebuilt_negated', SLOTS, (v) => sql`select ${-v.n}, ${v.word}, ${v.maybe}`),
    ).toThrow(/parameter \$1 is derived from a slot/);
    expect(() =>
      prebuildStatement('prebuilt_lowered', SLOTS, (v) => sql`select ${v.n}, ${v.word.toLowerCase()}, ${v.maybe}`),
    ).toThrow(/parameter \$2 is derived from a slot/);
    expect(() => prebuildStatement('prebuilt_unused', SLOTS, (v) => sql`select ${v.n}, ${v.word}`)).toThrow(
      /slots never used as they are: maybe/,
    );
  });
});

describe.each(DATABASE_KINDS)('queryPrebuilt on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase(kind);
  });
  afterAll(async () => {
    await database.close();
  });

  it('runs the statement with each run’s values, named (kept by PostgreSQL) or not', async () => {
    const statement = prebuildStatement(
      'prebuilt_run_probe',
      SLOTS,
      (v) => sql`select ${v.n}::int + 1 as next, upper(${v.word}) as word, coalesce(${v.maybe}::text, '-') as maybe`,
    );
    const names = await database.db.transaction(async (tx) => {
      const q = asDb(tx);
      expect(await queryPrebuilt(q, statement, { n: 1, word: 'a', maybe: null }, { named: true })).toEqual([
        { next: 2, word: 'A', maybe: '-' },
      ]);
      expect(await queryPrebuilt(q, statement, { n: 9, word: 'é', maybe: 'x' }, { named: true })).toEqual([
        { next: 10, word: 'É', maybe: 'x' },
      ]);
      return queryRows<{ name: string }>(q, sql`select name from pg_prepared_statements`);
    });
    if (kind === 'postgres') expect(names.map((p) => p.name)).toContain('prebuilt_run_probe');
    expect(await queryPrebuilt(database.db, statement, { n: 41, word: 'b', maybe: null }, { named: false })).toEqual([
      { next: 42, word: 'B', maybe: '-' },
    ]);
  });
});
