import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { listMemberships, lists } from '../lists/lists.db';
import { subscriptionConsents } from '../subscriptions/subscriptions.db';
import { findContact } from './find-contacts';

/**
 * LGPD access/portability (art. 18): everything Carteiro holds about one contact of the account, as JSON.
 * Message history joins here when the campaigns module records it.
 */
export async function exportContactData(db: Db, accountId: string, contactId: string) {
  const contact = await findContact(db, accountId, contactId);
  const memberships = await db
    .select({
      listId: lists.id,
      listName: lists.name,
      status: listMemberships.status,
      since: listMemberships.createdAt,
    })
    .from(listMemberships)
    .innerJoin(lists, eq(lists.id, listMemberships.listId))
    .where(eq(listMemberships.contactId, contactId));
  const evidence = await db
    .select({
      listId: subscriptionConsents.listId,
      formId: subscriptionConsents.formId,
      consentText: subscriptionConsents.consentText,
      ip: subscriptionConsents.ip,
      userAgent: subscriptionConsents.userAgent,
      optIn: subscriptionConsents.optIn,
      createdAt: subscriptionConsents.createdAt,
      confirmedAt: subscriptionConsents.confirmedAt,
    })
    .from(subscriptionConsents)
    .where(eq(subscriptionConsents.contactId, contactId));
  const { lists: _ids, ...data } = contact;
  return {
    exportedAt: new Date().toISOString(),
    controllerAccountId: accountId,
    contact: data,
    lists: memberships.map((m) => ({ ...m, since: m.since.toISOString() })),
    /** Subscribe-form submissions: the consent evidence (time, IP, form, exact text, confirmation). */
    consentEvidence: evidence.map((e) => ({
      ...e,
      createdAt: e.createdAt.toISOString(),
      confirmedAt: e.confirmedAt?.toISOString() ?? null,
    })),
  };
}
