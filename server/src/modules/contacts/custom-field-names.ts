import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';

/**
 * The custom field names used by the account's contacts (`contato.<campo>` in templates, the segment editor's
 * fields), sorted: the keys some contact still carries, from `contact_field_keys` (kept by the triggers on
 * contacts, migration 0057) — rows per key, not a pass over every contact's fields.
 */
export async function findCustomFieldNames(db: Db, accountId: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select key as name from contact_field_keys where account_id = ${accountId} and contacts > 0 order by key`,
  );
  return rows.map((r) => r.name);
}

/** Which of `keys` some contact of the account carries (a segment's conditions on fields nobody has match no one). */
export async function findCustomFieldNamesAmong(db: Db, accountId: string, keys: string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select key as name from contact_field_keys
         where account_id = ${accountId} and key = any(${pgTextArray(keys)}::text[]) and contacts > 0`,
  );
  return new Set(rows.map((r) => r.name));
}
