import { normaliseEmail } from '@carteiro/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { contacts, suppressions } from '../contacts/contacts.db';
import { hashEmail } from '../contacts/email-hash';
import { listMemberships, lists } from '../lists/lists.db';
import { escapeHtml } from './public-page';
import { signToken, verifyToken } from './signed-token';
import { subscriptionConsents } from './subscriptions.db';

export const SUBSCRIBE_TOKEN_PURPOSE = 'subscribe-confirm';
export const SUBSCRIBE_TOKEN_TTL_SECONDS = 7 * 24 * 3600;

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
      id: lists.id,
      accountId: lists.accountId,
      name: lists.name,
      description: lists.description,
      optIn: lists.optIn,
      senderName: accounts.name,
      fromName: accounts.defaultFromName,
    })
    .from(lists)
    .innerJoin(accounts, eq(accounts.id, lists.accountId))
    .where(eq(lists.id, listId));
  if (!row) return null;
  return { ...row, senderName: row.fromName || row.senderName };
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
 * A subscribe form submission. Single opt-in: the contact is subscribed to the list at once. Double opt-in — and
 * any address on the account's suppression list, even on a single opt-in list, since only the owner of the
 * mailbox may lift it — the membership stays `pending` and a pt-BR confirmation e-mail with a signed link is
 * sent. The evidence (time, IP, user agent, form, exact consent text) is recorded either way.
 */
export async function subscribe(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  secret: string,
  list: PublicList,
  input: SubscribeInput,
): Promise<SubscribeResult> {
  const email = normaliseEmail(input.email);
  if (!email) return { outcome: 'invalid', message: 'Informe um e-mail válido.' };
  if (!input.consent) {
    return { outcome: 'invalid', message: 'Marque a caixa de consentimento para se inscrever.' };
  }
  const name = input.name?.trim().slice(0, 200) || null;
  const text = consentText(list);
  const [suppressed] = await db
    .select({ reason: suppressions.reason })
    .from(suppressions)
    .where(and(eq(suppressions.accountId, list.accountId), eq(suppressions.emailHash, hashEmail(email))));
  // What counts as the person's new consent (and so may lift an "unsubscribed" suppression): only a confirmed
  // double opt-in (confirmSubscription). A single opt-in form proves nothing about who typed the address, so a
  // suppressed address goes through the e-mailed confirmation even on a single opt-in list, and the submission
  // itself lifts nothing; an address not suppressed has nothing to lift. Imports and the sender's forms never lift.
  const needsConfirmation = list.optIn === 'double' || Boolean(suppressed);
  const now = new Date();

  const consentId = await db.transaction(async (tx) => {
    const [contact] = await tx
      .insert(contacts)
      .values({
        accountId: list.accountId,
        email,
        name,
        status: 'subscribed',
        legalBasis: 'consent',
        consentSource: `formulário ${input.form} da lista "${list.name}"`,
        ...(needsConfirmation ? {} : { consentAt: now, consentIp: input.ip, consentText: text }),
      })
      .onConflictDoUpdate({
        target: [contacts.accountId, contacts.email],
        set: { name: sql`coalesce(${contacts.name}, excluded.name)`, updatedAt: now },
      })
      .returning({ id: contacts.id });
    if (!contact) throw new Error('contact upsert returned nothing');
    const status = needsConfirmation ? 'pending' : 'subscribed';
    await tx
      .insert(listMemberships)
      .values({ listId: list.id, contactId: contact.id, status })
      .onConflictDoUpdate({
        target: [listMemberships.listId, listMemberships.contactId],
        // An already subscribed member stays subscribed; a pending or unsubscribed one takes the new status.
        set: {
          status: sql`case when ${listMemberships.status} = 'subscribed' then 'subscribed' else excluded.status end`,
        },
      });
    if (!needsConfirmation) {
      await tx
        .update(contacts)
        .set({
          status: 'subscribed',
          legalBasis: 'consent',
          consentAt: now,
          consentIp: input.ip,
          consentText: text,
          consentSource: `formulário ${input.form} da lista "${list.name}"`,
        })
        .where(and(eq(contacts.id, contact.id), eq(contacts.status, 'unsubscribed')));
    }
    const [consent] = await tx
      .insert(subscriptionConsents)
      .values({
        accountId: list.accountId,
        listId: list.id,
        contactId: contact.id,
        formId: `${list.id}:${input.form}`,
        consentText: text,
        ip: input.ip,
        userAgent: input.userAgent?.slice(0, 500) ?? null,
        optIn: needsConfirmation ? 'double' : 'single',
        confirmedAt: needsConfirmation ? null : now,
      })
      .returning({ id: subscriptionConsents.id });
    return consent?.id as string;
  });

  if (!needsConfirmation) return { outcome: 'subscribed' };
  const token = signToken(secret, SUBSCRIBE_TOKEN_PURPOSE, consentId, SUBSCRIBE_TOKEN_TTL_SECONDS);
  const link = `${publicUrl}/s/confirm?token=${encodeURIComponent(token)}`;
  await mailer.send({
    to: email,
    subject: `Confirme sua inscrição na lista "${list.name}"`,
    text:
      `Olá${name ? `, ${name}` : ''}!\n\nRecebemos um pedido para inscrever este endereço na lista "${list.name}" de ` +
      `${list.senderName}. Para confirmar, abra o link abaixo (válido por 7 dias):\n\n${link}\n\n` +
      'Se não foi você, ignore esta mensagem: sem a confirmação, nada será enviado.\n',
    html:
      `<p>Olá${name ? `, ${escapeHtml(name)}` : ''}!</p><p>Recebemos um pedido para inscrever este endereço na lista ` +
      `<strong>${escapeHtml(list.name)}</strong> de ${escapeHtml(list.senderName)}.</p>` +
      `<p><a href="${escapeHtml(link)}">Confirmar minha inscrição</a> (link válido por 7 dias)</p>` +
      '<p>Se não foi você, ignore esta mensagem: sem a confirmação, nada será enviado.</p>',
  });
  return { outcome: 'confirmation_sent' };
}

