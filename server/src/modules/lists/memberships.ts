import { type SQL, sql } from 'drizzle-orm';
import { asDb, type DbOrTx } from '../../db/database';

/**
 * Membership changes that other modules cause (an unsubscribe link, the preference centre, a complaint, the
 * dashboard's "descadastrar"), each one statement on the caller's transaction. Joining a list goes through
 * `addContactsToLists` (the consent rule), never through here.
 */

function uuidArray(ids: readonly string[]): SQL {
  return sql`array[${sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  )}]::uuid[]`;
}

/** The contact leaves the given lists, or every list when `listIds` is omitted or empty. */
export async function unsubscribeMemberships(
  db: DbOrTx,
  contactId: string,
  listIds?: readonly string[],
): Promise<void> {
  await asDb(db).execute(
    sql`update list_memberships set status = 'unsubscribed'
         where contact_id = ${contactId} and status <> 'unsubscribed'
           ${listIds?.length ? sql`and list_id = any(${uuidArray(listIds)})` : sql``}`,
  );
}

/** The contacts leave every list of the account (scoped by the account's lists). */
export async function unsubscribeFromAccountLists(
  db: DbOrTx,
  accountId: string,
  contactIds: readonly string[],
): Promise<void> {
  if (contactIds.length === 0) return;
  await asDb(db).execute(
    sql`update list_memberships m set status = 'unsubscribed'
          from lists l
         where l.id = m.list_id and l.account_id = ${accountId}
           and m.contact_id = any(${uuidArray(contactIds)})`,
  );
}

/** The person's own choice in the preference centre: back on a list they had left (a pending one stays pending). */
export async function resubscribeMembership(db: DbOrTx, contactId: string, listId: string): Promise<void> {
  await asDb(db).execute(
    sql`update list_memberships set status = 'subscribed'
         where contact_id = ${contactId} and list_id = ${listId}::uuid and status = 'unsubscribed'`,
  );
}

/** A condition (for the contacts module's status rule): the contact is subscribed to at least one list. */
export function hasSubscribedMembershipSql(contactId: SQL | string): SQL {
  return sql`exists (select 1 from list_memberships where contact_id = ${contactId} and status = 'subscribed')`;
}
