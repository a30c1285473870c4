import { WEBHOOK_EVENT_SCHEMAS } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApiKeyFor } from '../../../test/support/api-key';
import { signUp } from '../../../test/support/sign-in';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { accounts } from '../accounts/accounts.db';
import { ledgerEntries } from '../billing/billing.db';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { useEngineHarness } from '../sending/testing/engine-harness';
import { creditAccount } from '../sending/testing/send-fixtures';
import { createTemplate } from '../templates/templates';
import { webhookEndpoints } from '../webhooks/webhooks.db';
import { messageApi } from './testing/message-api';

const json = { 'content-type': 'application/json' };

/**
 * Test keys (`ct_test_…`, ADR 0035): the same validation, rendering and answers as a live key, a lookup and the
 * rendered content, but nothing reaches the relay, nothing is charged, the webhook says `test: true`, and test and
 * live messages never see each other.
 */
describe.each(DATABASE_KINDS)('test keys (sandbox) on %s', (kind) => {
  const h = useEngineHarness(kind, { API_RATE_LIMIT: '1000' });

  const api = messageApi(h);
  const { call } = api;

  it('sends, answers and shows like a live key; delivers, charges and leaks nothing', async () => {
    const owner = await signUp(h.t, { verified: true });
    await creditAccount(h.db, owner.accountId, 1_000);
    await trustSenderAddress(h.db, owner.accountId, 'pedidos@loja.com.br');
    await h.db.insert(webhookEndpoints).values({
      accountId: owner.accountId,
      url: 'https://hooks.example/carteiro',
      eventTypes: ['message.delivered'],
      secretCiphertext: 'sealed',
    });
    const fullTest = await h.t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...owner.headers, ...json },
      payload: { name: 'Teste', scope: 'full', mode: 'test' },
    });
    expect(fullTest.statusCode).toBe(400);
    expect(fullTest.json().error.details.fields[0].path).toBe('scope');
    const created = await h.t.app.inject({
      method: 'POST',
      url: '/api/api-keys',
      headers: { ...owner.headers, ...json },
      payload: { name: 'Homologação', scope: 'send_only', mode: 'test' },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ mode: 'test', scope: 'send_only' });
    const test = created.json().secret as string;
    expect(test).toMatch(/^ct_test_[A-Za-z0-9_-]{43}$/);
    const live = await createApiKeyFor(h.t, owner, 'send_only');
    const listed = await h.t.app.inject({ url: '/api/api-keys', headers: owner.headers });
    expect(
      listed
        .json()
        .items.map((k: { mode: string }) => k.mode)
        .sort(),
    ).toEqual(['live', 'test']);

    const template = await createTemplate(h.db, owner.accountId, {
      name: 'Pedido',
      subject: 'Pedido {{ dados.pedido }}',
      html: '<p>Olá, {{ contato.nome }}: pedido {{ dados.pedido }}.</p>',
      variables: ['pedido'],
    });
    const message = {
      to: { email: 'sandbox@destino.com.br', name: 'Bia' },
      from: { email: 'pedidos@loja.com.br' },
      templateId: template.id,
      data: { pedido: 'T-1' },
      cc: [{ email: 'copia@destino.com.br' }],
      tags: ['homologacao'],
    };
    // The same validation as live: an undeclared key is named.
    const refused = await call(test, 'POST', '/api/v1/messages', { ...message, data: { pedido: '1', x: 1 } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error).toMatchObject({ code: 'unknown_fields', details: { unknown: ['data.x'] } });

    const sent = await call(test, 'POST', '/api/v1/messages', message, { 'idempotency-key': 'pedido-T-1' });
    expect(sent.statusCode, sent.body).toBe(201);
    expect(sent.json()).toMatchObject({
      costMillis: 0,
      balanceMillis: 1_000,
      messages: [{ to: 'sandbox@destino.com.br', status: 'queued', costMillis: 0, copies: [{ status: 'queued' }] }],
    });
    const id = sent.json().messages[0].id as string;
    const copyId = sent.json().messages[0].copies[0].id as string;

    // The engine runs and the relay gets nothing; the balance and the ledger are untouched.
    const engine = h.newSender();
    for (let i = 0; i < 5; i++) await engine.tick();
    expect(h.sink.messages.filter((m) => m.to.endsWith('@destino.com.br'))).toEqual([]);
    const [account] = await h.db.select().from(accounts).where(eq(accounts.id, owner.accountId));
    expect(Number(account?.balanceMillis)).toBe(1_000);
    const sends = await h.db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, owner.accountId));
    expect(sends.filter((e) => e.kind === 'send')).toEqual([]);

    const lookup = await call(test, 'GET', `/api/v1/messages/${id}`);
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json()).toMatchObject({ status: 'delivered', sandbox: true, subject: 'Pedido T-1', costMillis: 0 });
    expect(lookup.json().events.map((e: { type: string }) => e.type)).toEqual(['queued', 'delivered']);
    const content = await call(test, 'GET', `/api/v1/messages/${id}/content`);
    expect(content.json()).toMatchObject({ id, subject: 'Pedido T-1' });
    expect(content.json().html).toContain('Olá, Bia: pedido T-1.');

    // The webhooks hear of it, marked as a test.
    const events = await queryRows<{ payload: unknown }>(
      h.db,
      sql`select payload from webhook_events where account_id = ${owner.accountId} and type = 'message.delivered'`,
    );
    const data = events.map(
      ({ payload }) =>
        WEBHOOK_EVENT_SCHEMAS['message.delivered'].parse(typeof payload === 'string' ? JSON.parse(payload) : payload)
          .data,
    );
    expect(data.map((d) => [d.messageId, d.test, d.tags]).sort()).toEqual(
      [
        [id, true, ['homologacao']],
        [copyId, true, ['homologacao']],
      ].sort(),
    );

    // Test and live messages never see each other, nor share Idempotency-Keys.
    const liveSent = await call(live, 'POST', '/api/v1/messages', message, { 'idempotency-key': 'pedido-T-1' });
    expect(liveSent.statusCode).toBe(201);
    expect(liveSent.headers['idempotent-replayed']).toBeUndefined();
    expect(liveSent.json().costMillis).toBe(10);
    const liveId = liveSent.json().messages[0].id as string;
    expect((await call(live, 'GET', `/api/v1/messages/${id}`)).statusCode).toBe(404);
    expect((await call(live, 'GET', `/api/v1/messages/${id}/content`)).statusCode).toBe(404);
    expect((await call(test, 'GET', `/api/v1/messages/${liveId}`)).statusCode).toBe(404);
    const testList = (await call(test, 'GET', '/api/v1/messages')).json().items.map((m: { id: string }) => m.id);
    expect(testList.sort()).toEqual([id, copyId].sort());
    const liveList = (await call(live, 'GET', '/api/v1/messages')).json().items.map((m: { id: string }) => m.id);
    expect(liveList).not.toContain(id);
    expect(liveList).toContain(liveId);

    // A test key does nothing but messages: events would start automations that really send.
    const other = await call(test, 'POST', '/api/v1/events', { email: 'sandbox@destino.com.br', name: 'pedido_pago' });
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('api_key_scope');
  });
});
