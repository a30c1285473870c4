import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import { hitRateLimit } from '../rate-limits/rate-limit';
import { escapeHtml, publicPage } from '../subscriptions/public-page';
import { addFormParser } from '../subscriptions/subscriptions.routes';
import { createPrivacyRequest, executePrivacyRequest, findPendingRequest } from './privacy-requests';

export const PRIVACY_RATE_LIMIT = { limit: 5, windowSeconds: 3600 };

function html(reply: FastifyReply, status: number, page: string) {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(page);
}

function field(body: unknown, key: string): string {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[key] : undefined;
  return typeof value === 'string' ? value : '';
}

const INTRO =
  '<p>Se você recebe e-mails enviados pelo Carteiro, pode pedir uma cópia dos dados que os remetentes guardam ' +
  'sobre você ou pedir que sejam apagados (Lei Geral de Proteção de Dados, art. 18). Para proteger seus dados, ' +
  'confirmamos o pedido por e-mail.</p>';

function requestForm(error?: string, email = ''): string {
  return publicPage(
    'Seus dados e a LGPD',
    `<h1>Seus dados e a LGPD</h1>${INTRO}${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}` +
      '<form method="post" action="/privacidade/solicitar">' +
      `<label for="email">Seu e-mail</label><input type="email" id="email" name="email" required maxlength="320" autocomplete="email" value="${escapeHtml(email)}">` +
      '<fieldset><legend><strong>O que você quer?</strong></legend>' +
      '<label class="check"><input type="radio" name="tipo" value="acesso" checked> Receber por e-mail uma cópia dos meus dados</label>' +
      '<label class="check"><input type="radio" name="tipo" value="exclusao"> Apagar meus dados de todas as contas</label></fieldset>' +
      '<div class="hp" aria-hidden="true"><label for="site">Deixe este campo vazio</label><input type="text" id="site" name="site" tabindex="-1" autocomplete="off"></div>' +
      '<button type="submit">Enviar pedido</button></form>',
  );
}

const invalidLink = publicPage(
  'Link inválido',
  '<h1>Link inválido ou expirado</h1><p>Este link de confirmação não é válido, expirou (vale 24 horas) ou o pedido já foi atendido. Faça um novo pedido em <a href="/privacidade/solicitar">/privacidade/solicitar</a>.</p>',
);

/**
 * The public LGPD page: `GET/POST /privacidade/solicitar` (request by e-mail), `GET /privacidade/confirmar`
 * (shows what will happen, with a button — a link scanner opening the e-mail must not trigger a deletion) and
 * `POST /privacidade/confirmar` (carries it out).
 */
export async function privacyRequestsRoutes(
  app: FastifyInstance,
  opts: { db: Db; mailer: Mailer; publicUrl: string; secret: string },
): Promise<void> {
  const { db } = opts;
  addFormParser(app);
  const sent = publicPage(
    'Pedido recebido',
    '<h1>Confira seu e-mail</h1><p>Se o endereço estiver correto, você vai receber em instantes um e-mail com um link para confirmar o pedido. O link vale 24 horas.</p>',
  );

  app.get('/privacidade/solicitar', async (_request, reply) => html(reply, 200, requestForm()));

  app.post('/privacidade/solicitar', async (request, reply) => {
    const body = request.body;
    if (field(body, 'site') !== '') return html(reply, 200, sent);
    const email = field(body, 'email');
    const tipo = field(body, 'tipo');
    if (tipo !== 'acesso' && tipo !== 'exclusao')
      return html(reply, 422, requestForm('Escolha o tipo de pedido.', email));
    if (
      !(await hitRateLimit(db, `privacy:${request.ip}`, PRIVACY_RATE_LIMIT.limit, PRIVACY_RATE_LIMIT.windowSeconds))
    ) {
      return html(reply, 429, requestForm('Muitos pedidos a partir desta rede. Tente de novo mais tarde.', email));
    }
    const created = await createPrivacyRequest(db, opts.mailer, opts.publicUrl, opts.secret, {
      email,
      kind: tipo === 'acesso' ? 'access' : 'deletion',
      ip: request.ip ?? null,
    });
    if (!created) return html(reply, 422, requestForm('Informe um e-mail válido.', email));
    return html(reply, 200, sent);
  });

  app.get('/privacidade/confirmar', async (request, reply) => {
    const token = (request.query as Record<string, unknown>).token;
    const pending = await findPendingRequest(db, opts.secret, token);
    if (!pending) return html(reply, 400, invalidLink);
    const what =
      pending.kind === 'access'
        ? 'enviar para este e-mail uma cópia dos dados que as contas do Carteiro guardam sobre você'
        : 'apagar seus dados de todas as contas do Carteiro (guardamos só um código irreversível do endereço, para que ele não seja importado de novo). Esta ação não pode ser desfeita';
    return html(
      reply,
      200,
      publicPage(
        'Confirmar pedido',
        `<h1>Confirmar pedido</h1><p>Vamos ${escapeHtml(what)}.</p>` +
          `<form method="post" action="/privacidade/confirmar"><input type="hidden" name="token" value="${escapeHtml(String(token))}">` +
          `<button type="submit">${pending.kind === 'access' ? 'Enviar meus dados' : 'Apagar meus dados'}</button></form>`,
      ),
    );
  });

  app.post('/privacidade/confirmar', async (request, reply) => {
    const result = await executePrivacyRequest(db, opts.mailer, opts.secret, field(request.body, 'token'), request.ip);
    if (!result) return html(reply, 400, invalidLink);
    return html(
      reply,
      200,
      publicPage(
        'Pedido atendido',
        result.kind === 'access'
          ? '<h1>Pedido atendido</h1><p>Enviamos para o seu e-mail a cópia dos seus dados.</p>'
          : '<h1>Dados apagados</h1><p>Seus dados foram apagados. Enviamos uma confirmação para o seu e-mail.</p>',
      ),
    );
  });
}
