import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { buildApp, consentLinksFrom } from './app';
import { type Config, resolveAuthSecret } from './config';
import { type Database, openDatabase } from './db/database';
import { type JobQueue, startJobQueue } from './jobs/job-queue';
import { type PeriodicJobs, startPeriodicJobs } from './jobs/periodic-jobs';
import { type MailCatcher, startMailCatcher } from './mail/mail-catcher';
import type { Mailer } from './mail/mailer';
import { automationsJob } from './modules/automations/automations-runtime';
import { billingJobs } from './modules/billing/billing-jobs';
import { createPaymentProviders } from './modules/billing/payments/providers';
import { startBounceReceiver } from './modules/bounces/bounce-receiver';
import { reportSettingsFrom } from './modules/bounces/record-report';
import { suppressionReasonFor } from './modules/contacts/suppression';
import { storeCaughtMail } from './modules/dev-mailbox/dev-mailbox';
import { IMPORT_JOB, IMPORT_QUEUE_OPTIONS, runImport } from './modules/imports/run-import';
import { sweepExpiredMessageFiles } from './modules/message-files/message-files';
import { domainRecheckJob } from './modules/sender-identities/domain-rechecks';
import { senderIdentitySettings } from './modules/sender-identities/sender-settings';
import { setTrackingSecret } from './modules/tracking/tracking-token';
import { sandboxScheduledJob } from './modules/transactional/sandbox-webhooks';
import { createSecretBox } from './modules/webhooks/signing';
import { startWebhookWorker } from './modules/webhooks/webhooks-runtime';
import { createDnsResolver } from './net/dns';
import { createPlatformMailer, startSendingEngine } from './worker/sending-runtime';

export type Role = 'all' | 'api' | 'worker' | 'migrate';

