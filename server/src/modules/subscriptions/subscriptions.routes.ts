import type { FormSnippet } from '@carteiro/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database';
import { idParam } from '../../http/id-param';
import { notFound } from '../../http/not-found';
import type { Mailer } from '../../mail/mailer';
import { requireActor } from '../auth/request-actor';
import { hitRateLimit } from '../rate-limits/rate-limit';
import { type ConsentLinks, listPhrase } from './consent-requests';
import { escapeHtml, publicPage } from './public-page';
import { confirmSubscription, consentText, findPublicList, type PublicList, subscribe } from './subscribe';

export const SUBSCRIBE_RATE_LIMIT = { limit: 10, windowSeconds: 3600 };

export interface SubscriptionsRoutesOptions {
  db: Db;
  mailer: Mailer;
  links: ConsentLinks;
}

/** The subscribe form of a list (shared by the hosted page and the embeddable snippet). */
export function renderSubscribeForm(
  list: PublicList,
  action: string,
  form: 'hospedado' | 'incorporado',
  values: { email?: string; name?: string } = {},
): string {
  return (
    `<form method="post" action="${escapeHtml(action)}" accept-charset="utf-8" class="carteiro-form">` +
    `<input type="hidden" name="formulario" value="${form}">` +
    '<label for="carteiro-nome">Nome</label>' +
    `<input type="text" id="carteiro-nome" name="nome" autocomplete="name" maxlength="200" value="${escapeHtml(values.name ?? '')}">` +
    '<label for="carteiro-email">E-mail</label>' +
    `<input type="email" id="carteiro-email" name="email" autocomplete="email" required maxlength="320" value="${escapeHtml(values.email ?? '')}">` +
    // Honeypot: hidden from people (and from screen readers), filled by bots.
    '<div class="hp" aria-hidden="true" style="position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden">' +
    '<label for="carteiro-site">Deixe este campo vazio</label><input type="text" id="carteiro-site" name="site" tabindex="-1" autocomplete="off"></div>' +
    '<label class="check" style="display:flex;gap:8px;font-weight:400"><input type="checkbox" name="consentimento" value="sim" required>' +
    `<span>${escapeHtml(consentText(list))}</span></label>` +
    '<button type="submit">Quero me inscrever</button></form>'
  );
}

function subscribePage(list: PublicList, body: string): string {
  const description = list.description ? `<p>${escapeHtml(list.description)}</p>` : '';
  return publicPage(`Inscrição: ${list.name}`, `<h1>${escapeHtml(list.name)}</h1>${description}${body}`);
}

const notFoundPage = publicPage(
  'Formulário não encontrado',
  '<h1>Formulário não encontrado</h1><p>Este formulário de inscrição não existe ou foi removido.</p>',
);

function formValue(body: unknown, key: string): string {
  if (!body || typeof body !== 'object') return '';
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' ? value : Array.isArray(value) ? String(value[0] ?? '') : '';
}

function html(reply: FastifyReply, status: number, page: string) {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
}

/** Parses application/x-www-form-urlencoded bodies in this plugin's scope (public HTML forms). */
export function addFormParser(app: FastifyInstance): void {
  if (app.hasContentTypeParser('application/x-www-form-urlencoded')) return;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );
}

/**
 * Public subscribe forms: `GET /s/:listId` (hosted pt-BR page), `POST /s/:listId` (hosted page and embedded
 * snippets on the sender's site — so no Origin check: the request carries no session and changes nothing of
 * the visitor's; abuse is limited by a honeypot, a per-IP rate limit in the database and, on double opt-in,
 * the confirmation e-mail), `GET /s/confirm?token=` (double opt-in link) and, for the signed-in sender,
 * `GET /api/lists/:id/form-snippet`.
 */
