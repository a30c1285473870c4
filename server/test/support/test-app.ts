import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino, { type Logger } from 'pino';
import { buildApp } from '../../src/app';
import type { Clock } from '../../src/clock';
import { type Config, loadConfig } from '../../src/config';
import { type MailCatcher, startMailCatcher } from '../../src/mail/mail-catcher';
import type { Mailer } from '../../src/mail/mailer';
import { suppressionReasonFor } from '../../src/modules/contacts/suppression';
import {
  type DevMailDetail,
  findDevMail,
  listDevMail,
  storeCaughtMail,
} from '../../src/modules/dev-mailbox/dev-mailbox';
import { createPlatformMailer } from '../../src/worker/sending-runtime';
import { createTestDatabase, type DatabaseKind } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Awaited<ReturnType<typeof createTestDatabase>>;
  mailer: Mailer;
  /** The origin the CSRF check trusts: send it as `origin` on state-changing requests. */
  origin: string;
  /** Every message the app sent, newest first, parsed — read through real SMTP from the mail catcher. */
  sentMail(): Promise<DevMailDetail[]>;
  close(): Promise<void>;
}

/**
 * Boots the whole app on a fresh database of `kind`, with the real mailer sending over SMTP to a catcher on a
 * random loopback port. Use app.inject() for requests.
 */
export async function createTestApp(
  kind: DatabaseKind,
  env: Record<string, string> = {},
  /** Extra routes a test needs, registered before the app is ready. */
  addRoutes?: (app: FastifyInstance) => void,
  /** A logger to read what the app logs (default: silent); the clock of the app's time decisions (test-clock.ts). */
  options: { logger?: Logger; clock?: Clock } = {},
): Promise<TestApp> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-test-'));
  const logger = options.logger ?? pino({ level: 'silent' });
  const database = await createTestDatabase(kind);
  const catcher: MailCatcher = await startMailCatcher({
    port: 0,
    logger,
    store: (mail) => storeCaughtMail(database.db, mail),
  });
  // Production refuses the mail catcher: there the test catcher is "the relay" (SMTP_URL), with no /dev/mailbox.
  const mail =
    env.NODE_ENV === 'production'
      ? // … and a real-looking Pix key, since production refuses the development placeholder.
        { MAIL_CATCHER: 'off', SMTP_URL: `smtp://127.0.0.1:${catcher.port}`, PIX_KEY: 'financeiro@carteiro.example' }
      : { MAIL_CATCHER: 'on', MAIL_CATCHER_PORT: '0' };
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...mail,
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123',
    ...env,
  });
  const mailer = createPlatformMailer({
    config,
    db: database.db,
    smtpUrl: `smtp://127.0.0.1:${catcher.port}`,
    logger,
    suppressedFor: (accountId, email) => suppressionReasonFor(database.db, accountId, email, 'system'),
  });
  const app = await buildApp({ config, database, mailer, logger, webDistDir: null, clock: options.clock });
  addRoutes?.(app);
  await app.ready();
  return {
    app,
    config,
    database,
    mailer,
    origin: config.trustedOrigins[0] as string,
    async sentMail() {
      const list = await listDevMail(database.db);
      const details = await Promise.all(list.map((m) => findDevMail(database.db, m.id)));
      return details.filter((m): m is DevMailDetail => m !== null);
    },
    async close() {
      await app.close();
      await mailer.close();
      await catcher.close();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
