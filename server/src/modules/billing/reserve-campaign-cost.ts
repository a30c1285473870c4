import { costOfEmailsMillis, formatBRL } from '@carteiro/shared';
import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { lockBillingAccount } from '../accounts/account-balance';
import { ledgerEntries } from './billing.db';
import { appendLedgerEntry, insufficientBalanceMessage, type LedgerEntry } from './ledger';

export interface ReserveForCampaignInput {
  accountId: string;
  campaignId: string;
  /** Recipients the campaign will be sent to (after deduplication and suppression). */
  recipients: number;
  /** Shown in the statement; defaults to a generic pt-BR description. */
  campaignName?: string;
}

export interface CampaignReservation {
  entry: LedgerEntry;
  /** Millis reserved (positive). */
  reservedMillis: number;
  priceMillis: number;
  /** False when the campaign already had a reservation (idempotent repeat). */
  created: boolean;
}

/**
 * Reserves recipients × the account's price (negotiated or default) for a campaign, once per campaign (a repeat
 * returns the existing reservation); throws AppError insufficient_balance naming the missing amount, or
 * account_suspended.
 */
export async function reserveForCampaign(db: Db, input: ReserveForCampaignInput): Promise<CampaignReservation> {
  if (!Number.isSafeInteger(input.recipients) || input.recipients < 0) {
    throw new AppError('validation_failed', ERROR_TEXT.billing.recipientCountInvalid);
  }
  return db.transaction(async (tx) => {
    // The account row lock serialises every balance change of this account, so the check below and the
    // debit cannot interleave with another reservation or settlement.
    const account = await lockBillingAccount(tx, input.accountId);
    if (!account) throw notFound('account');

    const [existing] = await tx
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.campaignId, input.campaignId), eq(ledgerEntries.kind, 'reservation')));
    if (existing) {
      if (existing.accountId !== input.accountId) throw new AppError('conflict');
      return {
        entry: existing,
        reservedMillis: -existing.amountMillis,
        priceMillis: existing.priceMillis ?? account.priceMillis,
        created: false,
      };
    }

    if (account.status !== 'active') throw new AppError('account_suspended', undefined);
    const cost = costOfEmailsMillis(input.recipients, account.priceMillis);
    if (cost > account.balanceMillis) {
      const missing = cost - account.balanceMillis;
      throw new AppError('insufficient_balance', insufficientBalanceMessage(missing, 'para enviar esta campanha'), {
        missingMillis: missing,
        costMillis: cost,
        balanceMillis: account.balanceMillis,
      });
    }
    const label = input.campaignName ? `"${input.campaignName}"` : 'da campanha';
    const entry = await appendLedgerEntry(tx, {
      accountId: account.id,
      amountMillis: -cost,
      kind: 'reservation',
      campaignId: input.campaignId,
      emailCount: input.recipients,
      priceMillis: account.priceMillis,
      description: `Reserva para o envio ${label}: ${input.recipients} e-mails × ${formatBRL(account.priceMillis)}`,
    });
    if (!entry) throw new Error('balance changed under the account lock');
    return { entry, reservedMillis: cost, priceMillis: account.priceMillis, created: true };
  });
}
