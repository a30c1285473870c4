import { and, eq, gt, lt, or } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import type { PeriodicJob } from '../../jobs/periodic-jobs';
import { topupRefunds, topups } from './billing.db';
import { applyProviderPayment, type PaymentOutcome, type ProviderPayment } from './credit-topup';
import type { PaymentProvider } from './payments/payment-provider';
import { ProviderError } from './payments/payment-provider';
import { settleRefundResult } from './refund-topup';

/** How long after its expiry an unpaid dynamic charge is still read from the provider (late settlements). */
export const RECONCILE_GRACE_MS = 24 * 3600_000;

export interface ReconcileReport {
  checked: number;
  credited: number;
  review: number;
  expired: number;
  refundsSettled: number;
  errors: number;
}

/** Applies every payment a provider reported (webhook or reconciliation), each exactly once. */
export async function applyProviderPayments(
  db: Db,
  payments: ProviderPayment[],
  now = new Date(),
): Promise<PaymentOutcome[]> {
  const outcomes: PaymentOutcome[] = [];
  for (const payment of payments) outcomes.push(await applyProviderPayment(db, payment, now));
  return outcomes;
}

/**
 * The reconciliation (webhooks get lost): reads from the provider every dynamic charge still pending, or expired
 * less than a day ago; credits what was paid (late payments included, mismatched amounts to review), marks
 * expired what can no longer be paid, and retries refunds the provider never acknowledged. Idempotent: running
 * it twice, or alongside webhooks, credits nothing twice.
 */
export async function reconcileTopups(
  db: Db,
  provider: PaymentProvider,
  options: { now?: Date; logger?: Pick<Logger, 'warn' | 'info'>; limit?: number } = {},
): Promise<ReconcileReport> {
  const now = options.now ?? new Date();
  const report: ReconcileReport = { checked: 0, credited: 0, review: 0, expired: 0, refundsSettled: 0, errors: 0 };
  const rows = await db
    .select()
    .from(topups)
    .where(
      and(
        eq(topups.chargeProvider, provider.name),
        or(
          eq(topups.status, 'pending'),
          and(eq(topups.status, 'expired'), gt(topups.expiresAt, new Date(now.getTime() - RECONCILE_GRACE_MS))),
        ),
      ),
    )
    .orderBy(topups.createdAt)
    .limit(options.limit ?? 500);
  for (const topup of rows) {
    if (!topup.providerChargeId) continue;
    report.checked++;
    try {
      const state = await provider.readCharge({ chargeId: topup.providerChargeId, txid: topup.txid });
      for (const outcome of await applyProviderPayments(db, state.payments, now)) {
        if (outcome.outcome === 'credited') report.credited++;
        if (outcome.outcome === 'review') {
          report.review++;
          options.logger?.warn({ topupId: topup.id, reason: outcome.reason }, 'payment needs manual review');
        }
      }
      const stillUnpaid = state.payments.length === 0;
      if (stillUnpaid && topup.status === 'pending' && (state.status !== 'active' || topup.expiresAt < now)) {
        const marked = await db
          .update(topups)
          .set({ status: 'expired' })
          .where(and(eq(topups.id, topup.id), eq(topups.status, 'pending')))
          .returning({ id: topups.id });
        report.expired += marked.length;
      }
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      report.errors++;
      options.logger?.warn({ topupId: topup.id, err: error.message }, 'reconciliation could not read a charge');
    }
  }

  // Refunds still processing (provider down when asked, or settling in the SPI): ask again with the same id —
  // idempotent at the provider — until it answers done or failed.
  const stuck = await db
    .select({ refund: topupRefunds, topup: topups })
    .from(topupRefunds)
    .innerJoin(topups, eq(topups.id, topupRefunds.topupId))
    .where(
      and(
        eq(topupRefunds.status, 'processing'),
        eq(topups.chargeProvider, provider.name),
        lt(topupRefunds.createdAt, now),
      ),
    )
    .limit(100);
  for (const { refund, topup } of stuck) {
    try {
      const request = {
        chargeId: topup.providerChargeId ?? topup.txid,
        paymentId: topup.providerPaymentId ?? '',
        refundCode: refund.refundCode,
        amountMillis: refund.amountMillis,
        description: refund.reason,
      };
      // Read first: a refund the provider already has is only followed, never asked for twice.
      const result =
        (await provider.readRefund({ ...request, providerRefundId: refund.providerRefundId })) ??
        (await provider.refund(request));
      await settleRefundResult(db, refund.id, result);
      report.refundsSettled++;
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      report.errors++;
    }
  }
  return report;
}

/** The top-up reconciliation as a periodic job: webhooks get lost, so pending charges are read back from the provider. */
export function topUpReconciliationJob(
  db: Db,
  provider: PaymentProvider,
  options: { everyMs: number; logger: Pick<Logger, 'warn' | 'info' | 'error'> },
): PeriodicJob {
  return {
    name: 'billing.reconcile-topups',
    everyMs: options.everyMs,
    run: () => reconcileTopups(db, provider, { logger: options.logger }),
  };
}
