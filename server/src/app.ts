import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Clock } from './clock';
import { type Config, resolveAuthSecret } from './config';
import type { Database, Db } from './db/database';
import { AppError } from './http/app-error';
import { registerCsrfProtection } from './http/csrf';
import { registerErrorHandler, sendError } from './http/error-handler';
import { registerSecurityHeaders } from './http/security-headers';
import { registerSpa } from './http/spa';
import type { JobQueue } from './jobs/job-queue';
import type { Mailer } from './mail/mailer';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { ensureAccountForUser, findMembership } from './modules/accounts/accounts.service';
import { teamRoutes } from './modules/accounts/team.routes';
import { authPlugin } from './modules/auth/auth.routes';
import { automationsRoutes } from './modules/automations/automations.routes';
import { backOfficeRoutes } from './modules/back-office/back-office.routes';
import { billingRoutes } from './modules/billing/billing.routes';
import { hasOperatorRole } from './modules/billing/operators';
import { createPaymentProviders, type PaymentProviders } from './modules/billing/payments/providers';
import { isUserDisabled } from './modules/billing/user-access';
import { paymentWebhookRoutes } from './modules/billing/webhook.routes';
import { reportSettingsFrom } from './modules/bounces/record-report';
import {
  httpsSubscriptionConfirmer,
  type SubscriptionConfirmer,
  sesWebhookRoutes,
} from './modules/bounces/ses-webhook.routes';
import { type CertificateFetcher, httpsCertificateFetcher, SnsVerifier } from './modules/bounces/sns';
import { campaignUsingSegment, recentSentCampaignIds } from './modules/campaigns/campaign-directory';
import { writeEngagementCounters } from './modules/campaigns/campaign-records';
import { campaignSendRoutes } from './modules/campaigns/campaign-send.routes';
import { campaignsRoutes } from './modules/campaigns/campaigns.routes';
import { compatRoutes } from './modules/compat/compat.routes';
import { sendCampaignCompatRoutes } from './modules/compat/send-campaign.routes';
import { contactsRoutes } from './modules/contacts/contacts.routes';
import { devMailboxRoutes } from './modules/dev-mailbox/dev-mailbox.routes';
import { deleteImportFilesMentioning } from './modules/imports/import-file-store';
import { importsRoutes } from './modules/imports/imports.routes';
import { listsRoutes } from './modules/lists/lists.routes';
import {
  assertMayCauseMail,
  type MayCauseMail,
  mailPolicyLimitsFrom,
} from './modules/mail-policy/assert-may-cause-mail';
import { registerMetrics } from './modules/metrics/metrics';
import { exportContactData } from './modules/privacy-requests/export-contact-data';
import { privacyRequestsRoutes } from './modules/privacy-requests/privacy-requests.routes';
import { apiKeysRoutes } from './modules/public-api/api-keys.routes';
import { PUBLIC_API_GROUPS } from './modules/public-api/groups';
import { PUBLIC_API_PREFIX, publicApiRoutes } from './modules/public-api/public-api.routes';
import { publicConfigRoutes } from './modules/public-config/public-config.routes';
import { reportsRoutes } from './modules/reports/reports.routes';
import { segmentsRoutes } from './modules/segments/segments.routes';
import { senderIdentitiesRoutes } from './modules/sender-identities/sender-identities.routes';
import { senderIdentitySettings } from './modules/sender-identities/sender-settings';
import { joinListsWith } from './modules/subscriptions/add-contacts-to-lists';
import type { ConsentLinks } from './modules/subscriptions/consent-requests';
import { subscriptionsRoutes } from './modules/subscriptions/subscriptions.routes';
import { templatesRoutes } from './modules/templates/templates.routes';
import { configureUntrustedRendering, DEFAULT_RENDER_POOL } from './modules/templates/untrusted-render';
import { EventRecorder } from './modules/tracking/event-recorder';
import { trackingRoutes } from './modules/tracking/tracking.routes';
import { registerTrackingHostGuard } from './modules/tracking/tracking-host';
import { setTrackingSecret } from './modules/tracking/tracking-token';
import { sendTransactional } from './modules/transactional/send-transactional';
import { unsubscribeRoutes } from './modules/unsubscribe/unsubscribe.routes';
import type { ReadableFileStorage } from './modules/uploads/file-storage';
import { createFileStorage } from './modules/uploads/storage';
import { localUploadsRoutes, uploadsRoutes } from './modules/uploads/uploads.routes';
import { webhookOpenApiExtras } from './modules/webhooks/openapi-webhooks';
import { createSecretBox } from './modules/webhooks/signing';
import { webhooksRoutes } from './modules/webhooks/webhooks.routes';
import { guardOptionsFrom } from './modules/webhooks/webhooks-runtime';
import { createDnsResolver, type DnsResolver } from './net/dns';

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD /api/v1/...` of every public API route (for the OpenAPI coverage test). */
    publicApiRoutes: string[];
    /** The batched open/click writer (tests call flush()). */
    trackingRecorder: EventRecorder;
  }
}

/**
 * What a confirmation e-mail needs (double opt-in lists), for the routes and the import job: where the app answers,
 * the secret that signs the link, and the transactional send it goes out by (transactional sits above lists).
 */
export function consentLinksFrom(config: Config): ConsentLinks {
  return { publicUrl: config.PUBLIC_URL, secret: resolveAuthSecret(config), sendConfirmations: sendTransactional };
}

/** What the HTTP application needs from the process that runs it. */
export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer;
  logger: Logger;
  /** The built SPA (web/dist); null in API-only tests. */
  webDistDir: string | null;
  /** pg-boss, to enqueue background jobs; absent in tests (jobs then run in-process). */
  jobs?: JobQueue | null;
  /** The one DNS resolver (net/dns.ts); default: one on config.DNS_SERVERS. */
  dns?: DnsResolver;
  /** The process's payment providers (the runtime shares them with billing's jobs); default: built from config. */
  payments?: PaymentProviders;
  /** The clock of the routes' time decisions (ARCHITECTURE.md "Time"); default: the system's. Tests move their own. */
  clock?: Clock;
}

/**
 * Builds the Fastify application: cross-cutting plugins first, then each module's routes, then the SPA
 * fallback — in this fixed order. Listening is the caller's business (tests use inject()).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  configureUntrustedRendering({
    ...DEFAULT_RENDER_POOL,
    ...(config.TEMPLATE_RENDER_WORKERS > 0 ? { workers: config.TEMPLATE_RENDER_WORKERS } : {}),
    deadlineMs: config.TEMPLATE_RENDER_DEADLINE_MS,
  });
  const app = Fastify({
    loggerInstance: deps.logger as FastifyBaseLogger,
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{8,64}$/.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: config.BODY_LIMIT_BYTES,
    // Whose X-Forwarded-For counts (request.ip, every per-address limit): TRUSTED_PROXIES, nobody by default.
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // The router's own refusals (a malformed %-escape, a path parameter past its 100-character limit) answer like
    // every other error: pt-BR, our error shape. No id is that long, so the second one is a plain 404.
    frameworkErrors: (error, _request, reply) =>
      sendError(
        reply,
        new AppError(error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'not_found' : 'bad_request'),
      ) as unknown as undefined,
  });

  // 1. Cross-cutting: errors, security headers, the tracking-host guard (a sender's links.<domain> answers only
  // the tracking routes), CSRF.
  registerErrorHandler(app);
  registerSecurityHeaders(app, { isProduction: config.isProduction });
  registerTrackingHostGuard(app, { publicUrl: config.PUBLIC_URL });
  registerCsrfProtection(app, config.trustedOrigins);

  // 2. Operations.
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ok', database: database.kind };
    } catch (error) {
      app.log.warn({ err: error }, 'readiness check failed: database unreachable');
      return reply.status(503).send({ status: 'unavailable', database: database.kind });
    }
  });

  // Prometheus /metrics: its onResponse hook must be on the root before the modules are registered.
  registerMetrics(app, { db: database.db, access: config.metricsAccess, token: config.METRICS_TOKEN });

  // 3. Modules.
  // auth sits below accounts and billing: what it needs of them is passed in here.
  await app.register(authPlugin, {
    config,
    database,
    mailer: deps.mailer,
    logger: deps.logger,
    ports: { findMembership, ensureAccountForUser, hasOperatorRole, isUserDisabled },
  });
  // Mail a signed-in sender causes outside a campaign, with this process's quotas: handed to the modules that sit
  // below mail-policy (accounts' invitations, sender-identities' confirmations).
  const mailPolicy = mailPolicyLimitsFrom(config);
  const mayCauseMail: MayCauseMail = (db, causer, mail) => assertMayCauseMail(db, mailPolicy, causer, mail);
  await app.register(accountsRoutes);
  await app.register(teamRoutes, { mayCauseMail, clock: deps.clock });
  await app.register(publicConfigRoutes, { config });
  const payments = deps.payments ?? createPaymentProviders(config);
  await app.register(billingRoutes, { db: database.db, config, payments, clock: deps.clock });
  await app.register(backOfficeRoutes, { db: database.db, config, mailer: deps.mailer, payments });
  await app.register(paymentWebhookRoutes, {
    db: database.db,
    mercadoPago: payments.mercadoPago,
    pixApi: payments.pixApi,
  });
  const consentLinks = consentLinksFrom(config);
  // Contacts sit below imports, subscriptions and privacy-requests: an erasure also deletes the stored import files
  // that mention the address, a contact joins lists through the consent rule, and the LGPD export reads lists and
  // consent evidence — each handed in here.
  await app.register(contactsRoutes, {
    db: database.db,
    joinLists: joinListsWith(consentLinks),
    eraseMentions: deleteImportFilesMentioning,
    exportContactData,
  });
  await app.register(listsRoutes, { db: database.db });
  // Segments sit below campaigns: what they read of campaigns (the last sent ones, a segment in use) is passed in.
  await app.register(segmentsRoutes, {
    db: database.db,
    recentSentCampaigns: recentSentCampaignIds,
    campaignUsingSegment,
    clock: deps.clock,
  });
  await app.register(importsRoutes, {
    db: database.db,
    links: consentLinks,
    jobs: deps.jobs ?? null,
    logger: deps.logger,
  });
  await app.register(subscriptionsRoutes, { db: database.db, mailer: deps.mailer, links: consentLinks });
  await app.register(privacyRequestsRoutes, {
    db: database.db,
    mailer: deps.mailer,
    publicUrl: config.PUBLIC_URL,
    secret: resolveAuthSecret(config),
  });
  await app.register(templatesRoutes, {
    db: database.db,
    mailer: deps.mailer,
    publicUrl: config.PUBLIC_URL,
    mailPolicy,
  });
  await app.register(campaignsRoutes, {
    db: database.db,
    mailer: deps.mailer,
    publicUrl: config.PUBLIC_URL,
    mailPolicy,
    clock: deps.clock,
  });
  await app.register(automationsRoutes, { db: database.db });
  await app.register(compatRoutes, { db: database.db });
  await app.register(campaignSendRoutes, { db: database.db });
  await app.register(sendCampaignCompatRoutes, { db: database.db });
  const dns = deps.dns ?? createDnsResolver({ servers: config.DNS_SERVERS });
  await app.register(senderIdentitiesRoutes, {
    db: database.db,
    mailer: deps.mailer,
    dns,
    settings: senderIdentitySettings(config),
    mayCauseMail,
    clock: deps.clock,
  });
  await registerAfterSend(app, { config, db: database.db, logger: deps.logger, clock: deps.clock });
  const fileStorage = createFileStorage(config);
  await app.register(uploadsRoutes, { db: database.db, storage: fileStorage, maxBytes: config.UPLOAD_MAX_BYTES });
  if (fileStorage.kind === 'local') {
    await app.register(localUploadsRoutes, { storage: fileStorage as ReadableFileStorage });
  }
  await app.register(webhooksRoutes, {
    db: database.db,
    box: createSecretBox(resolveAuthSecret(config)),
    guard: guardOptionsFrom(config, dns),
  });
  if (config.mailCatcherEnabled) await app.register(devMailboxRoutes, { db: database.db });
  await app.register(apiKeysRoutes, { db: database.db });
  const publicApiRouteLog: string[] = [];
  app.decorate('publicApiRoutes', publicApiRouteLog);
  await app.register(publicApiRoutes, {
    prefix: PUBLIC_API_PREFIX,
    deps: {
      db: database.db,
      config,
      mailer: deps.mailer,
      logger: deps.logger,
      publicUrl: config.PUBLIC_URL,
      consentLinks,
    },
    groups: PUBLIC_API_GROUPS,
    routeLog: publicApiRouteLog,
    openApiExtras: webhookOpenApiExtras(),
  });

  // 4. The SPA and the 404 answer, last.
  await registerSpa(app, deps.webDistDir);
  return app;
}

/**
 * Everything after the send, registered by buildApp: open pixel and click redirect, one-click
 * unsubscribe and preference centre, the Amazon SES/SNS webhook, and the reports API.
 */
async function registerAfterSend(
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
    writeEngagementCounters,
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
