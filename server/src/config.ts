import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { DEFAULT_MAX_PASSWORD_LENGTH, DEFAULT_MIN_PASSWORD_LENGTH, DEFAULT_PORT, taxIdSchema } from '@carteiro/shared';
import { z } from 'zod';
import { ERROR_TEXT } from './http/error-texts';

/**
 * Every setting Carteiro reads, parsed once from the environment. Nothing else reads process.env.
 * docs/config.md documents each variable; keep the two in step.
 */
/** The development Pix key: production refuses to start with it when top-ups use the static BR Code. */
const PLACEHOLDER_PIX_KEY = 'pix@carteiro.local';

const booleanFlag = z
  .enum(['true', 'false', '1', '0', 'on', 'off', 'yes', 'no', 'auto'])
  .transform((v) => (v === 'auto' ? 'auto' : ['true', '1', 'on', 'yes'].includes(v)));

const emailList = z
  .string()
  .transform((v) =>
    v
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  )
  .pipe(z.array(z.email()));

const port = z.coerce.number().int().min(0).max(65535);

const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An address, a CIDR (`10.0.0.0/8`, `fd00::/8`) or one of proxy-addr's range names. */
function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, prefix, ...rest] = entry.split('/');
  const family = net.isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port.default(DEFAULT_PORT),
  HOST: z.string().min(1).default('localhost'),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  TRUSTED_ORIGINS: z.string().default(''),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, ERROR_TEXT.config.postgresUrl)
    .optional(),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  /** The cores of the database's machine, when it is not this one (db/database.ts, databaseCores). */
  DATABASE_CORES: z.coerce.number().int().min(1).max(1024).optional(),
  AUTH_SECRET: z.string().min(32, ERROR_TEXT.config.authSecretLength).optional(),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, ERROR_TEXT.config.smtpUrl)
    .optional(),
  MAIL_CATCHER: booleanFlag.default('auto'),
  MAIL_CATCHER_PORT: port.default(10125),
  MAIL_FROM: z.string().min(3).default('Carteiro <nao-responda@carteiro.local>'),
  CONTACT_EMAIL: z.email().default('contato@carteiro.local'),
  /** Who runs this installation, named as the controller in the privacy policy (LGPD art. 9, II). */
  OPERATOR_LEGAL_NAME: z.string().trim().max(200).default(''),
  /** The operator's CNPJ (or CPF), with or without punctuation; shown formatted in the privacy policy. */
  OPERATOR_TAX_ID: z
    .string()
    .trim()
    .default('')
    .refine((value) => value === '' || taxIdSchema.safeParse(value).success, ERROR_TEXT.config.taxIdInvalid),
  /** The encarregado (DPO, LGPD art. 41) named in the privacy policy, and the address that reaches them. */
  DPO_NAME: z.string().trim().max(200).default(''),
  DPO_EMAIL: z.union([z.literal(''), z.email()]).default(''),
  ADMIN_EMAILS: emailList.default([]),
  MIN_PASSWORD_LENGTH: z.coerce.number().int().min(8).max(128).default(DEFAULT_MIN_PASSWORD_LENGTH),
  MAX_PASSWORD_LENGTH: z.coerce.number().int().min(64).max(1024).default(DEFAULT_MAX_PASSWORD_LENGTH),
  /** Sign-in, sign-up, magic-link and reset requests a client may make per minute (429 beyond). */
  AUTH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1000).default(3),
  /** Password sign-in attempts for one e-mail, from any client, before each further one must wait (ASVS §6.3). */
  SIGN_IN_FREE_FAILURES: z.coerce.number().int().min(1).max(100).default(5),
  /** The longest of those waits (they start at 30 s and double). */
  SIGN_IN_DELAY_MAX_SECONDS: z.coerce.number().int().min(30).max(86_400).default(900),
  /**
   * Whose X-Forwarded-For counts: unset = nobody's (the socket address is the client); a hop count (`1` = the one
   * proxy in front); or comma-separated addresses/CIDRs of the proxies (`127.0.0.1,10.0.0.0/8`, or the names
   * `loopback`, `linklocal`, `uniquelocal`).
   */
  TRUSTED_PROXIES: z
    .string()
    .default('')
    .transform((value, ctx) => {
      const trimmed = value.trim();
      if (trimmed === '') return false as const;
      if (/^\d+$/.test(trimmed)) return Number(trimmed);
      const entries = trimmed
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const entry of entries) {
        if (!isProxyAddress(entry)) {
          ctx.addIssue({
            code: 'custom',
            message: `"${entry}" ${ERROR_TEXT.config.notProxyAddress}`,
          });
          return z.NEVER;
        }
      }
      return entries;
    }),
  /** Public API v1: requests one account may make per window, all its keys together (429 with RateLimit-* headers beyond). */
  API_RATE_LIMIT: z.coerce.number().int().min(1).max(10_000_000).default(1200),
  /** Public API v1: the rate-limit window in seconds. */
  API_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Public API v1: how long a repeated Idempotency-Key waits for the first request, still running, before a 409. */
  API_IDEMPOTENCY_WAIT_SECONDS: z.coerce.number().min(0).max(120).default(15),
  /** Public API v1: the live bytes of files one account may keep uploaded (`POST /api/v1/files`), in MB; beyond, 409. */
  API_FILES_QUOTA_MB: z.coerce.number().int().min(10).max(1_000_000).default(200),
  /** Test e-mails, team invitations and sender confirmations one account may cause per hour (each recipient counts). */
  ACCOUNT_MAIL_QUOTA_PER_HOUR: z.coerce.number().int().min(1).max(100_000).default(50),
  /** Test e-mails per account per day to addresses outside its team and its verified senders. */
  TEST_MAIL_OUTSIDERS_PER_DAY: z.coerce.number().int().min(0).max(100_000).default(10),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** DNS servers of the one resolver (server/src/net/dns.ts), comma-separated `host` or `host:port`; empty = system's. */
  DNS_SERVERS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  // Billing: the operator's Pix receiver, top-up rules, payment webhook secret, low-balance warning.
  PIX_KEY: z.string().trim().min(1).max(77).default(PLACEHOLDER_PIX_KEY),
  PIX_MERCHANT_NAME: z.string().trim().min(1).default('Carteiro'),
  PIX_MERCHANT_CITY: z.string().trim().min(1).default('SAO PAULO'),
  TOPUP_MIN_MILLIS: z.coerce.number().int().min(10).default(10_000),
  TOPUP_EXPIRY_MINUTES: z.coerce.number().int().min(1).max(10_080).default(60),
  MERCADO_PAGO_WEBHOOK_SECRET: z.string().min(1).optional(),
  MERCADO_PAGO_ACCESS_TOKEN: z.string().min(1).optional(),
  /** Where top-ups are charged: static = BR Code to PIX_KEY confirmed by hand; pix-api; mercadopago. */
  PAYMENT_PROVIDER: z.enum(['static', 'pix-api', 'mercadopago']).default('static'),
  /** Seconds between two reconciliations of pending dynamic charges with the provider; 0 = off. */
  PAYMENT_RECONCILE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(60),
  MERCADO_PAGO_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.mercadopago.com'),
  /** BCB Pix API of the operator's bank (PSP): base URL (…/v2), OAuth2 token URL, client id/secret, mTLS files. */
  PIX_API_BASE_URL: z.url({ protocol: /^https$/ }).optional(),
  PIX_API_TOKEN_URL: z.url({ protocol: /^https$/ }).optional(),
  PIX_API_CLIENT_ID: z.string().min(1).optional(),
  PIX_API_CLIENT_SECRET: z.string().min(1).optional(),
  PIX_API_CERT_FILE: z.string().min(1).optional(),
  PIX_API_KEY_FILE: z.string().min(1).optional(),
  PIX_API_CA_FILE: z.string().min(1).optional(),
  /** Secret path segment of the webhook address registered at the PSP: PUBLIC_URL/api/webhooks/pix-api/<token>. */
  PIX_API_WEBHOOK_TOKEN: z
    .string()
    .regex(/^[A-Za-z0-9_-]{24,128}$/, ERROR_TEXT.config.webhookTokenChars)
    .optional(),
  LOW_BALANCE_THRESHOLD_MILLIS: z.coerce.number().int().min(0).default(5_000),
  // Sending engine. Relays: comma-separated smtp(s):// URLs; empty = SMTP_URL, else the mail catcher.
  SENDING_SMTP_URLS: z.string().default(''),
  /** Messages claimed and delivered together (one claim UPDATE, one outcome UPDATE). */
  SENDING_BATCH_SIZE: z.coerce.number().int().min(1).max(5000).default(200),
  /** Batches in flight at once per worker process (also the pooled SMTP connections per relay). */
  SENDING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(4),
  /** DKIM signing threads per worker process; unset = the cores the process may use, 0 = sign on the engine's thread. */
  SENDING_SIGNING_THREADS: z.coerce.number().int().min(0).max(256).optional(),
  /** Messages per second per relay per worker process; 0 = unlimited. */
  SENDING_RATE_PER_RELAY: z.coerce.number().min(0).default(0),
  /** First retry delay after a 4xx or connection failure; doubles per attempt up to the max. */
  SENDING_RETRY_BASE_SECONDS: z.coerce.number().min(0).default(300),
  SENDING_RETRY_MAX_SECONDS: z.coerce
    .number()
    .min(0)
    .default(4 * 3600),
  /** A message still failing temporarily this long after it was queued fails for good. */
  SENDING_RETRY_WINDOW_SECONDS: z.coerce
    .number()
    .min(0)
    .default(3 * 24 * 3600),
  /** Consecutive batches failing at the connection level (relay down, authentication) before the campaign pauses. */
  SENDING_PAUSE_AFTER_ERRORS: z.coerce.number().int().min(1).default(5),
  /** A message claimed longer than this by a worker that died is queued again (the in-flight window). */
  SENDING_LEASE_SECONDS: z.coerce.number().min(1).default(120),
  /** How often an idle worker looks for work, and how often due scheduled campaigns are started. */
  SENDING_POLL_MS: z.coerce.number().int().min(10).default(500),
  SENDING_SCHEDULE_SWEEP_SECONDS: z.coerce.number().min(1).default(15),
  /** DKIM: signing domain and selector, with an RSA-2048 and/or Ed25519 private key file (PEM). */
  DKIM_DOMAIN: z.string().min(1).optional(),
  DKIM_SELECTOR: z.string().min(1).default('carteiro'),
  DKIM_RSA_KEY_PATH: z.string().min(1).optional(),
  DKIM_ED25519_SELECTOR: z.string().min(1).optional(),
  DKIM_ED25519_KEY_PATH: z.string().min(1).optional(),
  /** Domain of the VERP return path b+<token>@BOUNCE_DOMAIN; default: PUBLIC_URL's host. */
  BOUNCE_DOMAIN: z.string().min(1).optional(),
  /** Domain of List-Id (and of Message-ID when the From domain is unusable, ADR 0011); default: PUBLIC_URL's host. */
  LIST_ID_DOMAIN: z.string().min(1).optional(),
  // Sender identities.
  /** The `include:` senders add to their SPF; default `_spf.<bounce domain>`. */
  SENDER_SPF_INCLUDE: z.string().min(1).optional(),
  /**
   * Links of messages on the sender's verified tracking host (links.<domain>, ADR 0012 "Tracking domains"). Turn off
   * until the reverse proxy serves TLS for those hosts (on-demand TLS asking /internal/tls-ask).
   */
  TRACKING_DOMAINS: z.enum(['on', 'off']).default('on'),
  /** Hours a sender address confirmation link stays valid. */
  SENDER_CONFIRM_HOURS: z.coerce.number().int().min(1).max(720).default(48),
  /** Sender domains are checked again by DNS this often (a DKIM record gone marks the domain broken). */
  SENDER_DOMAIN_RECHECK_MINUTES: z.coerce.number().int().min(1).default(360),
  // Automations.
  /** How often each worker enrolls contacts into automations and sends their due steps. */
  AUTOMATIONS_TICK_MS: z.coerce.number().int().min(100).max(3_600_000).default(15_000),
  // Tracking, unsubscribe, bounces.
  /** Inbound bounce SMTP receiver port; 0 = off; unset = 2526 in role all with the mail catcher on, else off. */
  BOUNCE_SMTP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  BOUNCE_SMTP_HOST: z.string().min(1).default('127.0.0.1'),
  /** Soft bounces of one contact after which it is treated as bounced (suppressed). */
  BOUNCE_SOFT_LIMIT: z.coerce.number().int().min(1).default(3),
  /** Auto-pause: deliveries before the rates are judged, and the hard-bounce and complaint rate limits. */
  PROTECTION_MIN_DELIVERIES: z.coerce.number().int().min(1).default(500),
  PROTECTION_HARD_BOUNCE_RATE: z.coerce.number().min(0).max(1).default(0.05),
  PROTECTION_COMPLAINT_RATE: z.coerce.number().min(0).max(1).default(0.001),
  /** Opens/clicks are written in batches this often; a non-browser request this soon after delivery is a machine. */
  TRACKING_FLUSH_MS: z.coerce.number().int().min(1).max(10_000).default(200),
  TRACKING_MACHINE_WINDOW_SECONDS: z.coerce.number().min(0).default(3),
  /** Amazon SES over SNS: allowed topic ARNs (comma-separated); empty = any topic with a valid AWS signature. */
  SES_SNS_TOPIC_ARNS: z.string().default(''),
  // Outbound webhooks.
  /** Development/tests only: let endpoints point at loopback/private addresses and use http://. Refused in production. */
  WEBHOOKS_ALLOW_PRIVATE_URLS: booleanFlag.default(false),
  /** One delivery attempt's whole budget (connect + answer). */
  WEBHOOKS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** Retries after the first attempt (timeouts, 5xx, 408, 429, connection errors); with the delays below ≈ 1 day. */
  WEBHOOKS_RETRY_LIMIT: z.coerce.number().int().min(0).max(50).default(12),
  /** First retry delay; each next retry waits twice the previous (± 10 % jitter), up to the max. */
  WEBHOOKS_RETRY_DELAY_SECONDS: z.coerce.number().int().min(0).default(60),
  WEBHOOKS_RETRY_DELAY_MAX_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .default(6 * 3600),
  /** An endpoint failing without a single success for this long is disabled and the account e-mailed. */
  WEBHOOKS_DISABLE_AFTER_HOURS: z.coerce.number().min(0).default(72),
  /** How often the dispatcher turns outbox events into deliveries (and how often idle lanes look for due ones). */
  WEBHOOKS_DISPATCH_MS: z.coerce.number().int().min(10).max(60_000).default(500),
  /** A delivery claimed by a worker that died is due again after this (keep it above WEBHOOKS_TIMEOUT_MS). */
  WEBHOOKS_LEASE_SECONDS: z.coerce.number().int().min(1).default(60),
  /** Delivery attempts in flight per worker process, all endpoints together. */
  WEBHOOKS_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(256),
  /** Delivery attempts in flight per endpoint and worker process: a slow endpoint holds at most this many. */
  WEBHOOKS_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(32),
  /**
   * Delivery attempts in flight per account and worker process, all its endpoints together (its slow, dead or new
   * endpoints hold at most twice this, queued included): however many slow or dead endpoints one account has, it
   * holds at most this share of WEBHOOKS_CONCURRENCY.
   */
  WEBHOOKS_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(64),
  /** Settled deliveries, their attempts and dispatched events older than this are swept (hourly, by the worker). */
  WEBHOOKS_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // Image uploads: local directory by default, S3-compatible when every S3_* below is set.
  /** Largest image accepted by POST /api/uploads/images (413 beyond). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(100 * 1024 * 1024)
    .default(5 * 1024 * 1024),
  /** Local storage directory; default DATA_DIR/uploads. */
  UPLOADS_DIR: z.string().min(1).optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  S3_REGION: z.string().min(1).optional(),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Public base URL of the bucket (CDN, custom domain); default S3_ENDPOINT/S3_BUCKET (path style). */
  S3_PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  // Operations: Prometheus /metrics. auto = loopback clients only (not proxied); true = everyone; false = off.
  METRICS_ENABLED: booleanFlag.default('auto'),
  /** When set, /metrics also answers any client presenting `Authorization: Bearer <token>`. */
  METRICS_TOKEN: z.string().min(16, ERROR_TEXT.config.metricsTokenLength).optional(),
  /** Threads rendering sender templates on demand (previews, test sends, the public viewer); 0 = as many as cores, up to 2. */
  TEMPLATE_RENDER_WORKERS: z.coerce.number().int().min(0).max(32).default(0),
  /** A render on demand running longer than this is killed (its thread replaced) and answered with a pt-BR 400. */
  TEMPLATE_RENDER_DEADLINE_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
});

