import { normaliseEmail } from '@carteiro/shared';
import { asDb, type Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { countCampaignOutcome } from '../campaigns/campaign-records';
import type { UnsubscribeTarget } from '../campaigns/message-recipient';
import { syncContactStatusWithLists } from '../contacts/contact-status';
import { liftUnsubscribedSuppression, suppressEmail, suppressUnsubscribedContacts } from '../contacts/suppression';
import { findContactMemberships, findListSummaries } from '../lists/list-directory';
import { resubscribeMembership, unsubscribeMemberships } from '../lists/memberships';
import { recordMessageEventOnce } from '../tracking/message-events';
import { emitMessageEvent } from '../webhooks/emit-event';

export interface PreferenceList {
  id: string;
  name: string;
  description: string | null;
  subscribed: boolean;
  inCampaign: boolean;
}

/**
 * One-click unsubscribe (RFC 8058) and the page's confirm button: the contact leaves the campaign's lists at
 * once (every list when the contact would be left on none, the contact status becomes unsubscribed), recorded
 * once per message as an `unsubscribe` event. Idempotent. Messages of the campaign not yet sent are skipped by
 * the engine, which re-reads the memberships when it claims them.
 * A contact left on no list — or a message whose contact the sender has deleted — also puts the address on the
 * account's suppression list (reason "unsubscribed", same transaction), so a re-import never brings it back.
 * Leaving one list while staying on another is not an account-wide opt-out and adds nothing.
 */
export async function unsubscribeByMessage(
  db: Db,
  target: UnsubscribeTarget,
  source: 'one-click' | 'page',
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const t = asDb(tx);
    // contactStatus is null when the message's contact no longer exists (deleted by the sender; messages keep
    // the old id): the opt-out then goes on the address the message was sent to.
    if (target.contactId && target.contactStatus !== null) {
      // The campaign's lists; every list for a message that names none (the account's stream).
      await unsubscribeMemberships(t, target.contactId, target.campaignListIds);
      await syncContactStatusWithLists(t, target.contactId);
      await suppressUnsubscribedContacts(t, target.accountId, [target.contactId]);
    } else {
      await suppressEmail(t, target.accountId, normaliseEmail(target.email) ?? target.email, 'unsubscribed');
    }
    const recorded = await recordMessageEventOnce(t, {
      messageId: target.messageId,
      campaignId: target.campaignId,
      accountId: target.accountId,
      contactId: target.contactId,
      kind: 'unsubscribe',
      bounceKind: null,
      detail: source,
      userAgent: null,
    });
    if (recorded) {
      await countCampaignOutcome(t, target.campaignId, 'unsubscribed');
      await emitMessageEvent(t, target.messageId, 'contact.unsubscribed', { source }); // outbound webhook
    }
    return recorded;
  });
}

/** The account's lists the contact belongs to (any status): what the preference centre offers. */
export async function findPreferenceLists(db: Db, target: UnsubscribeTarget): Promise<PreferenceList[]> {
  if (!target.contactId) return [];
  const memberships = await findContactMemberships(db, target.contactId);
  const status = new Map(memberships.map((m) => [m.listId, m.status]));
  const lists = await findListSummaries(db, [...status.keys()], target.accountId);
  return lists
    .sort((a, b) => a.name.localeCompare(b.name, 'pt-BR'))
    .map((r) => ({
      id: r.id,
      name: r.name,
      description: r.description,
      subscribed: status.get(r.id) === 'subscribed',
      inCampaign: target.campaignListIds.includes(r.id),
    }));
}

/**
 * The preference centre's save: stay on exactly `keepListIds` among the contact's lists. A list that is not
 * one of the contact's lists in this account is refused (400, nothing changed). Pending (double opt-in)
 * memberships are left as they are unless unchecked. The suppression list follows the person's own choice, in
 * the same transaction: left on no list → suppressed ("unsubscribed"); subscribed to a list again (this form or
 * "Quero voltar a receber") → their "unsubscribed" entry is lifted, as a new consent — never another reason's.
 */
export async function savePreferences(db: Db, target: UnsubscribeTarget, keepListIds: string[]): Promise<void> {
  if (!target.contactId) throw new AppError('bad_request', ERROR_TEXT.unsubscribe.notOnList);
  if (target.contactStatus === 'bounced' || target.contactStatus === 'complained') {
    throw new AppError('conflict', ERROR_TEXT.unsubscribe.addressSuppressed);
  }
  const lists = await findPreferenceLists(db, target);
  const known = new Set(lists.map((l) => l.id));
  if (keepListIds.some((id) => !known.has(id))) throw new AppError('bad_request', ERROR_TEXT.unsubscribe.invalidList);
  const keep = new Set(keepListIds);
  const contactId = target.contactId;
  await db.transaction(async (tx) => {
    const t = asDb(tx);
    for (const list of lists) {
      if (keep.has(list.id) && !list.subscribed) {
        await resubscribeMembership(t, contactId, list.id);
      } else if (!keep.has(list.id) && list.subscribed) {
        await unsubscribeMemberships(t, contactId, [list.id]);
      }
    }
    await syncContactStatusWithLists(t, contactId);
    // Each is a no-op unless its condition holds: no subscribed list left / a subscribed list again.
    await suppressUnsubscribedContacts(t, target.accountId, [contactId]);
    await liftUnsubscribedSuppression(t, target.accountId, contactId);
  });
}

/** Resubscribe: back on the campaign's lists (the contact's own decision, from the page). */
export async function resubscribe(db: Db, target: UnsubscribeTarget): Promise<void> {
  const lists = await findPreferenceLists(db, target);
  const keep = lists.filter((l) => l.subscribed || l.inCampaign).map((l) => l.id);
  await savePreferences(db, target, keep);
}
