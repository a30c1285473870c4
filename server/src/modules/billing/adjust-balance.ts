import { formatBRL, MAX_BALANCE_MILLIS } from '@carteiro/shared';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { lockBillingAccount } from '../accounts/account-balance';
import { appendLedgerEntry, insufficientBalanceMessage, type LedgerEntry } from './ledger';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

export interface AdjustBalanceInput {
  accountId: string;
  /** Signed: positive credits, negative debits. Never zero. */
  amountMillis: number;
  /** Mandatory, shown in the statement and the audit log. */
  reason: string;
  operator: OperatorRef;
}

/**
 * Operator credit or debit with a mandatory reason: one 'adjustment' ledger entry plus its audit-log row, in one
 * transaction. Throws validation_failed (no reason / zero amount), not_found, or insufficient_balance.
 */
export async function adjustBalanceByOperator(db: Db, input: AdjustBalanceInput): Promise<LedgerEntry> {
  const reason = input.reason.trim();
  if (reason.length < 3) throw new AppError('validation_failed', ERROR_TEXT.billing.adjustReason);
  if (!Number.isSafeInteger(input.amountMillis) || input.amountMillis === 0) {
    throw new AppError(
      'validation_failed',
      'O valor do ajuste deve ser um inteiro diferente de zero, em milésimos de real.',
    );
  }
  return db.transaction(async (tx) => {
    const account = await lockBillingAccount(tx, input.accountId);
    if (!account) throw notFound('account');
    const credit = input.amountMillis > 0;
    if (credit && account.balanceMillis + input.amountMillis > MAX_BALANCE_MILLIS) {
      throw new AppError(
        'validation_failed',
        'Com este crédito o saldo passaria de R$ 1.000.000.000,00, o máximo que uma conta pode ter.',
        { fields: [{ path: 'amountMillis', message: 'O saldo passaria do máximo de uma conta.' }] },
      );
    }
    const entry = await appendLedgerEntry(tx, {
      accountId: account.id,
      amountMillis: input.amountMillis,
      kind: 'adjustment',
      operatorUserId: input.operator.userId,
      description: `${credit ? 'Crédito' : 'Débito'} manual: ${reason}`,
    });
    if (!entry) {
      const missing = -input.amountMillis - account.balanceMillis;
      throw new AppError('insufficient_balance', insufficientBalanceMessage(missing, 'para debitar este valor'), {
        missingMillis: missing,
      });
    }
    await recordAdminAction(tx, {
      operator: input.operator,
      action: credit ? 'balance.credit' : 'balance.debit',
      accountId: account.id,
      targetId: entry.id,
      reason,
      details: { amountMillis: input.amountMillis, formatted: formatBRL(input.amountMillis) },
    });
    return entry;
  });
}