export type Env = z.infer<typeof envSchema>;

export interface S3Config {
  bucket: string;
  endpoint: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  publicUrl: string;
}

export interface Config
  extends Omit<
    Env,
    | 'MAIL_CATCHER'
    | 'PUBLIC_URL'
    | 'TRUSTED_ORIGINS'
    | 'DATA_DIR'
    | 'UPLOADS_DIR'
    | 'METRICS_ENABLED'
    | 'WEBHOOKS_ALLOW_PRIVATE_URLS'
    | 'TRUSTED_PROXIES'
  > {
  /**
   * Fastify's `trustProxy` from TRUSTED_PROXIES: false (nobody), the proxies' addresses/CIDRs, or — for a hop
   * count — a function trusting the socket peer and the hops after it (Fastify's own number form trusts nobody).
   */
  trustProxy: false | string[] | ((address: string, hop: number) => boolean);
  /** Webhook endpoints may be loopback/private and http:// (never in production). */
  WEBHOOKS_ALLOW_PRIVATE_URLS: boolean;
  isProduction: boolean;
  PUBLIC_URL: string;
  /** Origins a browser may send state-changing requests from (CSRF check). */
  trustedOrigins: string[];
  DATA_DIR: string;
  /** The built-in mail catcher: on by default when no SMTP relay is configured, never implicitly with one. */
  mailCatcherEnabled: boolean;
  googleSignInEnabled: boolean;
  /** Local upload directory (absolute). */
  UPLOADS_DIR: string;
  /** S3-compatible storage for uploads, when all S3_* are set; null = local directory. */
  s3: S3Config | null;
  /** /metrics: 'loopback' (default), 'open', or 'off'. */
  metricsAccess: 'loopback' | 'open' | 'off';
  /** The BCB Pix API client when PAYMENT_PROVIDER=pix-api. */
  pixApi: PixApiConfig | null;
}

