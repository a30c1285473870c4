import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type Clock, systemClock } from '../../clock';
import type { Db } from '../../db/database';
import { findCampaignLink } from './campaign-links';
import type { EventRecorder } from './event-recorder';
import { classifyRequest } from './machine-detection';
import { verifyTrackingToken } from './tracking-token';

/** The smallest transparent 1×1 GIF (42 bytes). */
export const PIXEL_GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const NOT_FOUND_PAGE = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Link inválido</title></head><body style="font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem"><h1>Link inválido</h1><p>Este link não existe ou foi alterado. Confira o endereço no e-mail recebido.</p></body></html>`;

function requestFacts(request: FastifyRequest) {
  const userAgent = String(request.headers['user-agent'] ?? '');
  return { method: request.method, userAgent, ip: request.ip };
}

/**
 * The hot public routes log at warn: no "incoming request"/"request completed" line pair per open and click
 * (at info those two JSON lines cost about as much CPU as answering the request). Errors are still logged, and
 * every answer is counted by route and status in /metrics (carteiro_http_requests_total) and, for the pixel
 * and the redirect, written as a message_events row.
 */
const HOT_ROUTE = { logLevel: 'warn' } as const;

/** Neither the GIF nor the redirect is a document: nothing may load from them (and the app's long CSP is spared). */
const NOTHING = "default-src 'none'";

const PIXEL_HEADERS = {
  'cache-control': 'no-store, no-cache, must-revalidate, max-age=0',
  pragma: 'no-cache',
  expires: '0',
  'content-type': 'image/gif',
  'content-security-policy': NOTHING,
};

/**
 * Public tracking endpoints (no session, no CSRF: GET/HEAD only). The pixel always answers the GIF (a bad
 * token is simply not recorded); the click redirect answers 404 with no Location unless the signed token names
 * a stored link. Query strings are never read. Neither waits for the database to write the event (see
 * EventRecorder); the redirect reads its target from the per-process link cache (findCampaignLink), so after
 * the first click on a link both answer from memory: one HMAC check, the machine classification, a redirect.
 */
export const trackingRoutes: FastifyPluginAsync<{
  db: Db;
  recorder: EventRecorder;
  /** When an open or click happened: it decides whether it fell in the machine window after delivery. */
  clock?: Clock;
}> = async (app, { db, recorder, clock = systemClock }) => {
  const sendPixel = (reply: FastifyReply) => reply.headers(PIXEL_HEADERS).send(PIXEL_GIF);

  app.get<{ Params: { token: string } }>('/o/:token', HOT_ROUTE, async (request, reply) => {
    const raw = request.params.token;
    const parsed = raw.endsWith('.gif') ? verifyTrackingToken(raw.slice(0, -4)) : null;
    if (parsed && parsed.linkId === 0) {
      const facts = requestFacts(request);
      const verdict = classifyRequest(facts);
      recorder.record({
        messageToken: parsed.messageToken,
        kind: 'open',
        linkId: null,
        machine: verdict.machine,
        nonBrowser: verdict.nonBrowser,
        userAgent: facts.userAgent,
        ip: facts.ip,
        at: clock(),
      });
    }
    return sendPixel(reply);
  });

  app.get<{ Params: { token: string } }>('/c/:token', HOT_ROUTE, async (request, reply) => {
    const parsed = verifyTrackingToken(request.params.token);
    const link = parsed && parsed.linkId > 0 ? await findCampaignLink(db, parsed.linkId) : null;
    if (!parsed || !link) {
      return reply.code(404).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(NOT_FOUND_PAGE);
    }
    const facts = requestFacts(request);
    const verdict = classifyRequest(facts);
    recorder.record({
      messageToken: parsed.messageToken,
      kind: 'click',
      linkId: parsed.linkId,
      machine: verdict.machine,
      nonBrowser: verdict.nonBrowser,
      userAgent: facts.userAgent,
      ip: facts.ip,
      at: clock(),
    });
    return reply
      .code(302)
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .header('content-security-policy', NOTHING)
      .redirect(link.url);
  });
};
