import type { Db } from '../../db/database';
import { findContact } from '../contacts/find-contacts';
import { findContactMemberships } from '../lists/list-directory';
import { findConsentEvidence } from '../subscriptions/consent-requests';

/**
 * LGPD access/portability (art. 18): everything Carteiro holds about one contact of the account, as JSON — the
 * contact, its lists and its consent evidence, each read through its owner. The dashboard's export (contacts'
 * routes, handed this by the composition root) and the public privacy page's access request both answer it.
 * Message history joins here when the campaigns module records it.
 */
export async function exportContactData(db: Db, accountId: string, contactId: string) {
  const contact = await findContact(db, accountId, contactId);
  const memberships = await findContactMemberships(db, contactId);
  const evidence = await findConsentEvidence(db, contactId);
  const { lists: _ids, ...data } = contact;
  return {
    exportedAt: new Date().toISOString(),
    controllerAccountId: accountId,
    contact: data,
    lists: memberships.map((m) => ({
      listId: m.listId,
      listName: m.listName,
      status: m.status,
      since: m.createdAt.toISOString(),
    })),
    /** Subscribe-form submissions: the consent evidence (time, IP, form, exact text, confirmation). */
    consentEvidence: evidence.map((e) => ({
      ...e,
      createdAt: e.createdAt.toISOString(),
      confirmedAt: e.confirmedAt?.toISOString() ?? null,
    })),
  };
}
