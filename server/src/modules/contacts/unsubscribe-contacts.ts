import { and, eq, inArray } from 'drizzle-orm';
import { asDb, type Db } from '../../db/database';
import { unsubscribeFromAccountLists } from '../lists/memberships';
import { emitContactsUnsubscribed } from '../webhooks/emit-event';
import { contacts } from './contacts.db';
import { suppressUnsubscribedContacts } from './suppression';

/**
 * Unsubscribes contacts of the account from everything: contact status, every list membership and the account's
 * suppression list (reason "unsubscribed", one statement for all of them), in one transaction. A later import
 * never re-subscribes them (imports do not change an existing contact's status) and, through the suppression,
 * never brings the address back even after the contact is deleted. Returns how many contacts changed status.
 */
export async function unsubscribeContacts(db: Db, accountId: string, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(contacts)
      .set({ status: 'unsubscribed', updatedAt: new Date() })
      .where(and(eq(contacts.accountId, accountId), inArray(contacts.id, ids), eq(contacts.status, 'subscribed')))
      .returning({ id: contacts.id });
    await unsubscribeFromAccountLists(tx, accountId, ids);
    await suppressUnsubscribedContacts(asDb(tx), accountId, ids);
    // Outbound webhook: the contacts this call unsubscribed.
    await emitContactsUnsubscribed(
      tx,
      accountId,
      rows.map((r) => r.id),
      'manual',
    );
    return rows.length;
  });
}
