import type { FastifyInstance } from 'fastify';
import { AppError } from '../../http/app-error';
import { TRACKING_LABEL } from '../sender-identities/dns-records';

/**
 * The routes a message's links reach, by route pattern: the open pixel, the click redirect, the unsubscribe page
 * with its forms and the RFC 8058 one-click POST. Nothing else answers on a tracking host.
 */
const TRACKING_ROUTES = new Set([
  '/o/:token',
  '/c/:token',
  '/u/:token',
  '/u/:token/confirm',
  '/u/:token/preferences',
  '/u/:token/resubscribe',
]);

/** "Ver no navegador" is a page of the web app: on a tracking host it is sent on to PUBLIC_URL. */
const BROWSER_VIEW = /^\/campaign\/[^/?#]+\/template-viewer\/?$/;

/** Whether `hostname` is a sender's tracking host (`links.<domain>`), not the app's own host. */
export function isTrackingHostname(hostname: string, publicHost: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return host !== publicHost && host.startsWith(`${TRACKING_LABEL}.`) && host.length > TRACKING_LABEL.length + 1;
}

/**
 * A sender's tracking host (`links.<domain>` CNAMEd to PUBLIC_URL's host, ADR 0012 "Tracking domains") reaches
 * this same server. On it, only the tracking routes answer: everything else (dashboard, API, auth, SPA, health,
 * the TLS ask) is a 404, so a sender's domain cannot be used to show our login or dashboard under its name. The
 * "ver no navegador" page is redirected to PUBLIC_URL. Registered before CSRF, so a foreign POST gets 404 too.
 */
export function registerTrackingHostGuard(app: FastifyInstance, options: { publicUrl: string }): void {
  const publicHost = new URL(options.publicUrl).hostname.toLowerCase();
  app.addHook('onRequest', async (request, reply) => {
    if (!isTrackingHostname(request.hostname, publicHost)) return;
    const route = request.routeOptions.url;
    if (route !== undefined && TRACKING_ROUTES.has(route)) return;
    const path = request.url.split('?', 1)[0] ?? '/';
    if ((request.method === 'GET' || request.method === 'HEAD') && BROWSER_VIEW.test(path)) {
      return reply.code(302).header('cache-control', 'no-store').redirect(`${options.publicUrl}${request.url}`);
    }
    throw new AppError('not_found');
  });
}
