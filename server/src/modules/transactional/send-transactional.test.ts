import { generateKeyPairSync } from 'node:crypto';
import { type TransactionalMessageInput, transactionalMessageSchema } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import type { TestApp } from '../../../test/support/test-app';
import { testClock } from '../../../test/support/test-clock';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { SenderSettings, SendingEngine } from '../../worker/sending-engine';
import { accounts } from '../accounts/accounts.db';
import { ledgerEntries } from '../billing/billing.db';
import { campaigns } from '../campaigns/campaigns.db';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { BatchLeases } from '../sending/batch-leases';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, dkimDnsRecord } from '../sending/dkim/dkim-signer';
import { messages } from '../sending/messages.db';
import { dkimResults, recordsResolver } from '../sending/testing/dkim-check';
import { runEngineUntil, useEngineHarness } from '../sending/testing/engine-harness';
import {
  createListWithContacts,
  creditAccount,
  suppressEmail,
  testSenderSettings,
} from '../sending/testing/send-fixtures';
import type { SmtpSink } from '../sending/testing/smtp-sink';
import { createTemplate } from '../templates/templates';
import { sendTransactional } from './send-transactional';
import { TransactionalLanes } from './transactional-lanes';

const PUBLIC_URL = 'https://app.carteiro.test';

const message = (overrides: Record<string, unknown> = {}): TransactionalMessageInput =>
  transactionalMessageSchema.parse({
    to: { email: 'cliente@destino.com.br', name: 'Cliente Feliz' },
    from: { email: 'pedidos@loja.com.br', name: 'Loja Ação' },
    subject: 'Seu pedido {{ pedido }} foi confirmado',
    html: '<html><body><p>Olá, {{ contato.nome }}! Pedido {{ pedido }}.</p><a href="https://loja.com.br/pedidos/{{ pedido }}">Acompanhar</a></body></html>',
    data: { pedido: '1234' },
    ...overrides,
  });