export interface Runtime {
  app: FastifyInstance | null;
  database: Database;
  mailer: Mailer | null;
  /** The address the HTTP server listens on (null for worker and migrate). */
  url: string | null;
  /** This process's periodic jobs (null for migrate). */
  periodic: PeriodicJobs | null;
  stop(): Promise<void>;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** web/dist, whether we run from server/src (tests) or server/dist (npm start). */
export const WEB_DIST_DIR = path.resolve(here, '../../web/dist');

/**
 * Starts the parts a role needs, in order: database (+ migrations) → mail catcher → mailer → job queue → HTTP.
 * `all` is the single-process default (API + worker + catcher); `api` and `worker` scale out on PostgreSQL.
 * stop() undoes them in reverse order and is safe to call twice.
 */
export async function startRuntime(config: Config, role: Role, logger: Logger): Promise<Runtime> {
  const stack: Array<() => Promise<void> | void> = [];
  const stop = async () => {
    while (stack.length) {
      const undo = stack.pop() as () => Promise<void> | void;
      try {
        await undo();
      } catch (error) {
        logger.error({ err: error }, 'error while stopping');
      }
    }
  };
  try {
    const database = await openDatabase(
      config.DATABASE_URL
        ? {
            kind: 'postgres',
            url: config.DATABASE_URL,
            poolSize: config.DATABASE_POOL_SIZE,
            cores: config.DATABASE_CORES,
          }
        : { kind: 'pglite', dataDir: path.join(config.DATA_DIR) },
    );
    stack.push(() => database.close());
    await database.migrate();
    logger.info({ database: database.kind }, 'database ready, migrations applied');
    if (role === 'migrate') return { app: null, database, mailer: null, url: null, periodic: null, stop };

    let catcher: MailCatcher | null = null;
    if (config.mailCatcherEnabled && role !== 'worker') {
      catcher = await startMailCatcher({
        port: config.MAIL_CATCHER_PORT,
        logger,
        store: (mail) => storeCaughtMail(database.db, mail),
      });
      stack.push(() => catcher?.close());
    }
    // Tracking tokens are signed with AUTH_SECRET in every role (the worker renders, the API verifies).
    setTrackingSecret(resolveAuthSecret(config));
    // Inbound bounces (VERP DSNs, ARF): BOUNCE_SMTP_PORT, or 2526 in the all-in-one dev mode with the catcher on.
    const bouncePort = config.BOUNCE_SMTP_PORT ?? (role === 'all' && config.mailCatcherEnabled ? 2526 : 0);
    if (bouncePort > 0 && role !== 'worker') {
      const start = () =>
        startBounceReceiver({
          db: database.db,
          port: bouncePort,
          host: config.BOUNCE_SMTP_HOST,
          logger,
          settings: reportSettingsFrom(config),
        });
      // The dev default (2526) is a convenience: a second local instance runs without it instead of failing.
      // A port chosen in BOUNCE_SMTP_PORT is a promise, so failing to take it stops the start-up.
      const receiver =
        config.BOUNCE_SMTP_PORT === undefined
          ? await start().catch((error: NodeJS.ErrnoException) => {
              if (error.code !== 'EADDRINUSE') throw error;
              logger.warn(
                { port: bouncePort },
                'porta 2526 do receptor de devoluções em uso: ele fica desligado nesta instância (defina BOUNCE_SMTP_PORT)',
              );
              return null;
            })
          : await start();
      if (receiver) stack.push(() => receiver.close());
    }
    const smtpUrl = config.SMTP_URL ?? `smtp://127.0.0.1:${catcher?.port ?? config.MAIL_CATCHER_PORT}`;
    const mailer = createPlatformMailer({
      config,
      db: database.db,
      smtpUrl,
      logger,
      suppressedFor: (accountId, email) => suppressionReasonFor(database.db, accountId, email, 'system'),
    });
    stack.push(() => mailer.close());

    const jobs: JobQueue = await startJobQueue(database, {
      logger,
      connectionString: config.DATABASE_URL,
      schedule: role !== 'api',
    });
    stack.push(() => jobs.stop({ graceful: true, timeout: 10_000 }));
    await jobs.createQueue(IMPORT_JOB, IMPORT_QUEUE_OPTIONS);
    const consentLinks = consentLinksFrom(config);
    if (role !== 'api') {
      await jobs.work<{ importId: string }>(IMPORT_JOB, async ([job]) => {
        if (job) await runImport(database.db, job.data.importId, consentLinks, logger);
      });
    }

    const dns = createDnsResolver({ servers: config.DNS_SERVERS });
    // Every periodic loop of this process (ADR 0034); the sending engine keeps its own lanes and sweeps.
    const periodic: PeriodicJobs = startPeriodicJobs(logger);
    const payments = createPaymentProviders(config);
    if (role !== 'api') {
      // The campaign sender: claims message batches from the database (several workers share a campaign) and
      // starts due scheduled campaigns every SENDING_SCHEDULE_SWEEP_SECONDS — state lives in the tables.
      const engine = startSendingEngine({ config, db: database.db, mailer, logger, fallbackSmtpUrl: smtpUrl });
      stack.push(() => engine.stop());
      periodic.add(
        domainRecheckJob({
          db: database.db,
          dns,
          mailer,
          settings: senderIdentitySettings(config),
          intervalMinutes: config.SENDER_DOMAIN_RECHECK_MINUTES,
        }),
      );
      // Automations: enroll list joins, dates and exits, then send the due steps through the
      // transactional path (messages of the account's stream, delivered by the engine above).
      periodic.add(
        automationsJob({ db: database.db, mailer, publicUrl: config.PUBLIC_URL, tickMs: config.AUTOMATIONS_TICK_MS }),
      );
      for (const job of billingJobs({ config, db: database.db, mailer, payments, logger })) periodic.add(job);
      // Uploaded message files past their retention (ADR 0033): idempotent, so several workers sweeping do no harm.
      periodic.add({
        name: 'message-files.retention',
        everyMs: 3_600_000,
        run: (now) => sweepExpiredMessageFiles(database.db, now),
      });
      // A test key's scheduled messages get their (test) webhook at sendAt, as a live one would (ADR 0033).
      periodic.add(sandboxScheduledJob(database.db));
    }

    if (role !== 'api') {
      // Outbound webhooks: the outbox dispatcher and the delivery lanes (ADR 0026).
      const webhooks = await startWebhookWorker({
        config,
        db: database.db,
        mailer,
        logger,
        resolver: dns,
        box: createSecretBox(resolveAuthSecret(config)),
      });
      stack.push(() => webhooks.stop());
      for (const job of webhooks.jobs) periodic.add(job);
    }
    // Stopped first on shutdown (last on the stack): no job starts a run against parts already stopped.
    stack.push(() => periodic.stop());

    if (role === 'worker') return { app: null, database, mailer, url: null, periodic, stop };

    const app = await buildApp({ config, database, mailer, logger, webDistDir: WEB_DIST_DIR, jobs, payments });
    stack.push(() => app.close());
    const url = await app.listen({ port: config.PORT, host: config.HOST });
    logger.info({ url, role, publicUrl: config.PUBLIC_URL }, 'Carteiro is listening');
    // A person who started it by hand reads, in plain words, where to go; the JSON lines stay for machines (a
    // terminal only: piped or in production, stdout carries nothing but the logs).
    if (process.stdout.isTTY && config.NODE_ENV !== 'production') {
      process.stdout.write(`\n  Carteiro pronto. Abra ${config.PUBLIC_URL} no navegador.\n\n`);
    }
    return { app, database, mailer, url, periodic, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
