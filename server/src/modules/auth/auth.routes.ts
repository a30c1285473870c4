import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import type { Database } from '../../db/database';
import { AppError } from '../../http/app-error';
import { sendError } from '../../http/error-handler';
import type { Mailer } from '../../mail/mailer';
import { AUTH_BASE_PATH, type Auth, CLIENT_IP_HEADER, createAuth, FRESH_SESSION_SECONDS } from './auth';
import { mapAuthError } from './auth-errors';
import { verifyAgainstDummy } from './password-hash';
import { assertPasswordAllowed, signUpEmail } from './password-policy';
import { type AuthPorts, noSessionError } from './request-actor';
import { claimSignInAttempt, clearSignInFailures } from './sign-in-throttle';

declare module 'fastify' {
  interface FastifyInstance {
    /** The better-auth instance (created by authPlugin from config + database + mailer). */
    auth: Auth;
    authConfig: Config;
    authDatabase: Database;
    authMailer: Mailer;
    /** What requireActor and the session hook ask of accounts and billing (wired by buildApp). */
    authPorts: AuthPorts;
  }
}

export interface AuthPluginOptions {
  config: Config;
  database: Database;
  mailer: Mailer;
  logger: Logger;
  ports: AuthPorts;
}

/** Paths that change identity and need a recent sign-in (requires-recent-login). */
const FRESH_SESSION_PATHS = new Set(['/change-email', '/change-password', '/delete-user']);

/** Builds the Web Request better-auth expects from the Fastify request (body re-serialised, client IP pinned). */
function toWebRequest(request: FastifyRequest, config: Config, body: unknown): Request {
  const url = new URL(request.url, config.PUBLIC_URL);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === CLIENT_IP_HEADER || name === 'content-length') continue;
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else headers.set(name, String(value));
  }
  headers.set(CLIENT_IP_HEADER, request.ip);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && body !== undefined && body !== null;
  if (hasBody && !headers.has('content-type')) headers.set('content-type', 'application/json');
  return new Request(url, {
    method: request.method,
    headers,
    body: hasBody ? (typeof body === 'string' ? body : JSON.stringify(body)) : undefined,
  });
}

/**
 * Mounts better-auth under /api/auth and decorates the root instance with it (the plugin skips encapsulation,
 * like fastify-plugin) so requireActor works in every module.
 */
