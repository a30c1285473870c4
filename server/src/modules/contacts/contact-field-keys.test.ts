import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDatabaseBeforeMigration, DATABASE_KINDS, insertAccountRow } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { findCustomFieldNames, findCustomFieldNamesAmong } from './custom-field-names';

describe.each(DATABASE_KINDS)('the field keys migration on %s', (kind) => {
  it('counts the keys of the contacts written before it, per account, and the triggers go on from there', async () => {
    const database = await createDatabaseBeforeMigration(kind, '_contact_field_keys');
    try {
      const db = database.db;
      const loja = await insertAccountRow(db, 'Loja');
      const outra = await insertAccountRow(db, 'Outra');
      await db.execute(
        sql`insert into contacts (account_id, email, fields) values
              (${loja}, 'ana@x.com', '{"cidade": "Recife", "pontos": "10"}'),
              (${loja}, 'bia@x.com', '{"cidade": "Natal"}'),
              (${loja}, 'caio@x.com', '{}'),
              (${outra}, 'davi@x.com', '{"plano": "ouro"}')`,
      );
      await database.migrate();
      const counts = async (accountId: string) =>
        (
          await queryRows<{ row: string }>(
            db,
            sql`select key || ' ' || contacts as row from contact_field_keys where account_id = ${accountId} order by key`,
          )
        ).map((r) => r.row);
      expect(await counts(loja)).toEqual(['cidade 2', 'pontos 1']);
      expect(await counts(outra)).toEqual(['plano 1']);
      // The last contact with a key loses it: the key stays counted at 0 and is no longer offered.
      await db.execute(sql`update contacts set fields = '{"cidade": "Recife"}' where email = 'ana@x.com'`);
      expect(await counts(loja)).toEqual(['cidade 2', 'pontos 0']);
      expect(await findCustomFieldNames(db, loja)).toEqual(['cidade']);
      expect([...(await findCustomFieldNamesAmong(db, loja, ['cidade', 'pontos', 'plano']))]).toEqual(['cidade']);
    } finally {
      await database.close();
    }
  }, 120_000);
});
