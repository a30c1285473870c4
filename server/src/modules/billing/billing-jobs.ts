import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { PeriodicJob } from '../../jobs/periodic-jobs';
import type { Mailer } from '../../mail/mailer';
import { lowBalanceJob } from './notify-low-balance';
import type { PaymentProviders } from './payments/providers';
import { topUpReconciliationJob } from './reconcile-topups';

/** How often the low-balance sweep looks for crossings by debits of any kind. */
const LOW_BALANCE_SWEEP_MS = 15_000;

/**
 * Billing's periodic work: the one low-balance watcher (every debit can take the balance below the threshold —
 * reservations, API and automation sends, operator debits — and each crossing is announced once, whatever
 * process wrote it) and, with a payment provider, the reconciliation of dynamic charges whose webhook got lost.
 */
export function billingJobs(deps: {
  config: Config;
  db: Db;
  mailer: Mailer;
  payments: PaymentProviders;
  logger: Logger;
}): PeriodicJob[] {
  const { config, db, mailer, payments, logger } = deps;
  const jobs = [
    lowBalanceJob(
      { db, mailer, thresholdMillis: config.LOW_BALANCE_THRESHOLD_MILLIS, publicUrl: config.PUBLIC_URL },
      { everyMs: LOW_BALANCE_SWEEP_MS, logger },
    ),
  ];
  if (payments.active && config.PAYMENT_RECONCILE_SECONDS > 0) {
    jobs.push(
      topUpReconciliationJob(db, payments.active, { everyMs: config.PAYMENT_RECONCILE_SECONDS * 1000, logger }),
    );
  }
  return jobs;
}