describe.each(DATABASE_KINDS)('transactional send through the engine on %s', (kind) => {
  const harness = useEngineHarness(kind);
  let t: TestApp;
  let sink: SmtpSink;
  let db: Db;
  beforeAll(() => {
    ({ t, sink, db } = harness);
  });

  function newSender(overrides: Partial<SenderSettings> = {}, signers: ReturnType<typeof createDkimSigner>[] = []) {
    return harness.newSender({
      signers,
      settings: testSenderSettings(overrides),
      logger: pino({ level: process.env.SENDER_LOG ?? 'silent' }),
    });
  }

  /** Ticks the engine until none of these messages is queued any more. */
  async function drain(sender: SendingEngine, ids: string[], ms = 10_000) {
    let rows: Awaited<ReturnType<typeof rowsOf>> = [];
    await runEngineUntil(
      sender,
      async () => {
        rows = await rowsOf(ids);
        return rows.every((r) => r.status !== 'queued');
      },
      'no message queued',
      { ms, explain: async () => JSON.stringify(await rowsOf(ids)) },
    );
    return rows;
  }

  async function rowsOf(ids: string[]) {
    const rows = await db
      .select()
      .from(messages)
      .where(sql`${messages.id} = any(${`{${ids.join(',')}}`}::bigint[])`);
    return ids.map((id) => rows.find((r) => String(r.id) === id) as (typeof rows)[number]);
  }

  async function account(creditMillis: number) {
    const user = await signUp(t, { verified: true });
    if (creditMillis > 0) await creditAccount(db, user.accountId, creditMillis);
    // Only a verified sender may send.
    await trustSenderAddress(db, user.accountId, 'pedidos@loja.com.br');
    return user.accountId;
  }

  async function balanceOf(accountId: string) {
    const [row] = await db.select({ b: accounts.balanceMillis }).from(accounts).where(eq(accounts.id, accountId));
    return Number(row?.b);
  }

  const received = (to: string, from = 0) => sink.messages.slice(from).filter((m) => m.to === to);

  it('sends one message: charged at the price, merged, tracked, DKIM-signed, without List-Unsubscribe', async () => {
    const accountId = await account(1_000);
    const { privateKey } = generateKeyPairSync('ed25519');
    const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const signer = createDkimSigner({
      domain: 'loja.com.br',
      selector: 'tx',
      privateKeyPem: pem,
      algorithm: 'ed25519-sha256',
      headerNames: DEFAULT_SIGNED_HEADERS,
    });
    const before = sink.messages.length;
    const result = await sendTransactional(
      db,
      accountId,
      [message({ to: { email: 'um@destino.com.br', name: 'Cliente Feliz' } })],
      {
        publicUrl: PUBLIC_URL,
      },
    );
    expect(result).toMatchObject({
      costMillis: 5,
      balanceMillis: 995,
      messages: [{ to: 'um@destino.com.br', status: 'queued', costMillis: 5 }],
    });
    const id = result.messages[0]?.id as string;
    const [row] = await drain(newSender({}, [signer]), [id]);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });

    const got = received('um@destino.com.br', before);
    expect(got).toHaveLength(1);
    const raw = got[0]?.raw as Buffer;
    expect(got[0]?.from).toBe(`b+${row?.token}@bounces.carteiro.test`);
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe('Seu pedido 1234 foi confirmado');
    expect(mail.from?.value[0]).toMatchObject({ address: 'pedidos@loja.com.br', name: 'Loja Ação' });
    expect(mail.headers.has('list-unsubscribe')).toBe(false);
    expect(mail.headers.has('list-id')).toBe(false);
    expect(String(mail.headers.get('feedback-id'))).toMatch(/:transactional:carteiro$/);
    const html = String(mail.html);
    expect(html).toContain('Olá, Cliente Feliz! Pedido 1234.');
    expect(html).toMatch(/href="https:\/\/app\.carteiro\.test\/c\/[A-Za-z0-9_-]+"/);
    expect(html).not.toContain('https://loja.com.br/pedidos/1234');
    expect(html).toMatch(/https:\/\/app\.carteiro\.test\/o\/[A-Za-z0-9_-]+\.gif/);
    expect(mail.text).toContain('https://loja.com.br/pedidos/1234');

    const verified = await dkimResults(raw, recordsResolver({ 'tx._domainkey.loja.com.br': dkimDnsRecord(pem) }));
    expect(verified).toEqual(['pass']);

    // The click link redirects to the order page through the existing token scheme.
    const href = /href="https:\/\/app\.carteiro\.test(\/c\/[A-Za-z0-9_-]+)"/.exec(html)?.[1] as string;
    const click = await t.app.inject({ method: 'GET', url: href });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://loja.com.br/pedidos/1234');

    // The stream is hidden from the campaign list.
    const [stream] = await db.select().from(campaigns).where(eq(campaigns.createdBy, accountId));
    expect(stream).toMatchObject({ kind: 'transactional', status: 'sent' });
  });

  it('renders a library template with the merge data; the template subject unless one is given', async () => {
    const accountId = await account(1_000);
    // Library templates accept the account's contact fields (validate-template.ts): `cidade` is one here.
    await createListWithContacts(db, accountId, ['contato@destino.com.br'], { cidade: 'Salvador' });
    const template = await createTemplate(db, accountId, {
      name: 'Pedido enviado',
      subject: 'Pedido a caminho, {{ contato.nome }}',
      html: '<p>Olá, {{ contato.nome | upcase }}! Entrega em {{ contato.cidade }}.</p><p>{{ conta.nome }}</p>',
    });
    const before = sink.messages.length;
    const result = await sendTransactional(
      db,
      accountId,
      [
        message({
          to: { email: 'tpl@destino.com.br', name: 'Ana' },
          templateId: template.id,
          subject: undefined,
          html: undefined,
          data: { contato: { cidade: 'Recife' } },
        }),
        message({
          to: { email: 'tpl2@destino.com.br' },
          templateId: template.id,
          subject: 'Código {{ codigo }}',
          html: undefined,
          data: { codigo: '987654', cidade: 'Natal' },
        }),
      ],
      { publicUrl: PUBLIC_URL },
    );
    expect(result.costMillis).toBe(10);
    await drain(
      newSender(),
      result.messages.map((m) => m.id),
    );
    const mail = await simpleParser(received('tpl@destino.com.br', before)[0]?.raw as Buffer);
    expect(mail.subject).toBe('Pedido a caminho, Ana');
    expect(String(mail.html)).toContain('Olá, ANA! Entrega em Recife.');
    expect(mail.text).toContain('Olá, ANA! Entrega em Recife.');
    const other = await simpleParser(received('tpl2@destino.com.br', before)[0]?.raw as Buffer);
    expect(String(other.html)).toContain('Entrega em Natal.');
    expect(other.subject).toBe('Código 987654');
  });

  it('refuses broken Liquid, an unknown template and marketing without the unsubscribe link (pt-BR 4xx)', async () => {
    const accountId = await account(1_000);
    const send = (m: TransactionalMessageInput) => sendTransactional(db, accountId, [m], { publicUrl: PUBLIC_URL });
    await expect(send(message({ html: '<p>{% if %}</p>' }))).rejects.toMatchObject({
      code: 'validation_failed',
      status: 400,
      message: expect.stringMatching(/^Erro de sintaxe no modelo/),
    });
    await expect(send(message({ templateId: '00000000-0000-4000-8000-000000000000' }))).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
      message: 'Modelo não encontrado nesta conta.',
    });
    await expect(send(message({ category: 'marketing' }))).rejects.toMatchObject({
      code: 'validation_failed',
      message: expect.stringContaining('link de descadastro'),
    });
    await expect(send(message({ data: { pedido: 'a\u0000b' } }))).rejects.toMatchObject({
      code: 'validation_failed',
      message: 'O texto contém um caractere inválido (NUL, \\u0000).',
    });
    expect(await balanceOf(accountId)).toBe(1_000);
  });

  it('charges a batch atomically: a short balance is a 402 naming the missing amount, and nothing happens', async () => {
    const accountId = await account(12);
    const batch = ['a', 'b', 'c'].map((p) => message({ to: { email: `${p}@curto.com.br` } }));
    const error = await sendTransactional(db, accountId, batch, { publicUrl: PUBLIC_URL }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: 'insufficient_balance',
      status: 402,
      message: 'Saldo insuficiente: faltam R$\u00a00,003 para enviar estas 3 mensagens.',
      details: { missingMillis: 3, costMillis: 15, balanceMillis: 12 },
    });
    expect(await balanceOf(accountId)).toBe(12);
    const rows = await db.select().from(messages).where(eq(messages.accountId, accountId));
    expect(rows).toHaveLength(0);
    const ledger = await db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));
    expect(ledger.map((e) => e.kind)).toEqual(['adjustment']);

    // Two of them fit.
    const ok = await sendTransactional(db, accountId, batch.slice(0, 2), { publicUrl: PUBLIC_URL });
    expect(ok).toMatchObject({ costMillis: 10, balanceMillis: 2 });
  });

  it('does not send nor charge a suppressed address (status suppressed, cost 0)', async () => {
    const accountId = await account(1_000);
    await suppressEmail(db, accountId, 'fora@destino.com.br');
    const before = sink.messages.length;
    const result = await sendTransactional(
      db,
      accountId,
      [message({ to: { email: 'fora@destino.com.br' } }), message({ to: { email: 'dentro@destino.com.br' } })],
      { publicUrl: PUBLIC_URL },
    );
    expect(result).toMatchObject({
      costMillis: 5,
      balanceMillis: 995,
      messages: [
        { to: 'fora@destino.com.br', status: 'suppressed', costMillis: 0 },
        { to: 'dentro@destino.com.br', status: 'queued', costMillis: 5 },
      ],
    });
    const rows = await drain(
      newSender(),
      result.messages.map((m) => m.id),
    );
    expect(rows.map((r) => r.status)).toEqual(['skipped', 'sent']);
    expect(received('fora@destino.com.br', before)).toHaveLength(0);
    expect(received('dentro@destino.com.br', before)).toHaveLength(1);

    // Suppressed after the request, before delivery: skipped and refunded.
    const late = await sendTransactional(db, accountId, [message({ to: { email: 'tarde@destino.com.br' } })], {
      publicUrl: PUBLIC_URL,
    });
    expect(late.balanceMillis).toBe(990);
    await suppressEmail(db, accountId, 'tarde@destino.com.br');
    const [row] = await drain(newSender(), [late.messages[0]?.id as string]);
    expect(row?.status).toBe('skipped');
    expect(await balanceOf(accountId)).toBe(995);
  });

  it('marketing carries List-Unsubscribe (one-click) and the unsubscribe link in the content', async () => {
    const accountId = await account(1_000);
    const before = sink.messages.length;
    const result = await sendTransactional(
      db,
      accountId,
      [
        message({
          to: { email: 'mkt@destino.com.br' },
          category: 'marketing',
          html: '<p>Promoção!</p><a href="{{ link_descadastro }}">Descadastrar</a>',
        }),
      ],
      { publicUrl: PUBLIC_URL },
    );
    const [row] = await drain(newSender(), [result.messages[0]?.id as string]);
    const raw = received('mkt@destino.com.br', before)[0]?.raw as Buffer;
    const mail = await simpleParser(raw);
    const unsubscribe = `https://app.carteiro.test/u/${row?.token}`;
    const headerText = raw.toString('latin1').split('\r\n\r\n')[0] as string;
    expect(headerText).toContain(`List-Unsubscribe: <${unsubscribe}>`);
    expect(headerText).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(String(mail.html)).toContain(`href="${unsubscribe}"`);
    expect(String(mail.headers.get('feedback-id'))).toMatch(/:marketing:carteiro$/);

    // The one-click unsubscribe suppresses the address's marketing stream: the next marketing send is not charged,
    // a transactional one still goes.
    const res = await t.app.inject({
      method: 'POST',
      url: `/u/${row?.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(res.statusCode).toBeLessThan(300);
    const again = await sendTransactional(
      db,
      accountId,
      [
        message({
          to: { email: 'mkt@destino.com.br' },
          category: 'marketing',
          html: '<p>Promoção!</p><a href="{{ link_descadastro }}">Descadastrar</a>',
        }),
        message({ to: { email: 'mkt@destino.com.br' }, category: 'transactional' }),
      ],
      { publicUrl: PUBLIC_URL },
    );
    expect(again.messages[0]).toMatchObject({ status: 'suppressed', costMillis: 0 });
    expect(again.messages[1]).toMatchObject({ status: 'queued', costMillis: 5 });
  });

  it('keeps the ledger exact: a 5xx is refunded, the balance is the sum of the entries', async () => {
    const accountId = await account(1_000);
    sink.rcptReply = (address) =>
      address === 'recusa@destino.com.br' ? { code: 550, message: '5.1.1 Caixa inexistente' } : null;
    const result = await sendTransactional(
      db,
      accountId,
      [message({ to: { email: 'recusa@destino.com.br' } }), message({ to: { email: 'aceita@destino.com.br' } })],
      { publicUrl: PUBLIC_URL },
    );
    expect(result).toMatchObject({ costMillis: 10, balanceMillis: 990 });
    const rows = await drain(
      newSender(),
      result.messages.map((m) => m.id),
    );
    expect(rows.map((r) => r.status)).toEqual(['failed', 'sent']);
    expect(rows[0]?.smtpCode).toBe(550);
    expect(await balanceOf(accountId)).toBe(995);
    const ledger = await db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.accountId, accountId))
      .orderBy(ledgerEntries.seq);
    expect(ledger.map((e) => [e.kind, e.amountMillis, e.balanceAfterMillis])).toEqual([
      ['adjustment', 1_000, 1_000],
      ['send', -10, 990],
      ['refund', 5, 995],
    ]);
    expect(ledger[2]?.description).toBe('Estorno de envio transacional: 1 e-mail não entregue (R$\u00a00,005)');
  });

  it('cuts a large batch into engine batches of 100 and delivers every message once, with its tags stored', async () => {
    const accountId = await account(10_000);
    const before = sink.messages.length;
    const batch = Array.from({ length: 150 }, (_, i) =>
      message({ to: { email: `lote${i}@destino.com.br`, name: `Pessoa ${i}` }, tags: ['pedido', `n${i}`] }),
    );
    const result = await sendTransactional(db, accountId, batch, { publicUrl: PUBLIC_URL });
    expect(result).toMatchObject({ costMillis: 750, balanceMillis: 9_250 });
    const ids = result.messages.map((m) => m.id);
    expect(ids.map(Number)).toEqual([...ids.map(Number)].sort((a, b) => a - b));
    const [stream] = await db.select().from(campaigns).where(eq(campaigns.createdBy, accountId));
    const batches = await queryRows<{ first: number; last: number }>(
      db,
      sql`select first_message_id as first, last_message_id as last from message_batches
           where campaign_id = ${stream?.id} order by id`,
    );
    expect(batches.map((b) => [Number(b.first), Number(b.last)])).toEqual([
      [Number(ids[0]), Number(ids[99])],
      [Number(ids[100]), Number(ids[149])],
    ]);
    const [tags] = await queryRows<{ tags: string[] | string }>(
      db,
      sql`select tags from transactional_messages where message_id = ${Number(ids[7])}`,
    );
    expect(String(tags?.tags).replace(/[{}"]/g, '')).toBe('pedido,n7');
    const rows = await drain(newSender({ batchSize: 50 }), ids);
    expect(rows.every((r) => r.status === 'sent')).toBe(true);
    const got = sink.messages.slice(before).filter((m) => m.to.startsWith('lote'));
    expect(got).toHaveLength(150);
    expect(new Set(got.map((m) => m.to)).size).toBe(150);
  });

  it('retries a 4xx with back-off and delivers once', async () => {
    const accountId = await account(1_000);
    sink.rcptReply = (address, attempt) =>
      address === 'depois@destino.com.br' && attempt === 1 ? { code: 451, message: '4.7.1 Tente mais tarde' } : null;
    const before = sink.messages.length;
    const result = await sendTransactional(db, accountId, [message({ to: { email: 'depois@destino.com.br' } })], {
      publicUrl: PUBLIC_URL,
    });
    const [row] = await drain(newSender({ retryBaseSeconds: 0 }), [result.messages[0]?.id as string]);
    expect(row).toMatchObject({ status: 'sent', attempts: 2 });
    expect(received('depois@destino.com.br', before)).toHaveLength(1);
    expect(await balanceOf(accountId)).toBe(995);
  });

  it('re-delivers, once, a message whose worker died after the relay accepted it; charged once', async () => {
    const accountId = await account(1_000);
    const before = sink.messages.length;
    const result = await sendTransactional(db, accountId, [message({ to: { email: 'queda@destino.com.br' } })], {
      publicUrl: PUBLIC_URL,
    });
    const id = result.messages[0]?.id as string;
    // A worker claims the batch, the relay accepts the message, and the process dies before recording it.
    const transport = harness.newTransport(1);
    const dying = new TransactionalLanes({
      db,
      workerId: 'morto',
      settings: testSenderSettings(),
      signers: [],
      logger: pino({ level: 'silent' }),
      leases: new BatchLeases(db, 'morto', 60, pino({ level: 'silent' })),
      deliver: async (_relay, wire) => {
        await transport.deliver(wire);
        throw new Error('processo morto');
      },
    });
    await expect(dying.sendBatch()).rejects.toThrow('processo morto');
    expect(received('queda@destino.com.br', before)).toHaveLength(1);
    expect((await rowsOf([id]))[0]?.status).toBe('queued');

    // A live worker does not touch the batch while the lease holds…
    const live = newSender({ leaseSeconds: 60 });
    await live.tick();
    expect(received('queda@destino.com.br', before)).toHaveLength(1);
    // …and re-queues and re-delivers it once the lease expired.
    await db.execute(
      sql`update message_batches set claimed_at = now() - interval '10 minutes' where claimed_by = 'morto'`,
    );
    const [row] = await drain(live, [id]);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    await live.tick();
    expect(received('queda@destino.com.br', before)).toHaveLength(2);
    const [charged] = await queryRows<{ n: number }>(
      db,
      sql`select coalesce(sum(amount_millis), 0)::int as n from ledger_entries where account_id = ${accountId} and kind in ('send', 'refund')`,
    );
    expect(charged?.n).toBe(-5);
  });

  it('re-queues a dead worker’s batch on the housekeeping sweep: at most sweepMs after its lease expired', async () => {
    const accountId = await account(1_000);
    const before = sink.messages.length;
    const result = await sendTransactional(db, accountId, [message({ to: { email: 'varre@destino.com.br' } })], {
      publicUrl: PUBLIC_URL,
    });
    const id = result.messages[0]?.id as string;
    const dying = new TransactionalLanes({
      db,
      workerId: 'morto-2',
      settings: testSenderSettings(),
      signers: [],
      logger: pino({ level: 'silent' }),
      leases: new BatchLeases(db, 'morto-2', 60, pino({ level: 'silent' })),
      deliver: async () => {
        throw new Error('processo morto');
      },
    });
    await expect(dying.sendBatch()).rejects.toThrow('processo morto');
    const clock = testClock(new Date('2026-11-26T10:00:00Z'));
    const live = harness.newSender({
      settings: testSenderSettings({ leaseSeconds: 60, sweepMs: 1_000 }),
      logger: pino({ level: 'silent' }),
      clock: clock.now,
    });
    await live.tick(); // the first tick sweeps: the lease still holds
    await db.execute(
      sql`update message_batches set claimed_at = now() - interval '10 minutes' where claimed_by = 'morto-2'`,
    );
    const held = async () =>
      (
        await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from message_batches where claimed_by = 'morto-2' and status = 'sending'`,
        )
      )[0]?.n;
    // Within the interval (worker clock) the ticks do not sweep: the batch stays with the dead worker…
    clock.advance(999);
    await live.tick();
    await live.tick();
    expect(await held()).toBe(1);
    expect((await rowsOf([id]))[0]?.status).toBe('queued');
    // …and the first tick past it re-queues it; delivered once.
    clock.advance(1);
    await live.tick();
    expect(await held()).toBe(0);
    clock.advance(1_000); // past the stream's idle re-check after the empty claims above
    const [row] = await drain(live, [id]);
    expect(row).toMatchObject({ status: 'sent', attempts: 1 });
    expect(received('varre@destino.com.br', before)).toHaveLength(1);
  });
});
