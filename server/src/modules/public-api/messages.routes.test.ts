import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { SendingEngine } from '../../worker/sending-engine';
import { createRelayTransport } from '../../worker/sending-runtime';
import { accounts } from '../accounts/accounts.db';
import { ledgerEntries } from '../billing/billing.db';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { messages } from '../sending/messages.db';
import { runEngineUntil } from '../sending/testing/engine-harness';
import { creditAccount, testSenderSettings } from '../sending/testing/send-fixtures';
import { type SmtpSink, startSmtpSink } from '../sending/testing/smtp-sink';
import { createTemplate } from '../templates/templates';

const json = { 'content-type': 'application/json' };

const body = (to: string, extra: Record<string, unknown> = {}) => ({
  to: { email: to, name: 'Ana' },
  from: { email: 'pedidos@loja.com.br', name: 'Loja' },
  subject: 'Pedido {{ pedido }}',
  html: '<p>Olá, {{ contato.nome }}: pedido {{ pedido }} recebido.</p>',
  data: { pedido: '77' },
  ...extra,
});

describe.each(DATABASE_KINDS)('POST /api/v1/messages on %s', (kind) => {
  let t: TestApp;
  let sink: SmtpSink;

  beforeAll(async () => {
    t = await createTestApp(kind, { API_RATE_LIMIT: '1000' });
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    await t.close();
  });

  async function keyWithCredit(creditMillis: number, scope: 'full' | 'send_only' = 'send_only') {
    const user = await signUp(t, { verified: true });
    if (creditMillis > 0) await creditAccount(t.database.db, user.accountId, creditMillis);
    // Only a verified sender may send.
    await trustSenderAddress(t.database.db, user.accountId, 'pedidos@loja.com.br');
    return { user, secret: await createApiKeyFor(t, user, scope) };
  }

  const post = (secret: string, url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: bearer(secret, { ...json, ...headers }), payload });

  it('sends one message with a send-only key: 201 with its id, the cost and the balance; delivered by the engine', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const res = await post(secret, '/api/v1/messages', body('api@destino.com.br'));
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json();
    expect(result).toMatchObject({
      costMillis: 5,
      balanceMillis: 995,
      messages: [{ to: 'api@destino.com.br', status: 'queued', costMillis: 5 }],
    });

    const transport = createRelayTransport(sink.url, 1);
    const sender = new SendingEngine({
      db: t.database.db,
      transports: [transport],
      settings: testSenderSettings(),
      logger: pino({ level: 'silent' }),
      mailer: null,
    });
    const id = Number(result.messages[0].id);
    await runEngineUntil(
      sender,
      async () => (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0]?.status !== 'queued',
      'the message out of the queue',
      { pauseMs: 0 },
    );
    await transport.close();
    const [row] = await t.database.db.select().from(messages).where(eq(messages.id, id));
    expect(row).toMatchObject({ status: 'sent', accountId: user.accountId });
    const sunk = sink.messages.find((m) => m.to === 'api@destino.com.br');
    const mail = await simpleParser(sunk?.raw as Buffer);
    expect(mail.subject).toBe('Pedido 77');
    expect(String(mail.html)).toContain('Olá, Ana: pedido 77 recebido.');
  });

  it('sends a batch charged at once, and answers 402 with the missing amount when the balance is short', async () => {
    const { user, secret } = await keyWithCredit(12);
    const three = { messages: ['l1', 'l2', 'l3'].map((p) => body(`${p}@destino.com.br`)) };
    const short = await post(secret, '/api/v1/messages/batch', three);
    expect(short.statusCode).toBe(402);
    expect(short.json().error).toMatchObject({
      code: 'insufficient_balance',
      message: 'Saldo insuficiente: faltam R$\u00a00,003 para enviar estas 3 mensagens.',
    });
    const rows = await t.database.db.select().from(messages).where(eq(messages.accountId, user.accountId));
    expect(rows).toHaveLength(0);

    const ok = await post(secret, '/api/v1/messages/batch', { messages: three.messages.slice(0, 2) });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json()).toMatchObject({ costMillis: 10, balanceMillis: 2 });
    expect(ok.json().messages.map((m: { to: string }) => m.to)).toEqual(['l1@destino.com.br', 'l2@destino.com.br']);
  });

  it('honours Idempotency-Key: the replay sends and charges nothing again', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const first = await post(secret, '/api/v1/messages', body('idem@destino.com.br'), {
      'idempotency-key': 'pedido-77',
    });
    expect(first.statusCode).toBe(201);
    const again = await post(secret, '/api/v1/messages', body('idem@destino.com.br'), {
      'idempotency-key': 'pedido-77',
    });
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    const rows = await t.database.db.select().from(messages).where(eq(messages.accountId, user.accountId));
    expect(rows).toHaveLength(1);
    const [account] = await t.database.db.select().from(accounts).where(eq(accounts.id, user.accountId));
    expect(Number(account?.balanceMillis)).toBe(995);
    const sends = await t.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, user.accountId));
    expect(sends.filter((e) => e.kind === 'send')).toHaveLength(1);
  });

  it('validates the body in pt-BR and never reaches another account’s template', async () => {
    const { secret } = await keyWithCredit(1_000);
    const bad = await post(secret, '/api/v1/messages', body('não-é-email'));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('E-mail inválido'),
    });
    const nul = await post(
      secret,
      '/api/v1/messages',
      body('nul@destino.com.br', { to: { email: 'nul@destino.com.br', name: 'A\u0000B' } }),
    );
    expect(nul.statusCode).toBe(400);
    expect(nul.json().error.message).toBe('to.name: O texto contém um caractere inválido (NUL, \\u0000).');
    const empty = await post(secret, '/api/v1/messages/batch', { messages: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.message).toContain('Envie ao menos uma mensagem.');

    const other = await signUp(t, { verified: true });
    const foreign = await createTemplate(t.database.db, other.accountId, {
      name: 'Outro',
      subject: 'Oi',
      html: '<p>Oi</p>',
    });
    const res = await post(
      secret,
      '/api/v1/messages',
      body('x@destino.com.br', { templateId: foreign.id, subject: undefined, html: undefined }),
    );
    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('Modelo não encontrado nesta conta.');
  });

  it('checks data against the template’s declared variables: missing or undeclared is a 400 naming it, nothing charged', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const template = await createTemplate(t.database.db, user.accountId, {
      name: 'Pedido',
      subject: 'Pedido {{ dados.pedido }}',
      html: '<p>{{ contato.nome }}: {% for item in dados.itens %}{{ item.nome }};{% endfor %}</p>',
      variables: ['pedido', 'itens'],
    });
    const send = (data: Record<string, unknown>) =>
      body('dados@destino.com.br', { templateId: template.id, subject: undefined, html: undefined, data });
    const missing = await post(secret, '/api/v1/messages', send({ pedido: '9' }));
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({
      code: 'validation_failed',
      message: 'Falta a variável itens em data: o modelo "Pedido" usa {{ dados.itens }}.',
      details: { fields: [{ path: 'data.itens' }] },
    });
    const undeclared = await post(secret, '/api/v1/messages', send({ pedido: '9', itens: [], cupom: 'X' }));
    expect(undeclared.statusCode).toBe(400);
    expect(undeclared.json().error).toMatchObject({ code: 'unknown_fields', details: { unknown: ['data.cupom'] } });
    const batch = await post(secret, '/api/v1/messages/batch', {
      messages: [send({ pedido: '1', itens: [] }), send({ itens: [] })],
    });
    expect(batch.statusCode).toBe(400);
    expect(batch.json().error.message).toMatch(/^Mensagem 2: Falta a variável pedido em data/);
    expect(batch.json().error.details.fields[0].path).toBe('messages.1.data.pedido');
    const [before] = await t.database.db.select().from(accounts).where(eq(accounts.id, user.accountId));
    expect(Number(before?.balanceMillis)).toBe(1_000);

    const ok = await post(
      secret,
      '/api/v1/messages',
      send({ pedido: 'PED-9', itens: [{ nome: 'Café' }, { nome: 'Pão' }], contato: { cidade: 'Natal' } }),
    );
    expect(ok.statusCode, ok.body).toBe(201);
    const lookup = await t.app.inject({ url: `/api/v1/messages/${ok.json().messages[0].id}`, headers: bearer(secret) });
    expect(lookup.json().subject).toBe('Pedido PED-9');
  });
});
