import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { findUnsubscribeTarget, type UnsubscribeTarget } from '../campaigns/message-recipient';
import { findPreferenceLists, resubscribe, savePreferences, unsubscribeByMessage } from './unsubscribe';
import { renderNotFoundPage, renderOneClickDone, renderUnsubscribePage } from './unsubscribe.page';

const BODY_LIMIT = 64 * 1024;

/** Form fields of an urlencoded or multipart/form-data body (text fields only; multi-valued as arrays). */
export function parseFormBody(contentType: string, body: string): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  const add = (name: string, value: string) => {
    fields[name] ??= [];
    fields[name].push(value);
  };
  if (/^multipart\/form-data/i.test(contentType)) {
    const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
    const mark = boundary?.[1] ?? boundary?.[2];
    if (!mark) return fields;
    for (const part of body.split(`--${mark}`)) {
      const split = part.indexOf('\r\n\r\n') !== -1 ? part.indexOf('\r\n\r\n') : part.indexOf('\n\n');
      if (split === -1) continue;
      const headers = part.slice(0, split);
      const name = /content-disposition:[^\n]*\bname="([^"]*)"/i.exec(headers)?.[1];
      if (!name) continue;
      const value = part.slice(split + (part[split] === '\r' ? 4 : 2)).replace(/\r?\n$/, '');
      add(name, value);
    }
    return fields;
  }
  for (const [name, value] of new URLSearchParams(body)) add(name, value);
  return fields;
}

function html(reply: FastifyReply, status: number, page: string) {
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .send(page);
}

/**
 * RFC 8058 one-click unsubscribe and the recipient's page, keyed only by the message's opaque token:
 * - `POST /u/:token` with `List-Unsubscribe=One-Click` (urlencoded or multipart, no cookies needed, CSRF off)
 *   → 200, never a redirect; idempotent.
 * - `GET /u/:token` → pt-BR page; never unsubscribes by itself (link scanners prefetch GETs).
 * - `POST /u/:token/confirm`, `/preferences`, `/resubscribe` → the page's forms.
 * An unknown or altered token → 404, nothing changes.
 */
export async function unsubscribeRoutes(app: FastifyInstance, opts: { db: Db }): Promise<void> {
  const { db } = opts;
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data']) {
    if (app.hasContentTypeParser(type)) continue;
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_request, body, done) =>
      done(null, body),
    );
  }
  const noCsrf = { config: { csrf: false } };

  const target = async (token: string): Promise<UnsubscribeTarget | null> => findUnsubscribeTarget(db, token);
  const fieldsOf = (request: { headers: Record<string, unknown>; body: unknown }) => {
    const body = request.body;
    const contentType = String(request.headers['content-type'] ?? '');
    if (typeof body === 'string') return parseFormBody(contentType, body);
    if (body && typeof body === 'object') {
      return Object.fromEntries(
        Object.entries(body as Record<string, unknown>).map(([k, v]) => [
          k,
          Array.isArray(v) ? v.map(String) : [String(v)],
        ]),
      );
    }
    return {};
  };

  app.get<{ Params: { token: string } }>('/u/:token', async (request, reply) => {
    const found = await target(request.params.token);
    if (!found) return html(reply, 404, renderNotFoundPage());
    return html(reply, 200, renderUnsubscribePage(request.params.token, found, await findPreferenceLists(db, found)));
  });

  app.post<{ Params: { token: string } }>('/u/:token', noCsrf, async (request, reply) => {
    const found = await target(request.params.token);
    if (!found) return reply.code(404).type('text/plain; charset=utf-8').send('Link de descadastro inválido.');
    const fields = fieldsOf(request);
    if (!(fields['List-Unsubscribe'] ?? []).includes('One-Click')) {
      return reply.code(400).type('text/plain; charset=utf-8').send('Corpo esperado: List-Unsubscribe=One-Click');
    }
    await unsubscribeByMessage(db, found, 'one-click');
    return html(reply, 200, renderOneClickDone(found));
  });

  /**
   * The page's forms: find the message's recipient (404 page when the token is unknown), apply the change, and show
   * the page again as it now stands with a notice. A refused change (AppError) answers its status and text.
   */
  const pageAction = (
    path: string,
    notice: string,
    change: (
      found: UnsubscribeTarget,
      request: { headers: Record<string, unknown>; body: unknown },
    ) => Promise<unknown>,
  ) =>
    app.post<{ Params: { token: string } }>(path, noCsrf, async (request, reply) => {
      const found = await target(request.params.token);
      if (!found) return html(reply, 404, renderNotFoundPage());
      try {
        await change(found, request);
      } catch (error) {
        if (error instanceof AppError)
          return reply.code(error.status).type('text/plain; charset=utf-8').send(error.message);
        throw error;
      }
      const fresh = (await target(request.params.token)) as UnsubscribeTarget;
      return html(
        reply,
        200,
        renderUnsubscribePage(request.params.token, fresh, await findPreferenceLists(db, fresh), notice),
      );
    });

  pageAction('/u/:token/confirm', 'Pronto: sua inscrição foi cancelada.', (found) =>
    unsubscribeByMessage(db, found, 'page'),
  );
  pageAction('/u/:token/preferences', 'Preferências salvas.', (found, request) =>
    savePreferences(db, found, fieldsOf(request).list ?? []),
  );
  pageAction('/u/:token/resubscribe', 'Inscrição reativada.', (found) => resubscribe(db, found));
}
