import type { FastifyInstance } from 'fastify';
import { AppError } from './app-error';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false on routes that third parties call without a browser session (one-click unsubscribe, webhooks). */
    csrf?: boolean;
  }
}

/**
 * CSRF protection for every state-changing route (Origin check, OWASP "verifying origin with standard headers"):
 * a browser always sends Origin on POST/PUT/PATCH/DELETE, so a foreign Origin is refused. A request without
 * Origin is accepted only when it carries no cookie (a server-to-server API call has no ambient credentials),
 * or when its Referer is trusted.
 */
export function registerCsrfProtection(app: FastifyInstance, trustedOrigins: string[]): void {
  const trusted = new Set(trustedOrigins);
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.routeOptions.config?.csrf === false) return;
    const origin = request.headers.origin;
    if (origin) {
      if (!trusted.has(origin)) throw new AppError('csrf_rejected');
      return;
    }
    if (!request.headers.cookie) return;
    const referer = request.headers.referer;
    if (referer && URL.canParse(referer) && trusted.has(new URL(referer).origin)) return;
    throw new AppError('csrf_rejected');
  });
}
