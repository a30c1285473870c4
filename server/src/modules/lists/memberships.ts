import { type SQL, sql } from 'drizzle-orm';
import { asDb, type DbOrTx, queryRows } from '../../db/database';
import { notFound } from '../../http/not-found';
import { findListSummaries } from './list-directory';

/**
 * Membership changes that other modules cause (an unsubscribe link, the preference centre, a complaint, the
 * dashboard's "descadastrar", removing contacts from a list), each one statement on the caller's transaction.
 * Joining a list, and a double opt-in's confirmation, are subscriptions' `addContactsToLists` and
 * `confirmSubscription` (the consent rule), which write through `joinListsSql`, `putFormMembership` and
 * `confirmMemberships` — no other caller.
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

/** One parameter for any number of ids (an import joins 10,000 contacts at a time). */
function uuidParam(ids: readonly string[]): SQL {
  return sql`${`{${ids.join(',')}}`}::uuid[]`;
}

/**
 * The insert that puts contacts on lists, for the consent rule's one statement (a CTE body): every contact the
 * `contactIds` query names (its `id` column) joins every list of `listIds` — subscribed on a single opt-in list,
 * pending on a double opt-in one — and a membership that exists keeps its status. Returns the rows it created
 * (`list_id`, `contact_id`, `status`). The caller has checked the lists are the account's and the contacts may join.
 */
export function joinListsSql(listIds: readonly string[], contactIds: SQL): SQL {
  return sql`insert into list_memberships (list_id, contact_id, status)
            select l.id, joining.id, case when l.opt_in = 'double' then 'pending' else 'subscribed' end
              from (${contactIds}) joining join lists l on l.id = any(${uuidParam(listIds)})
            on conflict do nothing
            returning list_id, contact_id, status`;
}

/**
 * A form's membership: created with `status`; an existing one stays subscribed if it was and otherwise takes
 * `status` (a pending or unsubscribed person asking again). Answers the status it now has.
 */
export async function putFormMembership(
  db: DbOrTx,
  listId: string,
  contactId: string,
  status: 'pending' | 'subscribed',
): Promise<string | null> {
  const [membership] = await queryRows<{ status: string }>(
    asDb(db),
    sql`insert into list_memberships (list_id, contact_id, status)
        values (${listId}, ${contactId}, ${status})
        on conflict (list_id, contact_id) do update
          set status = case when list_memberships.status = 'subscribed' then 'subscribed' else excluded.status end
        returning status`,
  );
  return membership?.status ?? null;
}

/** The person confirmed (double opt-in link): their memberships of these lists become subscribed. */
export async function confirmMemberships(db: DbOrTx, contactId: string, listIds: readonly string[]): Promise<void> {
  await asDb(db).execute(
    sql`update list_memberships set status = 'subscribed'
         where contact_id = ${contactId} and list_id = any(${uuidParam(listIds)}) and status <> 'subscribed'`,
  );
}

/** Removes contacts from a list of the account (the contacts stay); 404 for a list of another account. */
export async function removeContactsFromList(
  db: DbOrTx,
  accountId: string,
  listId: string,
  ids: string[],
): Promise<number> {
  if ((await findListSummaries(db, [listId], accountId)).length === 0) throw notFound('list');
  if (ids.length === 0) return 0;
  const rows = await queryRows<{ contact_id: string }>(
    asDb(db),
    sql`delete from list_memberships m using contacts c
         where m.list_id = ${listId} and m.contact_id = any(${uuidParam([...new Set(ids)])})
           and c.id = m.contact_id and c.account_id = ${accountId}
        returning m.contact_id`,
  );
  return rows.length;
}
