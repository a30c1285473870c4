import { randomBytes } from 'node:crypto';
import { WEBHOOK_EVENT_SCHEMAS } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import type { SendingEngine } from '../../worker/sending-engine';
import { accounts } from '../accounts/accounts.db';
import { messages } from '../sending/messages.db';
import { dkimResults, drainMessages, lojaSigner } from '../sending/testing/dkim-check';
import { useEngineHarness } from '../sending/testing/engine-harness';
import { suppressEmail } from '../sending/testing/send-fixtures';
import { expandEventBatches } from '../webhooks/dispatch';
import { webhookEndpoints } from '../webhooks/webhooks.db';
import { API_SENDER, messageApi } from './testing/message-api';

const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(30_000), Buffer.from('\n%%EOF\n')]);
const png = randomBytes(2_000);

const body = (extra: Record<string, unknown> = {}) => ({
  to: { email: 'cliente@destino.com.br', name: 'Cliente Ação' },
  from: { email: API_SENDER, name: 'Loja' },
  subject: 'Pedido {{ pedido }} confirmado',
  html: '<p>Olá, {{ contato.nome }}: pedido {{ pedido }}.</p><img src="cid:logo@loja">',
  data: { pedido: '77' },
  ...extra,
});

describe.each(DATABASE_KINDS)('POST /api/v1/messages with cc, bcc, headers, files, tags and metadata on %s', (kind) => {
  const h = useEngineHarness(kind, { API_RATE_LIMIT: '1000' });

  const api = messageApi(h);
  const { keyWithCredit } = api;
  const post = (secret: string, url: string, payload: object) => api.call(secret, 'POST', url, payload);

  const drain = (sender: SendingEngine, ids: number[]) => drainMessages(h.db, sender, ids);

  it('delivers every copy with the files byte for byte, DKIM pass, Cc shown and Bcc hidden; charges each copy; webhooks carry tags and metadata', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    await suppressEmail(h.db, user.accountId, 'bloqueado@destino.com.br');
    await h.db.insert(webhookEndpoints).values({
      accountId: user.accountId,
      url: 'https://hooks.example/carteiro',
      eventTypes: ['message.delivered'],
      secretCiphertext: 'sealed',
    });
    const res = await post(
      secret,
      '/api/v1/messages',
      body({
        cc: [{ email: 'financeiro@destino.com.br', name: 'Financeiro' }, { email: 'bloqueado@destino.com.br' }],
        bcc: [{ email: 'arquivo@loja.com.br' }],
        replyTo: 'atendimento@loja.com.br',
        headers: { 'X-Pedido': '77', References: '<pedido-77@loja.com.br>' },
        tags: ['pedido', 'nf-e'],
        metadata: { pedido: '77', loja: 'centro' },
        attachments: [
          { filename: 'NF-e 77.pdf', content: pdf.toString('base64') },
          { filename: 'logo.png', content: png.toString('base64'), contentId: 'logo@loja' },
        ],
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    const result = res.json();
    // Three copies go (to, cc, bcc), one is suppressed: 3 × 5 millis.
    expect(result).toMatchObject({
      costMillis: 15,
      balanceMillis: 985,
      messages: [
        {
          to: 'cliente@destino.com.br',
          status: 'queued',
          costMillis: 5,
          copies: [
            { to: 'financeiro@destino.com.br', kind: 'cc', status: 'queued', costMillis: 5 },
            {
              to: 'bloqueado@destino.com.br',
              kind: 'cc',
              status: 'suppressed',
              costMillis: 0,
              suppressionReason: 'manual',
            },
            { to: 'arquivo@loja.com.br', kind: 'bcc', status: 'queued', costMillis: 5 },
          ],
        },
      ],
    });
    const [account] = await h.db.select().from(accounts).where(eq(accounts.id, user.accountId));
    expect(Number(account?.balanceMillis)).toBe(985);

    const ids = [result.messages[0].id, ...result.messages[0].copies.map((c: { id: string }) => c.id)].map(Number);
    const before = h.sink.messages.length;
    await drain(h.newSender({ signers: [lojaSigner] }), ids);
    const got = h.sink.messages.slice(before);
    expect(got.map((m) => m.to).sort()).toEqual([
      'arquivo@loja.com.br',
      'cliente@destino.com.br',
      'financeiro@destino.com.br',
    ]);
    for (const sunk of got) {
      const mail = await simpleParser(sunk.raw);
      expect(await dkimResults(sunk.raw)).toEqual(['pass']);
      expect(mail.subject).toBe('Pedido 77 confirmado');
      expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : null).toEqual([
        { address: 'cliente@destino.com.br', name: 'Cliente Ação' },
      ]);
      // The Cc header lists the cc addresses as given (the suppressed one included: it is what the sender wrote).
      expect(mail.cc && !Array.isArray(mail.cc) ? mail.cc.value.map((v) => v.address) : null).toEqual([
        'financeiro@destino.com.br',
        'bloqueado@destino.com.br',
      ]);
      expect(mail.headers.has('bcc')).toBe(false);
      expect(sunk.raw.toString('latin1')).not.toContain('arquivo@loja.com.br');
      expect(mail.replyTo?.value[0]?.address).toBe('atendimento@loja.com.br');
      expect(mail.headers.get('x-pedido')).toBe('77');
      expect(mail.references).toBe('<pedido-77@loja.com.br>');
      expect(String(mail.html)).toContain('Olá, Cliente Ação: pedido 77.');
      const files = mail.attachments.map((a) => [a.filename, a.contentType, a.cid ?? null]);
      expect(files).toEqual([
        ['logo.png', 'image/png', 'logo@loja'],
        ['NF-e 77.pdf', 'application/pdf', null],
      ]);
      expect(mail.attachments[1]?.content.equals(pdf)).toBe(true);
      expect(mail.attachments[0]?.content.equals(png)).toBe(true);
    }

    await expandEventBatches(h.db);
    const events = await queryRows<{ payload: unknown }>(
      h.db,
      sql`select payload from webhook_events where account_id = ${user.accountId} and type = 'message.delivered'`,
    );
    expect(events).toHaveLength(3);
    for (const { payload } of events) {
      const event = WEBHOOK_EVENT_SCHEMAS['message.delivered'].parse(
        typeof payload === 'string' ? JSON.parse(payload) : payload,
      );
      expect(event.data).toMatchObject({ tags: ['pedido', 'nf-e'], metadata: { pedido: '77', loja: 'centro' } });
    }
  });

  it('refuses bad files, forbidden headers and repeated addresses with a pt-BR 400 naming the field; nothing charged', async () => {
    const { user, secret } = await keyWithCredit(1_000);
    const cases: [Record<string, unknown>, string][] = [
      [{ attachments: [{ filename: 'virus.exe', content: 'AAAA' }] }, 'Tipo de arquivo não permitido'],
      [{ attachments: [{ filename: 'a.pdf', content: 'não é base64!' }] }, 'envie o arquivo em base64'],
      [{ attachments: [{ filename: 'a.pdf', content: 'AAAA', encoding: 'base64' }] }, 'encoding'],
      [{ attachments: [{ filename: 'a/b.pdf', content: 'AAAA' }] }, 'barras'],
      [{ attachments: [{ filename: 'a.pdf', content: 'AAAA', contentType: 'pdf' }] }, 'Tipo de conteúdo inválido'],
      [
        {
          attachments: [
            { filename: 'a.png', content: 'AAAA', contentId: 'x' },
            { filename: 'b.png', content: 'AAAA', contentId: 'x' },
          ],
        },
        'contentId repetido',
      ],
      [
        { attachments: Array.from({ length: 11 }, (_, i) => ({ filename: `${i}.txt`, content: 'AAAA' })) },
        'No máximo 10 anexos',
      ],
      [{ headers: { From: 'outro@x.com' } }, 'Cabeçalho não permitido: From'],
      [{ headers: { 'DKIM-Signature': 'v=1' } }, 'Cabeçalho não permitido: DKIM-Signature'],
      [{ headers: { 'List-Unsubscribe': '<https://x>' } }, 'Cabeçalho não permitido: List-Unsubscribe'],
      [{ headers: { 'X-Carteiro-Conta': '1' } }, 'Cabeçalho não permitido'],
      [{ headers: { 'X-Pedido': 'a\r\nBcc: x@y.com' } }, 'quebras de linha'],
      [{ cc: [{ email: 'cliente@destino.com.br' }] }, 'Endereço repetido'],
      [{ bcc: Array.from({ length: 11 }, (_, i) => ({ email: `b${i}@x.com` })) }, 'No máximo 10 endereços em bcc'],
      [{ metadata: { pedido: 77 } }, 'metadata'],
      [{ sendAfter: '2030-01-01' }, 'sendAfter'],
    ];
    for (const [extra, expected] of cases) {
      const res = await post(secret, '/api/v1/messages', body(extra));
      expect(res.statusCode, JSON.stringify(extra).slice(0, 200)).toBe(400);
      expect(res.json().error.message, JSON.stringify(extra).slice(0, 200)).toContain(expected);
      const batch = await post(secret, '/api/v1/messages/batch', { messages: [body(), body(extra)] });
      expect(batch.statusCode).toBe(400);
      expect(batch.json().error.message).toContain(expected);
    }
    // Over 10 MB of files in a body under the 16 MB limit: 400; over the body limit: 413.
    const big = randomBytes(5.5 * 1024 * 1024).toString('base64');
    const tooMuch = await post(
      secret,
      '/api/v1/messages',
      body({
        attachments: [
          { filename: 'a.pdf', content: big },
          { filename: 'b.pdf', content: big },
        ],
      }),
    );
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json().error.message).toContain('10 MB');
    const huge = await post(
      secret,
      '/api/v1/messages',
      body({ attachments: [1, 2, 3].map((i) => ({ filename: `${i}.pdf`, content: big })) }),
    );
    expect(huge.statusCode).toBe(413);
    const rows = await h.db.select().from(messages).where(eq(messages.accountId, user.accountId));
    expect(rows).toHaveLength(0);
  });
});
