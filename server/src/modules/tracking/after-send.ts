import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from '../../clock';
import { type Config, resolveAuthSecret } from '../../config';
import type { Db } from '../../db/database';
import { reportSettingsFrom } from '../bounces/record-report';
import {
  httpsSubscriptionConfirmer,
  type SubscriptionConfirmer,
  sesWebhookRoutes,
} from '../bounces/ses-webhook.routes';
import { type CertificateFetcher, httpsCertificateFetcher, SnsVerifier } from '../bounces/sns';
import { reportsRoutes } from '../reports/reports.routes';
import { unsubscribeRoutes } from '../unsubscribe/unsubscribe.routes';
import { EventRecorder } from './event-recorder';
import { trackingRoutes } from './tracking.routes';
import { setTrackingSecret } from './tracking-token';

declare module 'fastify' {
  interface FastifyInstance {
    /** The batched open/click writer (tests call flush()). */
    trackingRecorder: EventRecorder;
  }
}

/**
 * Everything after the send, registered by buildApp: open pixel and click redirect, one-click
 * unsubscribe and preference centre, the Amazon SES/SNS webhook, and the reports API.
 */
export async function registerAfterSend(
  app: FastifyInstance,
  deps: {
    config: Config;
    db: Db;
    logger: Logger;
    fetchCertificate?: CertificateFetcher;
    confirmSubscription?: SubscriptionConfirmer;
    clock?: Clock;
  },
): Promise<void> {
  const { config, db } = deps;
  setTrackingSecret(resolveAuthSecret(config));
  const recorder = new EventRecorder(db, {
    logger: deps.logger,
    flushMs: config.TRACKING_FLUSH_MS,
    // PGlite runs each statement on this process's own thread: smaller batches keep one write from holding the
    // pixel and redirect answers queued behind it for long (PostgreSQL writes in another process).
    maxBatch: config.DATABASE_URL ? 2000 : 250,
    machineWindowSeconds: config.TRACKING_MACHINE_WINDOW_SECONDS,
  });
  app.decorate('trackingRecorder', recorder);
  app.addHook('onClose', async () => recorder.close());
  await app.register(trackingRoutes, { db, recorder, clock: deps.clock });
  await app.register(unsubscribeRoutes, { db });
  await app.register(sesWebhookRoutes, {
    db,
    verifier: new SnsVerifier(deps.fetchCertificate ?? httpsCertificateFetcher),
    confirm: deps.confirmSubscription ?? httpsSubscriptionConfirmer,
    settings: reportSettingsFrom(config),
    topicArns: config.SES_SNS_TOPIC_ARNS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  });
  await app.register(reportsRoutes, { db });
}