async function authPluginImpl(app: FastifyInstance, options: AuthPluginOptions): Promise<void> {
  const { config, database, mailer, logger, ports } = options;
  const auth = createAuth({ config, db: database.db, mailer, logger, isUserDisabled: ports.isUserDisabled });
  const signInThrottle = {
    freeFailures: config.SIGN_IN_FREE_FAILURES,
    maxDelaySeconds: config.SIGN_IN_DELAY_MAX_SECONDS,
  };
  app.decorate('auth', auth);
  app.decorate('authConfig', config);
  app.decorate('authDatabase', database);
  app.decorate('authMailer', mailer);
  app.decorate('authPorts', ports);

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const path = new URL(request.url, config.PUBLIC_URL).pathname.slice(AUTH_BASE_PATH.length) || '/';
    let body = request.body as Record<string, unknown> | undefined;
    // The address a new password belongs to (the policy refuses one that contains it).
    let passwordEmail = signUpEmail(path, body);

    // better-auth's own error page is English and unbranded: a failed sign-in link or Google return lands on the
    // login page, which says in pt-BR that the link did not work.
    if (path === '/error' && request.method === 'GET') return reply.redirect('/auth/login?erro=invalid-action-code');

    if (FRESH_SESSION_PATHS.has(path)) {
      const session = await auth.api.getSession({ headers: toWebRequest(request, config, undefined).headers });
      if (!session) return sendError(reply, noSessionError(request));
      passwordEmail = session.user.email;
      if (Date.now() - new Date(session.session.createdAt).getTime() >= FRESH_SESSION_SECONDS * 1000) {
        return sendError(reply, new AppError('requires-recent-login'));
      }
      // A password change always signs out every other session.
      if (path === '/change-password' && body && typeof body === 'object')
        body = { ...body, revokeOtherSessions: true };
    }

    if (path === '/reset-password' && body && typeof body === 'object' && typeof body.token === 'string') {
      const reset = await resetTokenUser(auth, body.token);
      if (reset?.expired) return sendError(reply, new AppError('expired-action-code'));
      passwordEmail = reset?.email ?? null;
    }

    try {
      assertPasswordAllowed(path, body, passwordEmail);
    } catch (error) {
      if (error instanceof AppError) return sendError(reply, error);
      throw error;
    }

    // The per-account delay, on top of better-auth's per-address limit (inside the handler).
    const signInEmail = path === '/sign-in/email' && typeof body?.email === 'string' ? body.email : null;
    if (signInEmail) {
      const claim = await claimSignInAttempt(database.db, signInEmail, signInThrottle);
      if (!claim.allowed) return sendError(reply, signInDelayedError(claim.retryAfterSeconds));
    }

    const response = await auth.handler(toWebRequest(request, config, body));
    if (signInEmail && response.status === 200) await clearSignInFailures(database.db, signInEmail);

    if (response.status >= 400) {
      const text = await response.text();
      let parsed: { code?: string; message?: string } | null = null;
      try {
        parsed = text ? (JSON.parse(text) as { code?: string; message?: string }) : null;
      } catch {
        parsed = null;
      }
      const error = mapAuthError(path, response.status, parsed, config.MIN_PASSWORD_LENGTH, config.MAX_PASSWORD_LENGTH);
      if (error.code === 'invalid-credential' && !parsed?.code?.includes('PASSWORD')) {
        // Unknown e-mail: spend the time a password check takes, so timing does not tell either.
        await verifyAgainstDummy(typeof body?.password === 'string' ? body.password : '');
      } else if (error.code === 'email-already-in-use') {
        // A new account costs a password hash: a taken address spends the same, so only the answer tells (the
        // product's choice, docs/threat-model.md), not the clock.
        await verifyAgainstDummy(typeof body?.password === 'string' ? body.password : '');
      }
      if (error.status >= 500) request.log.error({ status: response.status, body: parsed }, 'auth request failed');
      if (error.status === 429) {
        const retryAfter = response.headers.get('x-retry-after') ?? response.headers.get('retry-after') ?? '60';
        reply.header('retry-after', retryAfter);
      }
      for (const cookie of response.headers.getSetCookie()) reply.header('set-cookie', cookie);
      // A link opened in the browser (magic link, e-mail confirmation, Google's return) lands on the login page,
      // which says why, rather than on a JSON error.
      if (request.method === 'GET' && error.code === 'user-disabled') {
        return reply.redirect(`/auth/login?erro=${error.code}`);
      }
      return sendError(reply, error);
    }

    if (path === '/request-password-reset') {
      // better-auth's answer is English; the same pt-BR sentence for every address (registered or not).
      reply.status(response.status);
      return reply.send({ status: true, message: PASSWORD_RESET_REQUESTED_MESSAGE });
    }

    reply.status(response.status);
    for (const [name, value] of response.headers) {
      if (name === 'set-cookie' || name === 'content-length') continue;
      reply.header(name, value);
    }
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);
    const payload = await response.text();
    return reply.send(payload);
  };

  app.route({ method: ['GET', 'POST'], url: `${AUTH_BASE_PATH}/*`, handler });
}

export const PASSWORD_RESET_REQUESTED_MESSAGE =
  'Se este e-mail tiver uma conta no Carteiro, enviamos um link para criar uma nova senha. Confira sua caixa de entrada.';

/** The answer while an e-mail's sign-in delay runs: the same for registered and unknown addresses. */
function signInDelayedError(retryAfterSeconds: number): AppError {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  const wait =
    retryAfterSeconds < 60 ? `${retryAfterSeconds} segundos` : minutes === 1 ? '1 minuto' : `${minutes} minutos`;
  return new AppError(
    'too-many-requests',
    `Muitas tentativas de entrar com este e-mail. Aguarde ${wait} e tente de novo, ou entre com um link enviado por e-mail.`,
    { retryAfterSeconds },
  );
}

/**
 * The user a reset link is for (the password policy needs the address) and whether the link expired: better-auth
 * answers INVALID_TOKEN for expired reset tokens too; we tell the user it expired. Null for an unknown token.
 */
async function resetTokenUser(auth: Auth, token: string): Promise<{ expired: boolean; email: string | null } | null> {
  const ctx = await auth.$context;
  const row = await ctx.internalAdapter.findVerificationValue(`reset-password:${token}`);
  if (!row) return null;
  const user = await ctx.internalAdapter.findUserById(row.value);
  return { expired: new Date(row.expiresAt).getTime() < Date.now(), email: user?.email ?? null };
}

(authPluginImpl as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true;
export const authPlugin = authPluginImpl;