/** The BCB Pix API client settings, secrets read from files (never from the database). */
export interface PixApiConfig {
  baseUrl: string;
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  certPem: string;
  keyPem: string;
  caPem: string | null;
  webhookToken: string;
}

export class ConfigError extends Error {}

/** Secrets may come as `<NAME>_FILE` (Docker/Kubernetes secrets): the file's content, trailing newline trimmed. */
const SECRET_FILE_VARS = [
  'PIX_API_CLIENT_SECRET',
  'PIX_API_WEBHOOK_TOKEN',
  'MERCADO_PAGO_ACCESS_TOKEN',
  'MERCADO_PAGO_WEBHOOK_SECRET',
] as const;

function withSecretFiles(env: Record<string, string | undefined>): Record<string, string | undefined> {
  const out = { ...env };
  for (const name of SECRET_FILE_VARS) {
    const file = env[`${name}_FILE`];
    if (!file || env[name]) continue;
    try {
      out[name] = fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch {
      throw new ConfigError(
        `Configuração inválida / invalid configuration:\n  - ${name}_FILE: arquivo ilegível / unreadable file`,
      );
    }
  }
  return out;
}

function readPem(name: string, file: string): string {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    throw new ConfigError(
      `Configuração inválida / invalid configuration:\n  - ${name}: arquivo ilegível / unreadable file`,
    );
  }
}

