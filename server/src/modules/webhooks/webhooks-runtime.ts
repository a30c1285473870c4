import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import type { DnsResolver } from '../../net/dns';
import { EndpointConnections } from './deliver';
import { WebhookDeliveryLanes } from './delivery-lanes';
import { dispatchEvents, expandEventBatches } from './dispatch';
import { sweepWebhookHistory } from './retention';
import type { SecretBox } from './signing';
import type { GuardOptions } from './ssrf-guard';

export function guardOptionsFrom(config: Config, resolver: Pick<DnsResolver, 'addresses'>): GuardOptions {
  return { resolver, allowPrivate: config.WEBHOOKS_ALLOW_PRIVATE_URLS, requireHttps: config.isProduction };
}

export interface WebhookWorker {
  /** One dispatcher round now, then the lanes look for due deliveries (tests, and the loop). */
  dispatchOnce(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * The worker side of webhooks (ADR 0026): the dispatcher loop (engine batches and outbox events → deliveries,
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
  /** Loop interval override (tests call dispatchOnce themselves with a long interval). */
  dispatchMs?: number;
  /** Per-endpoint capacity override (tests). */
  endpointConcurrency?: number;
}): Promise<WebhookWorker> {
  const { config, db, logger } = deps;
  const endpointConcurrency = deps.endpointConcurrency ?? config.WEBHOOKS_ENDPOINT_CONCURRENCY;
  const lanes = new WebhookDeliveryLanes({
    db,
    logger,
    attempt: {
      box: deps.box,
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
    leaseSeconds: config.WEBHOOKS_LEASE_SECONDS,
    idlePollMs: Math.min(deps.dispatchMs ?? config.WEBHOOKS_DISPATCH_MS, config.WEBHOOKS_DISPATCH_MS),
  });
  lanes.start();

  const dispatchOnce = async () => {
    let total = 0;
    for (;;) {
      const batches = await expandEventBatches(db);
      const events = await dispatchEvents(db);
      total += batches + events;
      if (batches + events > 0) lanes.wake();
      if (batches === 0 && events === 0) {
        lanes.wake();
        return total;
      }
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
      await lanes.stop();
    },
  };
}
