import type { JobWithMetadata } from 'pg-boss';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { JobQueue } from '../../jobs/job-queue';
import type { Mailer } from '../../mail/mailer';
import type { DnsResolver } from '../../net/dns';
import {
  attemptDelivery,
  type DeliveryDeps,
  dispatchEvents,
  enqueueDeliveries,
  expandEventBatches,
  RetryableDeliveryError,
  WEBHOOK_DELIVERY_JOB,
} from './deliver';
import { sweepWebhookHistory } from './retention';
import type { SecretBox } from './signing';
import type { GuardOptions } from './ssrf-guard';

export function guardOptionsFrom(config: Config, resolver: Pick<DnsResolver, 'addresses'>): GuardOptions {
  return { resolver, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE_URLS, requireHttps: config.isProduction };
}

/** The delivery queue: pg-boss retries a failed attempt with exponential back-off and re-runs an expired one. */
export async function createWebhookQueue(jobs: JobQueue, config: Config): Promise<void> {
  const backoff = config.WEBHOOKS_RETRY_DELAY_SECONDS > 0;
  const options = {
    retryLimit: config.WEBHOOKS_RETRY_LIMIT,
    retryDelay: config.WEBHOOKS_RETRY_DELAY_SECONDS,
    retryBackoff: backoff,
    ...(backoff ? { retryDelayMax: config.WEBHOOKS_RETRY_DELAY_MAX_SECONDS } : {}),
    expireInSeconds: config.WEBHOOKS_JOB_EXPIRE_SECONDS,
  };
  await jobs.createQueue(WEBHOOK_DELIVERY_JOB, options);
  // A queue created by an earlier version keeps its old settings otherwise.
  await jobs.updateQueue(WEBHOOK_DELIVERY_JOB, options);
}

export interface WebhookWorker {
  /** One dispatcher round now (tests, and the loop). */
  dispatchOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The worker side of webhooks: the dispatcher loop (outbox → deliveries → one pg-boss job per delivery, every
 * WEBHOOKS_DISPATCH_MS, in batches) and the delivery job handler. Runs in worker roles (and `all`).
 */
export async function startWebhookWorker(deps: {
  config: Config;
  db: Db;
  jobs: JobQueue;
  mailer: Mailer | null;
  logger: Logger;
  resolver: Pick<DnsResolver, 'addresses'>;
  box: SecretBox;
  /** Loop interval override (tests call dispatchOnce themselves with a long interval). */
  dispatchMs?: number;
  /** Delivery jobs fetched at once (attempted concurrently), and such batches in flight per process. */
  batchSize?: number;
  concurrency?: number;
}): Promise<WebhookWorker> {
  const { config, db, jobs, logger } = deps;
  await createWebhookQueue(jobs, config);
  const delivery: DeliveryDeps = {
    db,
    box: deps.box,
    guard: guardOptionsFrom(config, deps.resolver),
    mailer: deps.mailer,
    logger,
    timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
    disableAfterHours: config.WEBHOOKS_DISABLE_AFTER_HOURS,
    publicUrl: config.PUBLIC_URL,
  };
  // Jobs are fetched in batches (one round trip for many deliveries) and attempted concurrently; each job
  // settles on its own: completed, or failed so pg-boss retries it with back-off.
  const workerId = await jobs.work<{ deliveryId: string }>(
    WEBHOOK_DELIVERY_JOB,
    {
      includeMetadata: true,
      perJobResults: true,
      batchSize: deps.batchSize ?? 25,
      localConcurrency: deps.concurrency ?? 2,
      pollingIntervalSeconds: 0.5,
    },
    async (batch) =>
      Promise.all(
        batch.map(async (job) => {
          try {
            await attemptDelivery(delivery, job.data.deliveryId, {
              retryCount: job.retryCount,
              retryLimit: (job as Partial<JobWithMetadata>).retryLimit ?? config.WEBHOOKS_RETRY_LIMIT,
            });
            return { id: job.id, status: 'completed' as const };
          } catch (error) {
            if (!(error instanceof RetryableDeliveryError)) logger.error({ err: error }, 'webhook delivery job failed');
            return { id: job.id, status: 'failed' as const };
          }
        }),
      ),
  );

  const dispatchOnce = async () => {
    let total = 0;
    for (;;) {
      const batches = await expandEventBatches(db);
      const events = await dispatchEvents(db);
      const queued = await enqueueDeliveries(db, async (ids) => {
        await jobs.insert(
          WEBHOOK_DELIVERY_JOB,
          ids.map((deliveryId) => ({ data: { deliveryId } })),
        );
      });
      total += queued;
      if (batches === 0 && events === 0 && queued === 0) return total;
    }
  };
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running) return;
    running = dispatchOnce()
      .catch((error: unknown) => logger.warn({ err: error }, 'webhook dispatcher round failed'))
      .finally(() => {
        running = null;
      });
  }, deps.dispatchMs ?? config.WEBHOOKS_DISPATCH_MS);
  timer.unref();
  // The delivery log's retention: one sweep an hour per worker (idempotent, so several workers do no harm).
  const sweeper = setInterval(() => {
    sweepWebhookHistory(db, { now: new Date(), retentionDays: config.WEBHOOKS_RETENTION_DAYS }).catch(
      (error: unknown) => logger.warn({ err: error }, 'webhook history sweep failed'),
    );
  }, 3_600_000);
  sweeper.unref();
  return {
    dispatchOnce,
    async stop() {
      clearInterval(timer);
      clearInterval(sweeper);
      await running;
      await jobs.offWork(WEBHOOK_DELIVERY_JOB, { id: workerId } as never);
    },
  };
}