function pixApiConfig(e: Env): PixApiConfig | null {
  if (e.PAYMENT_PROVIDER !== 'pix-api') return null;
  const required = [
    'PIX_API_BASE_URL',
    'PIX_API_CLIENT_ID',
    'PIX_API_CLIENT_SECRET',
    'PIX_API_CERT_FILE',
    'PIX_API_KEY_FILE',
    'PIX_API_WEBHOOK_TOKEN',
  ] as const;
  const missing = required.filter((name) => !e[name]);
  if (missing.length > 0) {
    throw new ConfigError(
      `Configuração inválida / invalid configuration:\n${missing.map((name) => `  - ${name}: obrigatório com PAYMENT_PROVIDER=pix-api / required with PAYMENT_PROVIDER=pix-api`).join('\n')}`,
    );
  }
  const baseUrl = (e.PIX_API_BASE_URL as string).replace(/\/+$/, '');
  return {
    baseUrl,
    tokenUrl: e.PIX_API_TOKEN_URL ?? `${new URL(baseUrl).origin}/oauth/token`,
    clientId: e.PIX_API_CLIENT_ID as string,
    clientSecret: e.PIX_API_CLIENT_SECRET as string,
    certPem: readPem('PIX_API_CERT_FILE', e.PIX_API_CERT_FILE as string),
    keyPem: readPem('PIX_API_KEY_FILE', e.PIX_API_KEY_FILE as string),
    caPem: e.PIX_API_CA_FILE ? readPem('PIX_API_CA_FILE', e.PIX_API_CA_FILE) : null,
    webhookToken: e.PIX_API_WEBHOOK_TOKEN as string,
  };
}

