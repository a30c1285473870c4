import { normaliseEmail } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { hashEmail } from '../contacts/email-hash';
import { eraseContact } from '../contacts/erase-contact';
import { findContactsHoldingEmail } from '../contacts/find-contacts';
import { deleteImportFilesMentioning } from '../imports/import-file-store';
import { escapeHtml } from '../subscriptions/public-page';
import { signToken, verifyToken } from '../subscriptions/signed-token';
import { exportContactData } from './export-contact-data';
import { privacyRequests } from './privacy-requests.db';

export const PRIVACY_TOKEN_PURPOSE = 'privacy-request';
export const PRIVACY_TOKEN_TTL_SECONDS = 24 * 3600;
export type PrivacyRequestKind = 'access' | 'deletion';

const KIND_LABEL: Record<PrivacyRequestKind, string> = {
  access: 'acesso aos seus dados (cópia por e-mail)',
  deletion: 'exclusão dos seus dados',
};

/**
 * Records a request and e-mails the confirmation link to the address — always, whether or not any account
 * holds it, so the page never reveals who is a contact of whom. Null for an invalid address.
 */
export async function createPrivacyRequest(
  db: Db,
  mailer: Mailer,
  publicUrl: string,
  secret: string,
  input: { email: string; kind: PrivacyRequestKind; ip: string | null },
): Promise<{ id: string } | null> {
  const email = normaliseEmail(input.email);
  if (!email) return null;
  const [row] = await db
    .insert(privacyRequests)
    .values({ kind: input.kind, email, emailHash: hashEmail(email), requestIp: input.ip })
    .returning({ id: privacyRequests.id });
  if (!row) throw new Error('privacy request insert returned nothing');
  const token = signToken(secret, PRIVACY_TOKEN_PURPOSE, row.id, PRIVACY_TOKEN_TTL_SECONDS);
  const link = `${publicUrl}/privacidade/confirmar?token=${encodeURIComponent(token)}`;
  await mailer.send({
    to: email,
    subject: 'Confirme seu pedido de privacidade (LGPD)',
    text:
      `Recebemos um pedido de ${KIND_LABEL[input.kind]} para este endereço, feito na página de privacidade do Carteiro.\n\n` +
      `Para confirmar, abra o link abaixo (válido por 24 horas):\n\n${link}\n\n` +
      'Se não foi você, ignore esta mensagem: nada será feito sem a confirmação.\n',
    html:
      `<p>Recebemos um pedido de <strong>${escapeHtml(KIND_LABEL[input.kind])}</strong> para este endereço, feito na página de privacidade do Carteiro.</p>` +
      `<p><a href="${escapeHtml(link)}">Confirmar o pedido</a> (link válido por 24 horas)</p>` +
      '<p>Se não foi você, ignore esta mensagem: nada será feito sem a confirmação.</p>',
  });
  return row;
}

/** The pending request a token points at; null when forged, expired, unknown or already handled. */
export async function findPendingRequest(db: Db, secret: string, token: unknown) {
  const id = verifyToken(secret, PRIVACY_TOKEN_PURPOSE, token);
  if (!id) return null;
  const [row] = await db.select().from(privacyRequests).where(eq(privacyRequests.id, id));
  if (row?.status !== 'pending' || !row.email) return null;
  return row;
}

/**
 * Carries out a confirmed request. Access: e-mails the person everything each account holds about them (one
 * JSON document per account, inline — contact, lists, consent evidence). Deletion: erases the contact from
 * every account (erase-contact: only the suppression hash stays), tells the person, and clears the address from
 * the request (the hash remains for the audit trail).
 */
export async function executePrivacyRequest(
  db: Db,
  mailer: Mailer,
  secret: string,
  token: unknown,
  ip: string | null,
): Promise<{ kind: PrivacyRequestKind; accounts: number } | null> {
  const request = await findPendingRequest(db, secret, token);
  if (!request?.email) return null;
  const email = request.email;
  const now = new Date();
  // Claim the request first so a double click does not run it twice.
  const claimed = await db
    .update(privacyRequests)
    .set({ confirmedAt: now, confirmIp: ip, status: 'done' })
    .where(eq(privacyRequests.id, request.id))
    .returning({ id: privacyRequests.id });
  if (claimed.length === 0) return null;
  const held = await findContactsHoldingEmail(db, email);
  try {
    if (request.kind === 'access') {
      const documents = [];
      for (const contact of held) {
        const data = await exportContactData(db, contact.accountId, contact.id);
        documents.push({ controller: contact.accountName, ...data });
      }
      const json = JSON.stringify({ requestedAt: request.createdAt, email, accounts: documents }, null, 2);
      const summary = held.length
        ? `Encontramos seus dados em ${held.length} conta(s) de remetentes que usam o Carteiro: ${held.map((h) => h.accountName).join(', ')}.`
        : 'Nenhuma conta do Carteiro guarda dados deste endereço.';
      await mailer.send({
        to: email,
        subject: 'Seus dados no Carteiro (LGPD)',
        text: `${summary}\n\nA cópia completa, em JSON, segue abaixo.\n\n${json}\n`,
        html: `<p>${escapeHtml(summary)}</p><p>A cópia completa, em JSON, segue abaixo.</p><pre>${escapeHtml(json)}</pre>`,
      });
    } else {
      for (const contact of held) await eraseContact(db, contact.accountId, contact.id, deleteImportFilesMentioning);
      await mailer.send({
        to: email,
        subject: 'Seus dados foram apagados (LGPD)',
        text:
          `Pronto: apagamos seus dados de ${held.length} conta(s) do Carteiro. Guardamos apenas um código irreversível ` +
          '(hash) do seu endereço, para que ele não volte a receber e-mails dessas contas por importação.\n',
        html:
          `<p>Pronto: apagamos seus dados de ${held.length} conta(s) do Carteiro.</p><p>Guardamos apenas um código ` +
          'irreversível (hash) do seu endereço, para que ele não volte a receber e-mails dessas contas por importação.</p>',
      });
    }
    await db
      .update(privacyRequests)
      .set({
        completedAt: new Date(),
        email: request.kind === 'deletion' ? null : email,
        result: { accounts: held.map((h) => h.accountId), contacts: held.length },
      })
      .where(eq(privacyRequests.id, request.id));
  } catch (error) {
    await db
      .update(privacyRequests)
      .set({ status: 'failed', result: { error: error instanceof Error ? error.message : String(error) } })
      .where(eq(privacyRequests.id, request.id));
    throw error;
  }
  return { kind: request.kind, accounts: held.length };
}