export async function subscriptionsRoutes(app: FastifyInstance, opts: SubscriptionsRoutesOptions): Promise<void> {
  const { db } = opts;
  addFormParser(app);
  // The hosted page posts to a relative URL (CSP form-action 'self' on whatever host served it); the snippet,
  // which lives on the sender's site, to the absolute one.
  const action = (listId: string) => `${opts.links.publicUrl}/s/${listId}`;

  app.get('/s/confirm', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    const result = await confirmSubscription(db, opts.links.secret, token, request.ip);
    if (!result) {
      return html(
        reply,
        400,
        publicPage(
          'Link inválido',
          '<h1>Link inválido ou expirado</h1><p>Não foi possível confirmar a inscrição com este link. Ele pode ter expirado (vale 7 dias) ou estar incompleto. Inscreva-se de novo pelo formulário.</p>',
        ),
      );
    }
    return html(
      reply,
      200,
      publicPage(
        'Inscrição confirmada',
        `<h1>Inscrição confirmada!</h1><p>Pronto: você vai receber os e-mails ${escapeHtml(listPhrase(result.listNames)).replace(/&quot;([^&]*)&quot;/g, '<strong>$1</strong>')}. Você pode cancelar a inscrição a qualquer momento pelo link no fim de cada mensagem.</p>`,
      ),
    );
  });

  app.get('/s/:listId', async (request, reply) => {
    const list = await findPublicList(db, (request.params as { listId: string }).listId);
    if (!list) return html(reply, 404, notFoundPage);
    return html(reply, 200, subscribePage(list, renderSubscribeForm(list, `/s/${list.id}`, 'hospedado')));
  });

  app.post('/s/:listId', { config: { csrf: false } }, async (request: FastifyRequest, reply) => {
    const list = await findPublicList(db, (request.params as { listId: string }).listId);
    if (!list) return html(reply, 404, notFoundPage);
    const body = request.body;
    const email = formValue(body, 'email');
    const name = formValue(body, 'nome');
    const thanks = (message: string) => html(reply, 200, subscribePage(list, `<h2>Obrigado!</h2><p>${message}</p>`));
    // A filled honeypot is a bot: answer as if it worked, write nothing.
    if (formValue(body, 'site') !== '') return thanks('Sua inscrição foi recebida.');
    if (
      !(await hitRateLimit(
        db,
        `subscribe:${request.ip}`,
        SUBSCRIBE_RATE_LIMIT.limit,
        SUBSCRIBE_RATE_LIMIT.windowSeconds,
      ))
    ) {
      return html(
        reply,
        429,
        subscribePage(list, '<p class="error">Muitas tentativas a partir desta rede. Tente de novo mais tarde.</p>'),
      );
    }
    const result = await subscribe(db, opts.mailer, opts.links, list, {
      email,
      name,
      consent: formValue(body, 'consentimento') === 'sim',
      form: formValue(body, 'formulario') === 'incorporado' ? 'incorporado' : 'hospedado',
      ip: request.ip ?? null,
      userAgent: typeof request.headers['user-agent'] === 'string' ? request.headers['user-agent'] : null,
    });
    if (result.outcome === 'invalid') {
      return html(
        reply,
        422,
        subscribePage(
          list,
          `<p class="error" role="alert">${escapeHtml(result.message)}</p>${renderSubscribeForm(list, `/s/${list.id}`, 'hospedado', { email, name })}`,
        ),
      );
    }
    if (result.outcome === 'confirmation_sent') {
      return thanks(
        'Falta só um passo: enviamos um e-mail de confirmação. Abra a mensagem e clique no link para confirmar sua inscrição.',
      );
    }
    return thanks(`Sua inscrição na lista <strong>${escapeHtml(list.name)}</strong> está confirmada.`);
  });

  app.get('/api/lists/:id/form-snippet', async (request): Promise<FormSnippet> => {
    const actor = await requireActor(request);
    const list = await findPublicList(db, idParam(request.params, 'list'));
    if (!list || list.accountId !== actor.accountId) throw notFound('list');
    return {
      listId: list.id,
      hostedUrl: action(list.id),
      optIn: list.optIn,
      consentText: consentText(list),
      snippet: `<!-- Formulário de inscrição Carteiro: ${list.name.replace(/--/g, '—')} -->\n${renderSubscribeForm(list, action(list.id), 'incorporado')}\n`,
    };
  });
}
