import { formatBRL } from '@carteiro/shared';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import type { Tx } from '../accounts/account-balance';
import { emitWebhookEvent } from '../webhooks/emit-event';
import { topups } from './billing.db';
import { appendLedgerEntry } from './ledger';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

export type Topup = typeof topups.$inferSelect;

/** A payment as a provider reports it, after its webhook was verified. */
export interface ProviderPayment {
  provider: string;
  paymentId: string;
  /** Our txid, when the provider echoes it. */
  txid?: string | null;
  amountMillis: number;
  currency: string;
  /** Provider status normalised: only 'approved' can credit. */
  status: 'approved' | 'pending' | 'rejected' | 'refunded' | 'cancelled' | 'unknown';
}

export type PaymentOutcome =
  | { outcome: 'credited'; topup: Topup }
  | { outcome: 'duplicate'; topup: Topup }
  | { outcome: 'review'; topup: Topup; reason: string }
  | { outcome: 'ignored'; topup: Topup | null; reason: string }
  | { outcome: 'unmatched'; reason: string };

/** Credits a locked pending top-up: ledger 'topup' entry + status paid, in the caller's transaction. */
async function creditLockedTopup(
  tx: Tx,
  topup: Topup,
  fields: { provider: string; providerPaymentId: string | null; confirmedByUserId?: string | null; now: Date },
): Promise<Topup> {
  const entry = await appendLedgerEntry(tx, {
    accountId: topup.accountId,
    amountMillis: topup.amountMillis,
    kind: 'topup',
    topupId: topup.id,
    operatorUserId: fields.confirmedByUserId ?? null,
    description: `Recarga via Pix (${topup.txid}) de ${formatBRL(topup.amountMillis)}`,
  });
  if (!entry) throw new Error('a credit cannot fail the balance check');
  // Outbound webhook, in the credit's transaction.
  await emitWebhookEvent(tx, topup.accountId, 'topup.credited', {
    topupId: topup.id,
    amountMillis: topup.amountMillis,
    balanceMillis: entry.balanceAfterMillis,
  });
  const [updated] = await tx
    .update(topups)
    .set({
      status: 'paid',
      paidAt: fields.now,
      provider: fields.provider,
      providerPaymentId: fields.providerPaymentId ?? topup.providerPaymentId,
      confirmedByUserId: fields.confirmedByUserId ?? null,
    })
    .where(eq(topups.id, topup.id))
    .returning();
  if (!updated) throw new Error('top-up vanished under its lock');
  return updated;
}

/**
 * Applies a verified provider payment to its top-up, exactly once per payment id: credits when amount, currency
 * and status match a pending, unexpired top-up; otherwise puts the top-up in 'review' (never a silent credit).
 * Repeats of the same payment answer 'duplicate'. Safe under concurrent deliveries (top-up row lock + unique ids).
 */
export async function applyProviderPayment(
  db: Db,
  payment: ProviderPayment,
  now = new Date(),
): Promise<PaymentOutcome> {
  return db.transaction(async (tx) => {
    const [already] = await tx
      .select()
      .from(topups)
      .where(eq(topups.providerPaymentId, payment.paymentId))
      .for('update');
    if (already) return { outcome: 'duplicate', topup: already };
    if (!payment.txid) return { outcome: 'unmatched', reason: 'pagamento sem txid' };

    const [topup] = await tx.select().from(topups).where(eq(topups.txid, payment.txid)).for('update');
    if (!topup) return { outcome: 'unmatched', reason: `nenhuma recarga com txid ${payment.txid}` };
    // Re-read under the lock: a concurrent delivery of this same payment may have just committed.
    if (topup.providerPaymentId === payment.paymentId) return { outcome: 'duplicate', topup };
    if (payment.status !== 'approved') {
      return { outcome: 'ignored', topup, reason: `pagamento com status ${payment.status}` };
    }

    const report = { amountMillis: payment.amountMillis, currency: payment.currency, status: payment.status };
    let reason: string | null = null;
    if (payment.currency !== 'BRL') reason = `Moeda ${payment.currency} em vez de BRL.`;
    else if (payment.amountMillis !== topup.amountMillis) {
      reason = `Valor pago ${formatBRL(payment.amountMillis)} diferente do valor da recarga ${formatBRL(topup.amountMillis)}.`;
    } else if (topup.status === 'paid') reason = 'Recarga já paga por outro pagamento.';
    else if (topup.status === 'cancelled') reason = 'Pagamento de uma recarga cancelada.';
    else if (topup.status === 'review') reason = 'Recarga já estava em revisão.';
    else if (!topup.chargeProvider && (topup.status === 'expired' || topup.expiresAt.getTime() < now.getTime())) {
      // A static BR Code has no expiry at the payer's bank: a late transfer is the operator's call. A dynamic
      // charge's expiry is enforced by the provider, so a payment it reports was accepted in time: credit it.
      reason = 'Pagamento recebido depois do vencimento da recarga.';
    }

    if (reason) {
      if (topup.status === 'paid' || topup.providerPaymentId) {
        // The row already carries another payment: leave it; the operator sees this in the logs and the provider.
        return { outcome: 'review', topup, reason };
      }
      const [updated] = await tx
        .update(topups)
        .set({
          status: 'review',
          reviewReason: reason,
          provider: payment.provider,
          providerPaymentId: payment.paymentId,
          providerReport: report,
        })
        .where(eq(topups.id, topup.id))
        .returning();
      return { outcome: 'review', topup: updated ?? topup, reason };
    }

    await tx.update(topups).set({ providerReport: report }).where(eq(topups.id, topup.id));
    const credited = await creditLockedTopup(tx, topup, {
      provider: payment.provider,
      providerPaymentId: payment.paymentId,
      now,
    });
    return { outcome: 'credited', topup: credited };
  });
}

/**
 * Operator confirms a top-up by hand (pending, expired or in review): credits its amount once and audits it.
 * Throws not_found, or conflict when it was already paid or cancelled.
 */
export async function confirmTopupManually(
  db: Db,
  input: { topupId: string; operator: OperatorRef; reason?: string | null },
  now = new Date(),
): Promise<Topup> {
  return db.transaction(async (tx) => {
    const [topup] = await tx.select().from(topups).where(eq(topups.id, input.topupId)).for('update');
    if (!topup) throw notFound('topup');
    if (topup.status === 'paid') throw new AppError('conflict', ERROR_TEXT.billing.topupCredited);
    if (topup.status === 'cancelled') throw new AppError('conflict', ERROR_TEXT.billing.topupCancelled);
    const credited = await creditLockedTopup(tx, topup, {
      provider: topup.provider ?? 'manual',
      providerPaymentId: topup.providerPaymentId,
      confirmedByUserId: input.operator.userId,
      now,
    });
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'topup.confirm',
      accountId: topup.accountId,
      targetId: topup.id,
      reason: input.reason ?? null,
      details: { amountMillis: topup.amountMillis, previousStatus: topup.status, txid: topup.txid },
    });
    return credited;
  });
}
