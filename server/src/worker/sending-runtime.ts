import fs from 'node:fs';
import { availableParallelism } from 'node:os';
import type { Logger } from 'pino';
import { type Config, resolveAuthSecret } from '../config';
import type { Db } from '../db/database';
import { createMailer, type Mailer, type SystemSuppressionCheck } from '../mail/mailer';
import { checkCampaignProtection, reportSettingsFrom } from '../modules/bounces/record-report';
import { createSigningResolver } from '../modules/sender-identities/sender-signing';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, type DkimSigner } from '../modules/sending/dkim/dkim-signer';
import { createDkimSigningPool } from '../modules/sending/dkim/signing-pool';
import { createSmtpPool } from '../modules/sending/smtp/smtp-pool';
import type { MailTransport } from '../modules/sending/transport';
import { type SenderSettings, SendingEngine } from './sending-engine';

/** The SENDING_* variables in the sender's units, with the domains defaulting to PUBLIC_URL's host. */
export function senderSettings(config: Config): SenderSettings {
  const host = new URL(config.PUBLIC_URL).hostname;
  return {
    batchSize: config.SENDING_BATCH_SIZE,
    concurrency: config.SENDING_CONCURRENCY,
    ratePerRelay: config.SENDING_RATE_PER_RELAY,
    retryBaseSeconds: config.SENDING_RETRY_BASE_SECONDS,
    retryMaxSeconds: config.SENDING_RETRY_MAX_SECONDS,
    retryWindowSeconds: config.SENDING_RETRY_WINDOW_SECONDS,
    pauseAfterErrors: config.SENDING_PAUSE_AFTER_ERRORS,
    leaseSeconds: config.SENDING_LEASE_SECONDS,
    pollMs: config.SENDING_POLL_MS,
    scheduleSweepSeconds: config.SENDING_SCHEDULE_SWEEP_SECONDS,
    publicUrl: config.PUBLIC_URL,
    bounceDomain: config.BOUNCE_DOMAIN ?? host,
    listIdDomain: config.LIST_ID_DOMAIN ?? host,
  };
}

/** The relays campaigns go out through: SENDING_SMTP_URLS, else the app's own SMTP URL (relay or catcher). */
export function relayUrls(config: Config, fallbackSmtpUrl: string): string[] {
  const listed = config.SENDING_SMTP_URLS.split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return listed.length > 0 ? listed : [fallbackSmtpUrl];
}

/** One pooled, pipelining SMTP client (smtp/smtp-pool.ts) for an smtp:// or smtps:// URL with optional credentials. */
export function createRelayTransport(url: string, connections: number): MailTransport {
  const parsed = new URL(url);
  const loopback = parsed.hostname === '127.0.0.1' || parsed.hostname === 'localhost' || parsed.hostname === '::1';
  return createSmtpPool({
    host: parsed.hostname,
    port: Number(parsed.port || (parsed.protocol === 'smtps:' ? 465 : 25)),
    secure: parsed.protocol === 'smtps:',
    startTls: loopback ? 'never' : 'opportunistic',
    auth: parsed.username
      ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) }
      : undefined,
    connections,
  });
}

/** One transport per relay, SENDING_CONCURRENCY connections each. */
export function createRelayTransports(config: Config, fallbackSmtpUrl: string): MailTransport[] {
  return relayUrls(config, fallbackSmtpUrl).map((url) => createRelayTransport(url, config.SENDING_CONCURRENCY));
}

/**
 * The DKIM signers configured (RSA-2048 via DKIM_RSA_KEY_PATH, Ed25519 via DKIM_ED25519_KEY_PATH, both may be
 * set: the message then carries two signatures). Keys are read and parsed once at start-up. The signed
 * headers include List-Unsubscribe and List-Unsubscribe-Post (RFC 8058).
 */
