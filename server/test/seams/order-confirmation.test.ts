import { generateKeyPairSync, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WEBHOOK_EVENT_SCHEMAS } from '@carteiro/shared';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustSenderAddress } from '../../src/modules/sender-identities/testing/trust-sender';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, dkimDnsRecord } from '../../src/modules/sending/dkim/dkim-signer';
import { dkimResults, recordsResolver } from '../../src/modules/sending/testing/dkim-check';
import { useEngineHarness } from '../../src/modules/sending/testing/engine-harness';
import { creditAccount } from '../../src/modules/sending/testing/send-fixtures';
import { createSecretBox } from '../../src/modules/webhooks/signing';
import { startWebhookWorker, type WebhookWorker } from '../../src/modules/webhooks/webhooks-runtime';
import { createApiKeyFor } from '../support/api-key';
import { signUp } from '../support/sign-in';
import { DATABASE_KINDS } from '../support/test-database';

const DOMAIN = 'loja-do-bairro.com.br';
const pem = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const signer = createDkimSigner({
  domain: DOMAIN,
  selector: 'pedidos',
  privateKeyPem: pem,
  algorithm: 'rsa-sha256',
  headerNames: DEFAULT_SIGNED_HEADERS,
});
const dkimResolver = recordsResolver({ [`pedidos._domainkey.${DOMAIN}`]: dkimDnsRecord(pem) });

/** An NF-e PDF as a shop attaches it: binary bytes between the PDF markers. */
const nfe = Buffer.concat([Buffer.from('%PDF-1.7\n'), randomBytes(48_000), Buffer.from('\n%%EOF\n')]);

const TEMPLATE = {
  name: 'Confirmação de pedido',
  subject: 'Pedido {{ dados.pedido }} confirmado',
  html:
    '<p>Olá, {{ contato.nome }}! Recebemos o pedido <b>{{ dados.pedido }}</b>.</p>' +
    '<ul>{% for item in dados.itens %}<li>{{ item.quantidade }} × {{ item.nome }}</li>{% endfor %}</ul>' +
    '<p>Total: {{ dados.total }}</p>',
  variables: ['pedido', 'itens', 'total'],
};

/**
 * The whole path a shop's order confirmation takes, over real HTTP on loopback: a stored template with per-message
 * data, a PDF attachment and tags sent with an API key → the sending engine → a loopback SMTP relay (the raw message:
 * the PDF's bytes intact, the data rendered, DKIM pass) → the message looked up by id with its delivered event → the
 * `message.delivered` webhook, signed (Standard Webhooks), with the tags, at a loopback receiver.
 */