function trustProxyOf(setting: Env['TRUSTED_PROXIES']): Config['trustProxy'] {
  if (typeof setting !== 'number') return setting;
  const hops = setting;
  // proxy-addr asks about the socket peer (hop 0), then each X-Forwarded-For entry from the right.
  return hops === 0 ? false : (_address: string, hop: number) => hop < hops;
}

/** Parses the environment once; throws ConfigError naming every bad variable (pt-BR and English). */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blankAsUnset = withSecretFiles(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== '')),
  );
  const parsed = envSchema.safeParse(blankAsUnset);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Configuração inválida / invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  if (isProduction && !e.AUTH_SECRET) {
    throw new ConfigError(
      'Configuração inválida / invalid configuration:\n  - AUTH_SECRET: obrigatório em produção / required in production',
    );
  }
  if (isProduction && e.WEBHOOKS_ALLOW_PRIVATE_URLS === true) {
    throw new ConfigError(
      'Configuração inválida / invalid configuration:\n  - WEBHOOKS_ALLOW_PRIVATE_URLS: proibido em produção / not allowed in production',
    );
  }
  // The mail catcher publishes every message it catches at /dev/mailbox — password resets and magic links
  // included — to anyone. Production never runs it, whether asked for or implied by a missing relay.
  if (isProduction && e.MAIL_CATCHER === true) {
    throw new ConfigError(
      'Configuração inválida / invalid configuration:\n  - MAIL_CATCHER: o coletor de e-mails de desenvolvimento (/dev/mailbox) é proibido em produção; configure SMTP_URL / the development mail catcher is not allowed in production; set SMTP_URL',
    );
  }
  if (isProduction && !e.SMTP_URL) {
    throw new ConfigError(
      'Configuração inválida / invalid configuration:\n  - SMTP_URL: obrigatório em produção — sem um relay, o Carteiro ligaria o coletor de e-mails de desenvolvimento, que publica as mensagens em /dev/mailbox / required in production: without a relay the development mail catcher would publish every message at /dev/mailbox',
    );
  }
  // The static BR Code carries PIX_KEY: the placeholder would publish a code nobody can pay (money sent nowhere).
  if (isProduction && e.PAYMENT_PROVIDER === 'static' && e.PIX_KEY === PLACEHOLDER_PIX_KEY) {
    throw new ConfigError(
      `Configuração inválida / invalid configuration:\n  - PIX_KEY: defina a chave Pix que recebe as recargas; "${PLACEHOLDER_PIX_KEY}" é só um exemplo de desenvolvimento / set the Pix key that receives top-ups; "${PLACEHOLDER_PIX_KEY}" is a development placeholder`,
    );
  }
  if (e.MIN_PASSWORD_LENGTH > e.MAX_PASSWORD_LENGTH) {
    throw new ConfigError(
      'Configuração inválida / invalid configuration:\n  - MIN_PASSWORD_LENGTH: maior que MAX_PASSWORD_LENGTH / greater than MAX_PASSWORD_LENGTH',
    );
  }
  const s3Vars = ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const s3Missing = s3Vars.filter((name) => !e[name]);
  if (s3Missing.length > 0 && s3Missing.length < s3Vars.length) {
    throw new ConfigError(
      `Configuração inválida / invalid configuration:\n${s3Missing.map((name) => `  - ${name}: obrigatório quando outro S3_* está definido / required when another S3_* is set`).join('\n')}`,
    );
  }
  const s3: S3Config | null =
    e.S3_BUCKET && e.S3_ENDPOINT && e.S3_REGION && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
      ? {
          bucket: e.S3_BUCKET,
          endpoint: e.S3_ENDPOINT.replace(/\/+$/, ''),
          region: e.S3_REGION,
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          publicUrl: (e.S3_PUBLIC_URL ?? `${e.S3_ENDPOINT.replace(/\/+$/, '')}/${e.S3_BUCKET}`).replace(/\/+$/, ''),
        }
      : null;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const trustedOrigins = [
    new URL(publicUrl).origin,
    ...e.TRUSTED_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ];
  if (e.PAYMENT_PROVIDER === 'mercadopago' && !(e.MERCADO_PAGO_ACCESS_TOKEN && e.MERCADO_PAGO_WEBHOOK_SECRET)) {
    throw new ConfigError(
      'Configuração inválida / invalid configuration:\n  - MERCADO_PAGO_ACCESS_TOKEN, MERCADO_PAGO_WEBHOOK_SECRET: obrigatórios com PAYMENT_PROVIDER=mercadopago / required with PAYMENT_PROVIDER=mercadopago',
    );
  }
  const pixApi = pixApiConfig(e);
  const mailCatcherEnabled = !isProduction && (e.MAIL_CATCHER === 'auto' ? !e.SMTP_URL : e.MAIL_CATCHER);
  return {
    ...e,
    isProduction,
    PUBLIC_URL: publicUrl,
    trustedOrigins,
    DATA_DIR: path.resolve(e.DATA_DIR),
    mailCatcherEnabled,
    googleSignInEnabled: Boolean(e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET),
    UPLOADS_DIR: path.resolve(e.UPLOADS_DIR ?? path.join(e.DATA_DIR, 'uploads')),
    s3,
    WEBHOOKS_ALLOW_PRIVATE_URLS: !isProduction && e.WEBHOOKS_ALLOW_PRIVATE_URLS === true,
    trustProxy: trustProxyOf(e.TRUSTED_PROXIES),
    metricsAccess: e.METRICS_ENABLED === 'auto' ? 'loopback' : e.METRICS_ENABLED ? 'open' : 'off',
    pixApi,
  };
}

/**
 * The secret that signs sessions and tokens. In production it must be configured; in development one is
 * generated once and kept in DATA_DIR so sessions survive restarts.
 */
export function resolveAuthSecret(config: Config): string {
  if (config.AUTH_SECRET) return config.AUTH_SECRET;
  const file = path.join(config.DATA_DIR, 'auth-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(config.DATA_DIR, { recursive: true });
  const secret = (globalThis.crypto.randomUUID() + globalThis.crypto.randomUUID()).replace(/-/g, '');
  fs.writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
