import { formatBRL, type LedgerEntryDto } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import { adjustAccountBalance, type Tx } from '../accounts/account-balance';
import { type LedgerEntryKind, ledgerEntries } from './billing.db';

export type LedgerEntry = typeof ledgerEntries.$inferSelect;

/** A ledger entry as the API shows it (extrato, an operator's adjustment, the public API's statement). */
export function toLedgerEntryDto(e: LedgerEntry): LedgerEntryDto {
  return {
    id: e.id,
    seq: e.seq,
    kind: e.kind,
    amountMillis: e.amountMillis,
    balanceAfterMillis: e.balanceAfterMillis,
    description: e.description,
    campaignId: e.campaignId,
    topupId: e.topupId,
    emailCount: e.emailCount,
    priceMillis: e.priceMillis,
    createdAt: e.createdAt.toISOString(),
  };
}

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

/**
 * The ledger entry's INSERT as a fragment for a CTE of the caller's statement, next to `adjustAccountBalanceSql`
 * (whose CTE is named `balanceCte`): the entry is written only when that CTE changed the balance (and `onlyIf`
 * holds), with the balance it returned. PostgreSQL wants data-modifying CTEs at the top level, hence two fragments.
 */
export function ledgerEntryFromBalanceSql(entry: NewLedgerEntry, balanceCte: string, onlyIf: SQL = sql`true`): SQL {
  const from = sql.identifier(balanceCte);
  return sql`insert into ${ledgerEntries} (account_id, amount_millis, kind, campaign_id, topup_id, refund_id,
                                      operator_user_id, email_count, price_millis, description, balance_after_millis)
        select ${entry.accountId}::uuid, ${entry.amountMillis}::bigint, ${entry.kind}::text, ${entry.campaignId ?? null}::uuid,
               ${entry.topupId ?? null}::uuid, ${entry.refundId ?? null}::uuid, ${entry.operatorUserId ?? null}::text,
               ${entry.emailCount ?? null}::integer, ${entry.priceMillis ?? null}::integer, ${entry.description}::text,
               ${from}.balance_millis
          from ${from} where (${onlyIf})
        returning balance_after_millis`;
}

/** "Saldo insuficiente: faltam R$ 12,345 para enviar esta campanha." */
export function insufficientBalanceMessage(missingMillis: number, purpose: string): string {
  return `Saldo insuficiente: faltam ${formatBRL(missingMillis)} ${purpose}.`;
}