describe.each(DATABASE_KINDS)('order confirmation, end to end on %s', (kind) => {
  const h = useEngineHarness(kind, { WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', API_RATE_LIMIT: '1000' });
  let base: string;
  let receiver: http.Server | undefined;
  let worker: WebhookWorker | undefined;
  const received: Array<{ headers: Record<string, string>; body: string }> = [];

  beforeAll(async () => {
    await h.t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(h.t.app.server.address() as AddressInfo).port}`;
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => receiver?.listen(0, '127.0.0.1', resolve));
    worker = await startWebhookWorker({
      config: h.t.config,
      db: h.db,
      mailer: h.t.mailer,
      logger: pino({ level: 'silent' }),
      resolver: { addresses: async () => [] },
      box: createSecretBox(h.t.config.AUTH_SECRET as string),
    });
  });
  afterAll(async () => {
    await worker?.stop();
    const server = receiver;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  async function api(secret: string, method: 'GET' | 'POST', path: string, body?: unknown) {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      headers: {
        authorization: `Bearer ${secret}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { [k: string]: never } };
  }

  it('sends the order with its NF-e, renders its data, signs it, shows it delivered and tells the webhook', async () => {
    const owner = await signUp(h.t, { verified: true });
    await creditAccount(h.db, owner.accountId, 10_000);
    await trustSenderAddress(h.db, owner.accountId, `pedidos@${DOMAIN}`);
    const secret = await createApiKeyFor(h.t, owner);
    const hookPort = (receiver?.address() as AddressInfo | undefined)?.port;
    const endpoint = await h.t.app.inject({
      method: 'POST',
      url: '/api/webhooks/endpoints',
      headers: owner.headers,
      payload: {
        url: `http://127.0.0.1:${hookPort}/carteiro`,
        eventTypes: ['message.delivered'],
      },
    });
    expect(endpoint.statusCode, endpoint.body).toBe(201);
    const whsec = (
      await h.t.app.inject({
        method: 'GET',
        url: `/api/webhooks/endpoints/${endpoint.json().id}/secret`,
        headers: owner.headers,
      })
    ).json().secret as string;

    const template = await api(secret, 'POST', '/templates', TEMPLATE);
    expect(template.status, JSON.stringify(template.body)).toBe(201);
    const sent = await api(secret, 'POST', '/messages', {
      to: { email: 'joana.prado@cliente.com.br', name: 'Joana Prado' },
      from: { email: `pedidos@${DOMAIN}`, name: 'Loja do Bairro' },
      templateId: template.body.id,
      data: {
        pedido: 'PED-1042',
        itens: [
          { nome: 'Café torrado 500 g', quantidade: 2 },
          { nome: 'Pão de queijo congelado', quantidade: 1 },
        ],
        total: 'R$ 74,70',
      },
      tags: ['pedido', 'nf-e'],
      metadata: { pedido: 'PED-1042' },
      attachments: [{ filename: 'NF-e PED-1042.pdf', content: nfe.toString('base64') }],
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const messageId = (sent.body.messages as unknown as Array<{ id: string; status: string }>)[0]?.id as string;

    const engine = h.newSender({ signers: [signer] });
    for (let i = 0; i < 200 && !h.sink.messages.some((m) => m.to === 'joana.prado@cliente.com.br'); i++) {
      await engine.tick();
    }
    const sunk = h.sink.messages.find((m) => m.to === 'joana.prado@cliente.com.br');
    if (!sunk) throw new Error('the order confirmation never reached the relay');
    expect(await dkimResults(sunk.raw, dkimResolver)).toEqual(['pass']);
    const mail = await simpleParser(sunk.raw);
    expect(mail.subject).toBe('Pedido PED-1042 confirmado');
    expect(String(mail.html)).toContain('Olá, Joana Prado! Recebemos o pedido <b>PED-1042</b>.');
    expect(String(mail.html)).toContain('<li>2 × Café torrado 500 g</li><li>1 × Pão de queijo congelado</li>');
    expect(mail.text).toContain('Total: R$ 74,70');
    expect(mail.attachments.map((a) => [a.filename, a.contentType])).toEqual([
      ['NF-e PED-1042.pdf', 'application/pdf'],
    ]);
    expect(mail.attachments[0]?.content.equals(nfe)).toBe(true);

    const lookup = await api(secret, 'GET', `/messages/${messageId}`);
    expect(lookup.status).toBe(200);
    expect(lookup.body).toMatchObject({
      id: messageId,
      status: 'delivered',
      to: 'joana.prado@cliente.com.br',
      subject: 'Pedido PED-1042 confirmado',
      tags: ['pedido', 'nf-e'],
    });
    const timeline = (lookup.body.events as unknown as Array<{ type: string }>).map((e) => e.type);
    expect(timeline).toEqual(['queued', 'delivered']);

    for (let i = 0; i < 100 && received.length === 0; i++) {
      await worker?.dispatchOnce();
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(received).toHaveLength(1);
    const delivery = received[0] as { headers: Record<string, string>; body: string };
    // Throws unless webhook-id, webhook-timestamp and webhook-signature match the endpoint's secret.
    const event = WEBHOOK_EVENT_SCHEMAS['message.delivered'].parse(
      new Webhook(whsec).verify(delivery.body, delivery.headers),
    );
    expect(event.data).toMatchObject({
      messageId,
      email: 'joana.prado@cliente.com.br',
      tags: ['pedido', 'nf-e'],
      metadata: { pedido: 'PED-1042' },
    });
    expect(event.account.id).toBe(owner.accountId);
  });
});