/**
 * Follows a double opt-in link: the membership becomes subscribed, the evidence gets its confirmation time
 * and the contact its consent (a suppression the person lifted by confirming is removed). Null when the token
 * is forged, expired or its submission no longer exists (contact erased).
 */
export async function confirmSubscription(
  db: Db,
  secret: string,
  token: unknown,
  ip: string | null,
): Promise<{ listName: string } | null> {
  const consentId = verifyToken(secret, SUBSCRIBE_TOKEN_PURPOSE, token);
  if (!consentId) return null;
  return db.transaction(async (tx) => {
    const [consent] = await tx.select().from(subscriptionConsents).where(eq(subscriptionConsents.id, consentId));
    if (!consent) return null;
    const [list] = await tx.select({ name: lists.name }).from(lists).where(eq(lists.id, consent.listId));
    if (!list) return null;
    const now = new Date();
    if (!consent.confirmedAt) {
      await tx.update(subscriptionConsents).set({ confirmedAt: now }).where(eq(subscriptionConsents.id, consentId));
      await tx
        .update(listMemberships)
        .set({ status: 'subscribed' })
        .where(and(eq(listMemberships.listId, consent.listId), eq(listMemberships.contactId, consent.contactId)));
      const [contact] = await tx
        .update(contacts)
        .set({
          status: sql`case when ${contacts.status} = 'unsubscribed' then 'subscribed' else ${contacts.status} end`,
          legalBasis: 'consent',
          consentAt: now,
          consentIp: ip ?? consent.ip,
          consentText: consent.consentText,
          updatedAt: now,
        })
        .where(eq(contacts.id, consent.contactId))
        .returning({ email: contacts.email });
      if (contact) {
        // The mailbox owner confirmed: an unsubscribe (theirs or the sender's) and their erasure request give way
        // to this new consent. Suppressions the person did not cause by choice (bounced, complained) and the
        // sender's manual entries stay.
        await tx
          .delete(suppressions)
          .where(
            and(
              eq(suppressions.accountId, consent.accountId),
              eq(suppressions.emailHash, hashEmail(contact.email)),
              inArray(suppressions.reason, ['erased', 'unsubscribed']),
            ),
          );
      }
    }
    return { listName: list.name };
  });
}
