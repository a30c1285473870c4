import { randomBytes } from 'node:crypto';
import type { SenderAddressDto } from '@carteiro/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import type { Mailer } from '../../mail/mailer';
import { findAccount } from '../accounts/accounts.service';
import { MAX_ADDRESSES, type SenderIdentitySettings, sha256 } from './sender-identities';
import { senderAddresses } from './sender-identities.db';

/** Sender addresses: adding one mails a single-use confirmation link; a confirmed address may be a From. */

/**
 * Adds (or re-sends the link of) a sender address and mails a single-use confirmation link to it. The adding
 * user's own login e-mail, once verified, is confirmed at once: the sign-up link already proved they read that
 * mailbox, and a second link to it proves nothing more.
 */
export async function addSenderAddress(
  db: Db,
  mailer: Mailer,
  settings: SenderIdentitySettings,
  accountId: string,
  email: string,
  verifiedLoginEmail: string | null = null,
  now: Date = new Date(),
): Promise<SenderAddressDto> {
  const [existing] = await db
    .select()
    .from(senderAddresses)
    .where(and(eq(senderAddresses.accountId, accountId), eq(senderAddresses.email, email)));
  if (existing?.confirmedAt) throw new AppError('conflict', ERROR_TEXT.senders.addressConfirmed);
  if (verifiedLoginEmail !== null && verifiedLoginEmail.trim().toLowerCase() === email) {
    await assertAddressRoom(db, accountId, existing !== undefined);
    const [row] = await db
      .insert(senderAddresses)
      .values({ accountId, email, confirmedAt: new Date() })
      .onConflictDoUpdate({
        target: [senderAddresses.accountId, senderAddresses.email],
        set: { confirmedAt: new Date(), tokenHash: null, tokenExpiresAt: null },
      })
      .returning();
    if (!row) throw new Error('sender address upsert returned nothing');
    return addressDto(row);
  }
  // One link a minute per address (the row is the rate limit): adding again re-sends, never floods a mailbox.
  const issuedAt = existing?.tokenExpiresAt ? existing.tokenExpiresAt.getTime() - settings.confirmHours * 3600_000 : 0;
  if (now.getTime() - issuedAt < 60_000) {
    throw new AppError(
      'too_many_requests',
      'Já enviamos um link para este endereço há menos de um minuto. Confira a caixa de entrada.',
    );
  }
  await assertAddressRoom(db, accountId, existing !== undefined);
  const token = randomBytes(24).toString('base64url');
  const expiresAt = new Date(now.getTime() + settings.confirmHours * 3600_000);
  const [row] = await db
    .insert(senderAddresses)
    .values({ accountId, email, tokenHash: sha256(token), tokenExpiresAt: expiresAt })
    .onConflictDoUpdate({
      target: [senderAddresses.accountId, senderAddresses.email],
      set: { tokenHash: sha256(token), tokenExpiresAt: expiresAt },
    })
    .returning();
  if (!row) throw new Error('sender address upsert returned nothing');
  const account = await findAccount(db, accountId);
  const link = `${settings.publicUrl}/confirm-sender/${token}`;
  const accountName = account?.name ?? 'uma conta';
  await mailer.send({
    to: email,
    subject: 'Confirme este endereço como remetente no Carteiro',
    text:
      `A conta "${accountName}" quer enviar e-mails em nome de ${email} pelo Carteiro.\n\n` +
      `Se foi você, confirme abrindo o link abaixo (vale por ${settings.confirmHours} horas e só pode ser usado uma vez):\n${link}\n\n` +
      'Se não foi você, ignore esta mensagem: nada será enviado em seu nome.',
    html:
      `<p>A conta <strong>${escapeHtml(accountName)}</strong> quer enviar e-mails em nome de <strong>${escapeHtml(email)}</strong> pelo Carteiro.</p>` +
      `<p>Se foi você, <a href="${link}">confirme este endereço</a> (o link vale por ${settings.confirmHours} horas e só pode ser usado uma vez).</p>` +
      '<p>Se não foi você, ignore esta mensagem: nada será enviado em seu nome.</p>',
  });
  return addressDto(row);
}

/** A new address must fit under the account's limit (an existing row is re-used, not counted again). */
async function assertAddressRoom(db: Db, accountId: string, exists: boolean): Promise<void> {
  if (exists) return;
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(senderAddresses)
    .where(eq(senderAddresses.accountId, accountId));
  if (Number(n) >= MAX_ADDRESSES) {
    throw new AppError('validation_failed', `No máximo ${MAX_ADDRESSES} endereços de remetente por conta.`);
  }
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Confirms the address a link names: single use (the token is cleared), refused once expired. */
export async function confirmSenderAddress(db: Db, token: string, now: Date = new Date()): Promise<{ email: string }> {
  const [row] = await db
    .select()
    .from(senderAddresses)
    .where(eq(senderAddresses.tokenHash, sha256(token)));
  if (!row) throw new AppError('invalid-action-code', 'Este link de confirmação é inválido ou já foi usado.');
  if (!row.tokenExpiresAt || row.tokenExpiresAt.getTime() < now.getTime()) {
    throw new AppError(
      'expired-action-code',
      'Este link de confirmação expirou. Peça um novo em Configurações → Remetentes e domínios.',
    );
  }
  const [confirmed] = await db
    .update(senderAddresses)
    .set({ confirmedAt: new Date(), tokenHash: null, tokenExpiresAt: null })
    .where(and(eq(senderAddresses.id, row.id), eq(senderAddresses.tokenHash, sha256(token))))
    .returning();
  if (!confirmed) throw new AppError('invalid-action-code', 'Este link de confirmação é inválido ou já foi usado.');
  return { email: confirmed.email };
}

export async function deleteSenderAddress(db: Db, accountId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(senderAddresses)
    .where(and(eq(senderAddresses.id, id), eq(senderAddresses.accountId, accountId)))
    .returning({ id: senderAddresses.id });
  if (deleted.length === 0) throw notFound('sender');
}

export function addressDto(row: typeof senderAddresses.$inferSelect): SenderAddressDto {
  return {
    id: row.id,
    email: row.email,
    status: row.confirmedAt ? 'confirmed' : 'pending',
    createdAt: row.createdAt.toISOString(),
  };
}
