import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';

/**
 * The custom field names used by the account's contacts (`contato.<campo>` in templates), sorted. Read-only
 * query on the contacts table, run at template save time only (a scan of the account's contacts' JSON keys).
 */
export async function findCustomFieldNames(db: Db, accountId: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    db,
    sql`select distinct jsonb_object_keys(fields) as name from contacts where account_id = ${accountId} order by 1`,
  );
  return rows.map((r) => r.name);
}
