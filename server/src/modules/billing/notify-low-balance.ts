import { emailsPaidBy, formatBRL } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { authUsers } from '../auth/auth.db';
import { lowBalanceAlerts } from './billing.db';
import type { LedgerEntry } from './ledger';

/** True when this entry took the balance from at or above the threshold to below it (a crossing, not a stay). */
export function crossesLowBalance(
  entry: Pick<LedgerEntry, 'amountMillis' | 'balanceAfterMillis'>,
  thresholdMillis: number,
) {
  const before = entry.balanceAfterMillis - entry.amountMillis;
  return thresholdMillis > 0 && before >= thresholdMillis && entry.balanceAfterMillis < thresholdMillis;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * E-mails the account owner once when `entry` crossed the low-balance threshold (recorded in low_balance_alerts
 * before sending, so a retry never sends twice). Returns whether a warning was sent. Call after a debit commits.
 */
export async function notifyLowBalanceIfCrossed(
  deps: { db: Db; mailer: Mailer; thresholdMillis: number; publicUrl: string },
  entry: LedgerEntry,
): Promise<boolean> {
  if (!crossesLowBalance(entry, deps.thresholdMillis)) return false;
  const inserted = await deps.db
    .insert(lowBalanceAlerts)
    .values({ ledgerEntryId: entry.id, accountId: entry.accountId, thresholdMillis: deps.thresholdMillis })
    .onConflictDoNothing()
    .returning();
  if (inserted.length === 0) return false;
  // The owner's address lives in the auth module's users table; read-only here.
  const [owner] = await deps.db
    .select({ email: authUsers.email, name: authUsers.name, accountName: accounts.name, price: accounts.priceMillis })
    .from(accounts)
    .innerJoin(authUsers, eq(authUsers.id, accounts.ownerUserId))
    .where(eq(accounts.id, entry.accountId));
  if (!owner) return false;
  const balance = formatBRL(entry.balanceAfterMillis);
  const emails = emailsPaidBy(entry.balanceAfterMillis, owner.price).toLocaleString('pt-BR');
  const url = `${deps.publicUrl}/dashboard/my-balance`;
  await deps.mailer.send({
    to: owner.email,
    subject: `Seu saldo no Carteiro está baixo: ${balance}`,
    text: `Olá, ${owner.name}.\n\nO saldo da conta "${owner.accountName}" ficou abaixo de ${formatBRL(deps.thresholdMillis)}: agora é ${balance} (paga ${emails} e-mails).\n\nAdicione créditos por Pix em ${url} para não interromper seus envios.\n\nEquipe Carteiro`,
    html: `<p>Olá, ${escapeHtml(owner.name)}.</p><p>O saldo da conta <strong>${escapeHtml(owner.accountName)}</strong> ficou abaixo de ${escapeHtml(formatBRL(deps.thresholdMillis))}: agora é <strong>${escapeHtml(balance)}</strong> (paga ${escapeHtml(emails)} e-mails).</p><p><a href="${escapeHtml(url)}">Adicione créditos por Pix</a> para não interromper seus envios.</p><p>Equipe Carteiro</p>`,
  });
  return true;
}
