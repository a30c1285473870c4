import { normaliseEmail } from '@carteiro/shared';
import { eq, inArray } from 'drizzle-orm';
import { asDb, type Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { accountDirectory } from '../accounts/account-directory';
import { recordContactConsent, upsertFormContact } from '../contacts/contact-status';
import { liftSuppressionsByConsent } from '../contacts/suppression';
import { findListSummaries, listDirectory } from '../lists/list-directory';
import { confirmMemberships } from '../lists/memberships';
import { addContactsToList } from './add-contacts-to-lists';
import { type ConsentLinks, SUBSCRIBE_TOKEN_PURPOSE } from './consent-requests';
import { verifyToken } from './signed-token';
import { subscriptionConsents } from './subscriptions.db';

export interface PublicList {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  optIn: 'single' | 'double';
  senderName: string;
}

/** A list as its public form needs it (null when it does not exist). */
export async function findPublicList(db: Db, listId: string): Promise<PublicList | null> {
  if (!/^[0-9a-f-]{36}$/i.test(listId)) return null;
  const [row] = await db
    .select({
      id: listDirectory.id,
      accountId: listDirectory.accountId,
      name: listDirectory.name,
      description: listDirectory.description,
      optIn: listDirectory.optIn,
      senderName: accountDirectory.senderName,
    })
    .from(listDirectory)
    .innerJoin(accountDirectory, eq(accountDirectory.id, listDirectory.accountId))
    .where(eq(listDirectory.id, listId));
  return row ?? null;
}

/** The consent text shown next to the checkbox — and recorded, word for word, as evidence. */
export function consentText(list: PublicList): string {
  return (
    `Quero receber e-mails de ${list.senderName} (lista "${list.name}"). Sei que posso cancelar a inscrição a ` +
    'qualquer momento pelo link no fim de cada mensagem.'
  );
}

export interface SubscribeInput {
  email: string;
  name: string | null;
  consent: boolean;
  form: 'hospedado' | 'incorporado';
  ip: string | null;
  userAgent: string | null;
}

export type SubscribeResult =
  | { outcome: 'subscribed' }
  | { outcome: 'confirmation_sent' }
  | { outcome: 'invalid'; message: string };

/**
 * A subscribe form submission: the contact is created (or found) with the person's evidence, then joins the list
 * through the one rule (`addContactsToList`, cause `form`): subscribed at once on a single opt-in list; pending and
 * confirmed by a pt-BR e-mail with a signed link on a double opt-in list — or whatever the list when the address is
 * on the account's suppression list, since only the owner of the mailbox may lift it.
 */
export async function subscribe(
  db: Db,
  mailer: Mailer,
  links: ConsentLinks,
  list: PublicList,
  input: SubscribeInput,
): Promise<SubscribeResult> {
  const email = normaliseEmail(input.email);
  if (!email) return { outcome: 'invalid', message: 'Informe um e-mail válido.' };
  if (!input.consent) {
    return { outcome: 'invalid', message: 'Marque a caixa de consentimento para se inscrever.' };
  }
  const name = input.name?.trim().slice(0, 200) || null;
  const contactId = await upsertFormContact(db, list.accountId, {
    email,
    name,
    consentSource: `formulário ${input.form} da lista "${list.name}"`,
  });
  const joined = await addContactsToList(db, links, list.accountId, list.id, [contactId], {
    kind: 'form',
    form: input.form,
    ip: input.ip,
    userAgent: input.userAgent,
    consentText: consentText(list),
    mailer,
  });
  return joined.subscribed > 0 ? { outcome: 'subscribed' } : { outcome: 'confirmation_sent' };
}

/**
 * Follows a double opt-in link: every membership the request asked about (one e-mail may name several lists)
 * becomes subscribed, the evidence gets its confirmation time and the contact its consent — and, as the mailbox
 * owner's new consent, the address's "unsubscribed" and "erased" suppressions are lifted (bounces, complaints and
 * the sender's manual entries stay). Null when the token is forged, expired or its request no longer exists
 * (contact erased).
 */
export async function confirmSubscription(
  db: Db,
  secret: string,
  token: unknown,
  ip: string | null,
): Promise<{ listNames: string[] } | null> {
  const consentId = verifyToken(secret, SUBSCRIBE_TOKEN_PURPOSE, token);
  if (!consentId) return null;
  return db.transaction(async (tx) => {
    const t = asDb(tx);
    const [first] = await tx.select().from(subscriptionConsents).where(eq(subscriptionConsents.id, consentId));
    if (!first) return null;
    const requested = first.requestId
      ? await tx.select().from(subscriptionConsents).where(eq(subscriptionConsents.requestId, first.requestId))
      : [first];
    const found = await findListSummaries(
      tx,
      requested.map((r) => r.listId),
    );
    if (found.length === 0) return null;
    const now = new Date();
    const open = requested.filter((r) => !r.confirmedAt);
    if (open.length > 0) {
      await tx
        .update(subscriptionConsents)
        .set({ confirmedAt: now })
        .where(
          inArray(
            subscriptionConsents.id,
            open.map((r) => r.id),
          ),
        );
      await confirmMemberships(
        t,
        first.contactId,
        open.map((r) => r.listId),
      );
      const email = await recordContactConsent(
        t,
        first.contactId,
        { at: now, ip: ip ?? first.ip, text: first.consentText },
        { onlyReachable: false },
      );
      if (email) await liftSuppressionsByConsent(t, first.accountId, email);
    }
    return { listNames: requested.map((r) => found.find((l) => l.id === r.listId)?.name).filter(Boolean) as string[] };
  });
}