export function createDkimSigners(config: Config): DkimSigner[] {
  if (!config.DKIM_DOMAIN) return [];
  const signers: DkimSigner[] = [];
  if (config.DKIM_RSA_KEY_PATH) {
    signers.push(
      createDkimSigner({
        domain: config.DKIM_DOMAIN,
        selector: config.DKIM_SELECTOR,
        privateKeyPem: fs.readFileSync(config.DKIM_RSA_KEY_PATH, 'utf8'),
        algorithm: 'rsa-sha256',
        headerNames: [...DEFAULT_SIGNED_HEADERS, 'feedback-id', 'reply-to'],
      }),
    );
  }
  if (config.DKIM_ED25519_KEY_PATH) {
    signers.push(
      createDkimSigner({
        domain: config.DKIM_DOMAIN,
        selector: config.DKIM_ED25519_SELECTOR ?? `${config.DKIM_SELECTOR}-ed`,
        privateKeyPem: fs.readFileSync(config.DKIM_ED25519_KEY_PATH, 'utf8'),
        algorithm: 'ed25519-sha256',
        headerNames: [...DEFAULT_SIGNED_HEADERS, 'feedback-id', 'reply-to'],
      }),
    );
  }
  return signers;
}

/**
 * The application's Mailer on the one pipeline (ADR 0029): the wire builder, the platform key (and a verified
 * sender domain's own key for mail From it), and the project's SMTP client to `smtpUrl` (SMTP_URL or the catcher).
 */
export function createPlatformMailer(options: {
  config: Config;
  db: Db;
  smtpUrl: string;
  logger: Logger;
  suppressedFor?: SystemSuppressionCheck;
  /** Connections to the relay; default 2 (system mail is a trickle beside the campaigns). */
  connections?: number;
}): Mailer {
  const settings = senderSettings(options.config);
  const platformSigners = createDkimSigners(options.config);
  return createMailer({
    transport: createRelayTransport(options.smtpUrl, options.connections ?? 2),
    defaultFrom: options.config.MAIL_FROM,
    logger: options.logger,
    publicUrl: settings.publicUrl,
    listIdDomain: settings.listIdDomain,
    bounceDomain: settings.bounceDomain,
    platformSigners,
    signingFor: createSigningResolver({
      db: options.db,
      secret: resolveAuthSecret(options.config),
      platformSigners,
      platformBounceDomain: settings.bounceDomain,
      trackingDomains: false,
    }),
    suppressedFor: options.suppressedFor,
  });
}

/** The worker's sending engine, started; stop() drains the batches in flight and closes the relays. */
export function startSendingEngine(options: {
  config: Config;
  db: Db;
  mailer: Mailer | null;
  logger: Logger;
  fallbackSmtpUrl: string;
}): { sender: SendingEngine; stop(): Promise<void> } {
  const transports = createRelayTransports(options.config, options.fallbackSmtpUrl);
  const settings = senderSettings(options.config);
  const platformSigners = createDkimSigners(options.config);
  // Every core of the worker signs (ADR 0027): the engine builds on its thread, the pool's threads sign.
  const threads = options.config.SENDING_SIGNING_THREADS ?? availableParallelism();
  const signingPool = threads > 0 ? createDkimSigningPool({ threads }) : undefined;
  const sender = new SendingEngine({
    db: options.db,
    transports,
    settings,
    logger: options.logger,
    mailer: options.mailer,
    signers: platformSigners,
    signingPool,
    // The From domain's own keys (verified sender domain) plus the platform's; its bounce domain.
    signingFor: createSigningResolver({
      db: options.db,
      secret: resolveAuthSecret(options.config),
      platformSigners,
      platformBounceDomain: settings.bounceDomain,
      trackingDomains: options.config.TRACKING_DOMAINS === 'on',
    }),
    onRejections: (campaignId) => checkCampaignProtection(options.db, campaignId, reportSettingsFrom(options.config)),
  });
  sender.start();
  options.logger.info(
    { workerId: sender.workerId, relays: transports.length, signingThreads: threads },
    'sending engine started',
  );
  return {
    sender,
    async stop() {
      await sender.stop();
      await signingPool?.close();
      for (const transport of transports) await transport.close();
    },
  };
}
