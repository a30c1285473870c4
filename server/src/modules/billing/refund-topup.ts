import { formatBRL } from '@carteiro/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { findBillingAccount } from '../accounts/account-balance';
import { topupRefunds, topups } from './billing.db';
import { appendLedgerEntry, insufficientBalanceMessage } from './ledger';
import type { PaymentProvider, RefundResult } from './payments/payment-provider';
import { ProviderError } from './payments/payment-provider';
import type { PaymentProviders } from './payments/providers';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

export type TopupRefund = typeof topupRefunds.$inferSelect;

/** `[A-Za-z0-9]{32}` from the refund's uuid: the devolução id / idempotency key sent to the provider. */
function refundCodeOf(requestKey: string): string {
  return `D${requestKey.replace(/-/g, '')}`.slice(0, 33);
}

/**
 * Records a provider's answer to a refund once: done/processing keep the debit; failed gives the amount back
 * (an 'adjustment' entry, unique per refund) and frees it on the top-up. A refund already settled is left alone.
 */
export async function settleRefundResult(db: Db, refundId: string, result: RefundResult): Promise<TopupRefund> {
  return db.transaction(async (tx) => {
    const [refund] = await tx.select().from(topupRefunds).where(eq(topupRefunds.id, refundId)).for('update');
    if (!refund) throw new Error(`refund ${refundId} vanished`);
    if (refund.status !== 'processing') return refund;
    if (result.status === 'failed') {
      const entry = await appendLedgerEntry(tx, {
        accountId: refund.accountId,
        amountMillis: refund.amountMillis,
        kind: 'adjustment',
        topupId: refund.topupId,
        refundId: refund.id,
        operatorUserId: refund.operatorUserId,
        description: `Devolução não realizada pelo provedor: ${formatBRL(refund.amountMillis)} de volta ao saldo`,
      });
      if (!entry) throw new Error('a credit cannot fail the balance check');
      await tx
        .update(topups)
        .set({ refundedMillis: sql`${topups.refundedMillis} - ${refund.amountMillis}` })
        .where(eq(topups.id, refund.topupId));
    }
    const [updated] = await tx
      .update(topupRefunds)
      .set({
        status: result.status,
        providerRefundId: result.providerRefundId ?? refund.providerRefundId,
        failureReason: result.status === 'failed' ? (result.failureReason ?? 'recusada pelo provedor') : null,
        updatedAt: new Date(),
      })
      .where(and(eq(topupRefunds.id, refund.id), eq(topupRefunds.status, 'processing')))
      .returning();
    return updated ?? refund;
  });
}

/**
 * The operator refunds a paid top-up, whole or in part, through the provider that received it. The debit is
 * written first, with the refund row and the audit entry, in one transaction under the top-up lock: never more
 * than what is left of the top-up nor more than the account's balance (409 insufficient_balance); a repeated
 * request (same requestKey) answers the first refund. Then the provider that charged the top-up is asked; a
 * refusal gives the amount back, no answer leaves it processing for the reconciliation to ask again with the same id.
 */
export async function refundTopup(
  db: Db,
  providers: Pick<PaymentProviders, 'pixApi' | 'mercadoPago'>,
  input: { topupId: string; amountMillis: number; reason: string; requestKey: string; operator: OperatorRef },
): Promise<{ refund: TopupRefund; created: boolean }> {
  const first = await db.transaction(async (tx) => {
    const [topup] = await tx.select().from(topups).where(eq(topups.id, input.topupId)).for('update');
    if (!topup) throw notFound('topup');
    // Under the top-up lock: a concurrent request with the same key waits here, then finds the first refund.
    const [existing] = await tx.select().from(topupRefunds).where(eq(topupRefunds.requestKey, input.requestKey));
    if (existing) {
      if (existing.topupId !== input.topupId) throw new AppError('conflict', ERROR_TEXT.billing.refundKeyReused);
      return { refund: existing, created: false };
    }
    if (topup.status !== 'paid') throw new AppError('conflict', ERROR_TEXT.billing.refundOnlyPaid);
    if (!topup.chargeProvider || !topup.providerPaymentId) {
      throw new AppError(
        'conflict',
        'Esta recarga não foi paga por um provedor integrado: devolva o Pix pelo banco e registre um débito manual.',
      );
    }
    const provider: PaymentProvider | null =
      topup.chargeProvider === 'pix-api'
        ? providers.pixApi
        : topup.chargeProvider === 'mercadopago'
          ? providers.mercadoPago
          : null;
    if (!provider || provider.name !== topup.chargeProvider) {
      throw new AppError('service_unavailable', ERROR_TEXT.billing.providerNotConfigured);
    }
    const left = topup.amountMillis - topup.refundedMillis;
    if (!Number.isSafeInteger(input.amountMillis) || input.amountMillis <= 0 || input.amountMillis % 10 !== 0) {
      throw new AppError('validation_failed', ERROR_TEXT.billing.refundWholeCents);
    }
    if (input.amountMillis > left) {
      throw new AppError('validation_failed', `O valor máximo a devolver desta recarga é ${formatBRL(left)}.`);
    }
    const [refund] = await tx
      .insert(topupRefunds)
      .values({
        topupId: topup.id,
        accountId: topup.accountId,
        requestKey: input.requestKey,
        refundCode: refundCodeOf(input.requestKey),
        amountMillis: input.amountMillis,
        reason: input.reason,
        operatorUserId: input.operator.userId,
      })
      .returning();
    if (!refund) throw new Error('refund insert returned nothing');
    const entry = await appendLedgerEntry(tx, {
      accountId: topup.accountId,
      amountMillis: -input.amountMillis,
      kind: 'refund',
      topupId: topup.id,
      refundId: refund.id,
      operatorUserId: input.operator.userId,
      description: `Devolução da recarga via Pix (${topup.txid}): ${formatBRL(input.amountMillis)}`,
    });
    if (!entry) {
      const account = await findBillingAccount(tx, topup.accountId);
      const balance = account?.balanceMillis ?? 0;
      throw new AppError(
        'insufficient_balance',
        insufficientBalanceMessage(input.amountMillis - balance, 'para devolver este valor (o saldo já foi usado)'),
        { missingMillis: input.amountMillis - balance },
      );
    }
    await tx
      .update(topups)
      .set({ refundedMillis: sql`${topups.refundedMillis} + ${input.amountMillis}` })
      .where(eq(topups.id, topup.id));
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'topup.refund',
      accountId: topup.accountId,
      targetId: topup.id,
      reason: input.reason,
      details: { amountMillis: input.amountMillis, refundId: refund.id, txid: topup.txid },
    });
    return { refund, created: true, topup, provider };
  });
  const { topup, provider } = first;
  if (!topup || !provider) return { refund: first.refund, created: first.created };
  try {
    const result = await provider.refund({
      chargeId: topup.providerChargeId ?? topup.txid,
      paymentId: topup.providerPaymentId ?? '',
      refundCode: first.refund.refundCode,
      amountMillis: first.refund.amountMillis,
      description: input.reason,
    });
    return { refund: await settleRefundResult(db, first.refund.id, result), created: true };
  } catch (error) {
    if (error instanceof ProviderError) return { refund: first.refund, created: true };
    throw error;
  }
}
