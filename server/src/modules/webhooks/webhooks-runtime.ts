import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { PeriodicJob } from '../../jobs/periodic-jobs';
import type { Mailer } from '../../mail/mailer';
import type { DnsResolver } from '../../net/dns';
import { EndpointConnections } from './deliver';
import { WebhookDeliveryLanes } from './delivery-lanes';
import { type DeliveryBirths, dispatchEvents, expandEventBatches } from './dispatch';
import { sweepWebhookHistory } from './retention';
import { rememberingSecretBox, type SecretBox } from './signing';
import type { GuardOptions } from './ssrf-guard';

export function guardOptionsFrom(config: Config, resolver: Pick<DnsResolver, 'addresses'>): GuardOptions {
  return { resolver, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE_URLS, requireHttps: config.isProduction };
}

export interface WebhookWorker {
  /** One dispatcher round now, then the lanes look for due deliveries (tests, and the dispatch job). */
  dispatchOnce(): Promise<number>;
  /** The dispatcher and the retention sweep, for the process's periodic-jobs registry. */
  jobs: PeriodicJob[];
  /** Stops the delivery lanes (the registry stops the jobs). */
  stop(): Promise<void>;
  /** The lanes' side of births: what a dispatcher round would give each endpoint now (tests read its plan). */
  births: DeliveryBirths;
}

/**
 * The worker side of webhooks (ADR 0026): the dispatcher job (engine batches and outbox events → deliveries,
 * every WEBHOOKS_DISPATCH_MS, in batches) and the delivery lanes (due deliveries claimed and attempted
 * concurrently, per-endpoint capacity, outcomes recorded in batches). Runs in worker roles (and `all`).
 */
export async function startWebhookWorker(deps: {
  config: Config;
  db: Db;
  mailer: Mailer | null;
  logger: Logger;
  resolver: Pick<DnsResolver, 'addresses'>;
  box: SecretBox;
  /** Per-endpoint capacity override (tests). */
  endpointConcurrency?: number;
}): Promise<WebhookWorker> {
  const { config, db, logger } = deps;
  const endpointConcurrency = deps.endpointConcurrency ?? config.WEBHOOKS_ENDPOINT_CONCURRENCY;
  const lanes = new WebhookDeliveryLanes({
    db,
    logger,
    attempt: {
      box: rememberingSecretBox(deps.box),
      connections: new EndpointConnections(guardOptionsFrom(config, deps.resolver), endpointConcurrency),
      timeoutMs: config.WEBHOOKS_TIMEOUT_MS,
      retry: {
        limit: config.WEBHOOKS_RETRY_LIMIT,
        delaySeconds: config.WEBHOOKS_RETRY_DELAY_SECONDS,
        maxDelaySeconds: config.WEBHOOKS_RETRY_DELAY_MAX_SECONDS,
      },
    },
    effects: {
      db,
      mailer: deps.mailer,
      logger,
      disableAfterHours: config.WEBHOOKS_DISABLE_AFTER_HOURS,
      publicUrl: config.PUBLIC_URL,
    },
    concurrency: config.WEBHOOKS_CONCURRENCY,
    endpointConcurrency,
    accountConcurrency: config.WEBHOOKS_ACCOUNT_CONCURRENCY,
    leaseSeconds: config.WEBHOOKS_LEASE_SECONDS,
    idlePollMs: config.WEBHOOKS_DISPATCH_MS,
  });
  lanes.start();

  const dispatchOnce = async () => {
    let total = 0;
    for (;;) {
      // The new deliveries this process has room for are born claimed by its lanes (ADR 0026, session 9).
      const expand = lanes.batchesToExpand(config.SENDING_BATCH_SIZE, 20);
      const batches = expand > 0 ? await expandEventBatches(db, expand, lanes.births) : 0;
      const events = await dispatchEvents(db, 500, lanes.births);
      total += batches + events;
      if (batches + events > 0) lanes.wake();
      if (batches === 0 && events === 0) {
        lanes.wake();
        return total;
      }
    }
  };
  return {
    dispatchOnce,
    jobs: [
      { name: 'webhooks.dispatch', everyMs: config.WEBHOOKS_DISPATCH_MS, run: dispatchOnce },
      // The delivery log's retention: idempotent, so several workers sweeping do no harm.
      {
        name: 'webhooks.retention',
        everyMs: 3_600_000,
        run: (now) => sweepWebhookHistory(db, { now, retentionDays: config.WEBHOOKS_RETENTION_DAYS }),
      },
    ],
    stop: () => lanes.stop(),
    births: lanes.births,
  };
}
