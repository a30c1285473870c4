import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { APIError } from 'better-auth/api';
import { magicLink } from 'better-auth/plugins/magic-link';
import type { Logger } from 'pino';
import { type Config, resolveAuthSecret } from '../../config';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { authAccounts, authRateLimits, authSessions, authUsers, authVerifications } from './auth.db';
import { changeEmailEmail, magicLinkEmail, resetPasswordEmail, verificationEmail } from './auth-emails';
import { hashPassword, verifyPassword } from './password-hash';

export const AUTH_BASE_PATH = '/api/auth';
/** The header the Fastify bridge sets from request.ip (Fastify's trustProxy decides); any incoming copy is dropped. */
export const CLIENT_IP_HEADER = 'x-carteiro-client-ip';
/** A session older than this must sign in again before changing e-mail or password (requires-recent-login). */
export const FRESH_SESSION_SECONDS = 15 * 60;
export const MAGIC_LINK_EXPIRES_SECONDS = 15 * 60;
export const RESET_PASSWORD_EXPIRES_SECONDS = 60 * 60;

export interface AuthDeps {
  config: Config;
  db: Db;
  mailer: Mailer;
  logger: Logger;
  /** True when an operator blocked the user (billing's, passed in: auth sits below billing). */
  isUserDisabled(db: Db, userId: string): Promise<boolean>;
}

/**
 * The better-auth instance: e-mail + password (argon2id), e-mail verification, magic link, password reset,
 * Google when configured; sessions, verification tokens and rate-limit counters in our database. Users an
 * operator blocked (billing/user-access) cannot start a session.
 */
export function createAuth(deps: AuthDeps) {
  const { config, db, mailer, logger, isUserDisabled } = deps;
  const log = logger.child({ module: 'auth' });

  const send = (to: string, mail: { subject: string; html: string; text: string }) => mailer.send({ to, ...mail });
  /** Sends without making the answer wait for SMTP, so known and unknown e-mails answer alike. */
  const sendInBackground = (to: string, mail: { subject: string; html: string; text: string }) => {
    send(to, mail).catch((error: unknown) => log.warn({ err: error }, 'identity e-mail not sent'));
  };

  return betterAuth({
    appName: 'Carteiro',
    baseURL: config.PUBLIC_URL,
    basePath: AUTH_BASE_PATH,
    secret: resolveAuthSecret(config),
    trustedOrigins: config.trustedOrigins,
    telemetry: { enabled: false },
    logger: {
      level: 'warn',
      log: (level, message, ...args) => {
        const fn =
          level === 'error' ? log.error.bind(log) : level === 'warn' ? log.warn.bind(log) : log.debug.bind(log);
        fn({ args }, message);
      },
    },
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: {
        auth_users: authUsers,
        auth_sessions: authSessions,
        auth_accounts: authAccounts,
        auth_verifications: authVerifications,
        auth_rate_limits: authRateLimits,
      },
    }),
    user: {
      modelName: 'auth_users',
      changeEmail: {
        enabled: true,
        // A verified user confirms from the current address first; better-auth then verifies the new one.
        sendChangeEmailConfirmation: async ({ user, newEmail, url }) => {
          await send(user.email, changeEmailEmail({ name: user.name, newEmail, url }));
        },
      },
    },
    session: {
      modelName: 'auth_sessions',
      freshAge: FRESH_SESSION_SECONDS,
      expiresIn: 60 * 60 * 24 * 30,
      updateAge: 60 * 60 * 24,
    },
    account: { modelName: 'auth_accounts' },
    databaseHooks: {
      session: {
        create: {
          // A user blocked by an operator starts no session, whichever way they sign in (spec §8 user-disabled).
          before: async (session) => {
            if (await isUserDisabled(db, session.userId)) {
              throw APIError.from('FORBIDDEN', { code: 'USER_DISABLED', message: 'User disabled by an operator' });
            }
          },
        },
      },
    },
    verification: { modelName: 'auth_verifications' },
    rateLimit: {
      enabled: true,
      storage: 'database',
      modelName: 'auth_rate_limits',
      window: 60,
      max: 100,
      customRules: {
        '/sign-in/*': { window: 60, max: config.AUTH_RATE_LIMIT_PER_MINUTE },
        '/sign-up/*': { window: 60, max: config.AUTH_RATE_LIMIT_PER_MINUTE },
        '/request-password-reset': { window: 60, max: config.AUTH_RATE_LIMIT_PER_MINUTE },
        '/reset-password': { window: 60, max: config.AUTH_RATE_LIMIT_PER_MINUTE + 2 },
        '/send-verification-email': { window: 60, max: config.AUTH_RATE_LIMIT_PER_MINUTE },
        '/change-password': { window: 60, max: 5 },
        '/change-email': { window: 60, max: 5 },
        '/magic-link/verify': { window: 60, max: 10 },
        '/get-session': false,
      },
    },
    advanced: {
      useSecureCookies: config.isProduction,
      cookiePrefix: 'carteiro',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure: config.isProduction, path: '/' },
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
    },
    emailAndPassword: {
      enabled: true,
      autoSignIn: true,
      minPasswordLength: config.MIN_PASSWORD_LENGTH,
      maxPasswordLength: config.MAX_PASSWORD_LENGTH,
      password: { hash: hashPassword, verify: verifyPassword },
      resetPasswordTokenExpiresIn: RESET_PASSWORD_EXPIRES_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) => {
        const url = `${config.PUBLIC_URL}/auth/reset-password?token=${encodeURIComponent(token)}`;
        sendInBackground(
          user.email,
          resetPasswordEmail({ name: user.name, url, expiresInMinutes: RESET_PASSWORD_EXPIRES_SECONDS / 60 }),
        );
      },
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: true,
      expiresIn: 60 * 60 * 24,
      sendVerificationEmail: async ({ user, url }) => {
        await send(user.email, verificationEmail({ name: user.name, url }));
      },
    },
    socialProviders:
      config.googleSignInEnabled && config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET
        ? { google: { clientId: config.GOOGLE_CLIENT_ID, clientSecret: config.GOOGLE_CLIENT_SECRET } }
        : {},
    plugins: [
      magicLink({
        expiresIn: MAGIC_LINK_EXPIRES_SECONDS,
        storeToken: 'hashed',
        sendMagicLink: async ({ email, url }) => {
          sendInBackground(email, magicLinkEmail({ url, expiresInMinutes: MAGIC_LINK_EXPIRES_SECONDS / 60 }));
        },
      }),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;
