import { MESSAGE_LOOKUP_STATUSES, messageCollectionSchema, messageDetailSchema } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import type { SendingEngine } from '../../worker/sending-engine';
import { messages } from '../sending/messages.db';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import { createReadyCampaign, suppressEmail } from '../sending/testing/send-fixtures';
import { API_SENDER, messageApi } from './testing/message-api';

const body = (to: string, extra: Record<string, unknown> = {}) => ({
  to: { email: to },
  from: { email: API_SENDER, name: 'Loja' },
  subject: 'Pedido {{ pedido }}',
  html: '<p>Pedido {{ pedido }}.</p>',
  data: { pedido: '9' },
  ...extra,
});

describe.each(DATABASE_KINDS)('message lookup: GET /api/v1/messages/{id} and GET /api/v1/messages on %s', (kind) => {
  const h = useEngineHarness(kind, { API_RATE_LIMIT: '1000' });

  const api = messageApi(h);
  const { call } = api;
  async function account() {
    const { user, secret: send } = await api.keyWithCredit(1_000);
    return { user, send, full: await api.keyOf(user, { scope: 'full' }) };
  }

  async function drain(sender: SendingEngine) {
    await runEngineUntil(
      sender,
      async () => {
        const [row] = await queryRows<{ n: number | string }>(
          h.db,
          sql`select count(*) as n from ${messages} m join campaigns c on c.id = m.campaign_id
               where c.kind = 'transactional' and m.status = 'queued'`,
        );
        return Number(row?.n) === 0;
      },
      'no transactional message queued',
      { pauseMs: 0 },
    );
  }

  it('shows each message with its status, cost, labels and timeline to a send-only key; filters and pages the list', async () => {
    const { user, send, full } = await account();
    await suppressEmail(h.db, user.accountId, 'suprimido@destino.com.br');
    const sent = await call(send, 'POST', '/api/v1/messages/batch', {
      messages: [
        body('um@destino.com.br', {
          tags: ['pedido'],
          metadata: { pedido: '9' },
          cc: [{ email: 'copia@destino.com.br' }],
        }),
        body('recusado@destino.com.br', { tags: ['boleto'] }),
        body('suprimido@destino.com.br', { category: 'marketing', html: '<a href="{{ link_descadastro }}">sair</a>' }),
      ],
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const [one, refused, suppressed] = sent.json().messages;
    const copy = one.copies[0];

    // Before delivery: queued, charged.
    const queued = await call(send, 'GET', `/api/v1/messages/${one.id}`);
    expect(queued.statusCode, queued.body).toBe(200);
    expect(queued.json()).toMatchObject({ status: 'queued', costMillis: 5, events: [{ type: 'queued' }] });

    h.sink.rcptReply = (address) =>
      address === 'recusado@destino.com.br' ? { code: 550, message: '5.1.1 no such user' } : null;
    try {
      await drain(h.newSender());
    } finally {
      h.sink.rcptReply = null;
    }

    const res = await call(send, 'GET', `/api/v1/messages/${one.id}`);
    expect(res.statusCode).toBe(200);
    const detail = messageDetailSchema.parse(res.json());
    expect(detail).toMatchObject({
      id: one.id,
      status: 'delivered',
      stream: 'transactional',
      recipientKind: 'to',
      copyOf: null,
      to: 'um@destino.com.br',
      from: 'pedidos@loja.com.br',
      subject: 'Pedido 9',
      tags: ['pedido'],
      metadata: { pedido: '9' },
      costMillis: 5,
      attempts: 1,
    });
    expect(detail.events.map((e) => e.type)).toEqual(['queued', 'delivered']);
    expect(detail.sentAt).toBe(detail.events[1]?.at);

    const copyRes = await call(send, 'GET', `/api/v1/messages/${copy.id}`);
    expect(copyRes.json()).toMatchObject({
      recipientKind: 'cc',
      copyOf: one.id,
      to: 'copia@destino.com.br',
      status: 'delivered',
    });

    const bounced = (await call(send, 'GET', `/api/v1/messages/${refused.id}`)).json();
    expect(bounced).toMatchObject({ status: 'bounced', costMillis: 0 });
    expect(bounced.events.map((e: { type: string }) => e.type)).toEqual(['queued', 'bounced']);
    expect(bounced.events[1].detail).toContain('no such user');

    const skipped = (await call(send, 'GET', `/api/v1/messages/${suppressed.id}`)).json();
    expect(skipped).toMatchObject({ status: 'suppressed', stream: 'marketing', costMillis: 0 });
    expect(skipped.events.map((e: { type: string }) => e.type)).toEqual(['queued', 'suppressed']);

    // The list: newest first; every filter; the cursor walks every item once.
    const list = async (query: string) => {
      const r = await call(send, 'GET', `/api/v1/messages${query}`);
      expect(r.statusCode, r.body).toBe(200);
      return messageCollectionSchema.parse(r.json());
    };
    const all = await list('');
    expect(all.items.map((m) => m.id)).toEqual([suppressed.id, refused.id, copy.id, one.id]);
    expect(all.nextCursor).toBeNull();
    expect((await list('?recipient=UM@destino.com.br')).items.map((m) => m.id)).toEqual([one.id]);
    expect((await list('?status=bounced,suppressed')).items.map((m) => m.id)).toEqual([suppressed.id, refused.id]);
    expect((await list('?status=delivered')).items.map((m) => m.id)).toEqual([copy.id, one.id]);
    expect((await list('?tag=boleto')).items.map((m) => m.id)).toEqual([refused.id]);
    expect((await list('?stream=marketing')).items.map((m) => m.id)).toEqual([suppressed.id]);
    expect((await list('?since=2000-01-01&until=2000-01-02')).items).toEqual([]);
    expect(
      (await list(`?since=${encodeURIComponent(new Date(Date.now() - 3600_000).toISOString())}`)).items,
    ).toHaveLength(4);
    const walked: string[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await list(`?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      walked.push(...page.items.map((m) => m.id));
      cursor = page.nextCursor;
    }
    expect(walked).toEqual(all.items.map((m) => m.id));
    // A full key reads the same.
    expect((await call(full, 'GET', '/api/v1/messages')).json().items).toHaveLength(4);
  });

  it('never shows another account’s messages nor campaign messages (404), and refuses bad filters in pt-BR', async () => {
    const a = await account();
    const b = await account();
    const sent = await call(a.send, 'POST', '/api/v1/messages', body('x@destino.com.br'));
    const id = sent.json().messages[0].id;
    expect((await call(b.send, 'GET', `/api/v1/messages/${id}`)).statusCode).toBe(404);
    expect((await call(b.send, 'GET', '/api/v1/messages')).json().items).toEqual([]);
    const campaignId = await createReadyCampaign(h.db, a.user.accountId, { includeListIds: [] });
    const [campaignMessage] = await queryRows<{ id: string }>(
      h.db,
      sql`insert into messages (campaign_id, account_id, email, token)
          values (${campaignId}, ${a.user.accountId}, 'c@destino.com.br', ${`tok-${campaignId}`}) returning id::text as id`,
    );
    const notApi = await call(a.send, 'GET', `/api/v1/messages/${campaignMessage?.id}`);
    expect(notApi.statusCode).toBe(404);
    expect(notApi.json().error.message).toBe('Mensagem não encontrada.');
    expect((await call(a.send, 'GET', '/api/v1/messages/abc')).statusCode).toBe(404);
    for (const [query, expected] of [
      ['?status=entregue', MESSAGE_LOOKUP_STATUSES.map((v) => `\`${v}\``).join(', ')],
      ['?cursor=abc', 'Cursor inválido'],
      ['?since=ontem', 'since: use uma data ISO 8601'],
      ['?stream=sms', 'stream'],
      ['?recipient=nao-e-email', 'E-mail inválido'],
      ['?limit=500', 'limit'],
      ['?destinatario=x', 'destinatario'],
    ] as const) {
      const res = await call(a.send, 'GET', `/api/v1/messages${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error.message, query).toContain(expected);
    }
  });
});
