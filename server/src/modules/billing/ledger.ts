import { formatBRL } from '@carteiro/shared';
import { adjustAccountBalance, type Tx } from '../accounts/account-balance';
import { type LedgerEntryKind, ledgerEntries } from './billing.db';

export type LedgerEntry = typeof ledgerEntries.$inferSelect;

export interface NewLedgerEntry {
  accountId: string;
  amountMillis: number;
  kind: LedgerEntryKind;
  description: string;
  campaignId?: string | null;
  topupId?: string | null;
  refundId?: string | null;
  operatorUserId?: string | null;
  emailCount?: number | null;
  priceMillis?: number | null;
}

/**
 * Applies the entry's amount to the account balance and appends the entry with the resulting balance, in the
 * caller's transaction. Returns null (and writes nothing) when a debit would take the balance below zero.
 */
export async function appendLedgerEntry(tx: Tx, entry: NewLedgerEntry): Promise<LedgerEntry | null> {
  const balanceAfter = await adjustAccountBalance(tx, entry.accountId, entry.amountMillis);
  if (balanceAfter === null) return null;
  const [row] = await tx
    .insert(ledgerEntries)
    .values({ ...entry, balanceAfterMillis: balanceAfter })
    .returning();
  if (!row) throw new Error('ledger insert returned nothing');
  return row;
}

/** "Saldo insuficiente: faltam R$ 12,345 para enviar esta campanha." */
export function insufficientBalanceMessage(missingMillis: number, purpose: string): string {
  return `Saldo insuficiente: faltam ${formatBRL(missingMillis)} ${purpose}.`;
}

/** True when `error` is a PostgreSQL unique violation (SQLSTATE 23505), on pg and PGlite alike. */
export function isUniqueViolation(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    if ((current as { code?: unknown }).code === '23505') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
