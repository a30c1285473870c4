import { type TransactionalMessageInput, transactionalMessageSchema } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { accounts } from '../accounts/accounts.db';
import { ledgerEntries } from '../billing/billing.db';
import { senderDomains } from '../sender-identities/sender-identities.db';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { messages } from '../sending/messages.db';
import { creditAccount, suppressEmail } from '../sending/testing/send-fixtures';
import { sendTransactionalGrouped } from './group-commit';
import { commitTransactional, prepareTransactional } from './send-transactional';
import { transactionalMessages } from './transactional.db';

const options = { publicUrl: 'https://app.carteiro.test' };

const message = (to: string, overrides: Record<string, unknown> = {}): TransactionalMessageInput =>
  transactionalMessageSchema.parse({
    to: { email: to, name: 'Cliente' },
    from: { email: 'pedidos@loja.com.br', name: 'Loja' },
    subject: 'Pedido {{ pedido }}',
    html: '<p>Olá, {{ contato.nome }}! Pedido {{ pedido }}.</p>',
    data: { pedido: '42' },
    ...overrides,
  });

describe.each(DATABASE_KINDS)('group commit of transactional single sends on %s', (kind) => {
  let t: TestApp;
  let db: Db;

  beforeAll(async () => {
    t = await createTestApp(kind);
    db = t.database.db;
  });
  afterAll(async () => {
    await t.close();
  });

  async function account(creditMillis: number) {
    const user = await signUp(t, { verified: true });
    if (creditMillis > 0) await creditAccount(db, user.accountId, creditMillis);
    await trustSenderAddress(db, user.accountId, 'pedidos@loja.com.br');
    return user.accountId;
  }

  async function ledgerOf(accountId: string) {
    const entries = await db.select().from(ledgerEntries).where(eq(ledgerEntries.accountId, accountId));
    const [row] = await db.select().from(accounts).where(eq(accounts.id, accountId));
    return {
      sends: entries.filter((e) => e.kind === 'send'),
      sum: entries.reduce((s, e) => s + Number(e.amountMillis), 0),
      balance: Number(row?.balanceMillis),
    };
  }

  it('commits several requests in one transaction: one answer each, one ledger entry the messages attribute', async () => {
    const accountId = await account(1_000);
    await suppressEmail(db, accountId, 'fora@destino.com.br');
    const requests = await Promise.all(
      ['a@destino.com.br', 'fora@destino.com.br', 'b@destino.com.br', 'c@destino.com.br'].map((to) =>
        prepareTransactional(db, accountId, [message(to)], options),
      ),
    );
    const answers = await commitTransactional(db, accountId, requests);

    expect(answers).toHaveLength(4);
    expect(answers.map((a) => a.messages.map((m) => [m.to, m.status, m.costMillis]))).toEqual([
      [['a@destino.com.br', 'queued', 5]],
      [['fora@destino.com.br', 'suppressed', 0]],
      [['b@destino.com.br', 'queued', 5]],
      [['c@destino.com.br', 'queued', 5]],
    ]);
    expect(answers.map((a) => a.costMillis)).toEqual([5, 0, 5, 5]);
    for (const a of answers) expect(a.balanceMillis).toBe(985);
    const ids = answers.map((a) => Number(a.messages[0]?.id));
    expect(new Set(ids).size).toBe(4);
    expect([...ids].sort((x, y) => x - y)).toEqual(ids); // one ascending run, in request order

    const ledger = await ledgerOf(accountId);
    expect(ledger.sends).toHaveLength(1);
    expect(ledger.sends[0]).toMatchObject({ amountMillis: -15, emailCount: 3, priceMillis: 5 });
    expect(ledger.balance).toBe(985);
    expect(ledger.sum).toBe(985);
    // The statement attributes the group entry per message: each queued message carries its price, a suppressed
    // one (stored for the lookup) 0.
    const content = await db.select().from(transactionalMessages).where(eq(transactionalMessages.accountId, accountId));
    expect(content.map((c) => c.costMillis).sort()).toEqual([0, 5, 5, 5]);
    const stored = await db.select().from(messages).where(eq(messages.accountId, accountId));
    expect(stored).toHaveLength(4);
    const streamId = stored[0]?.campaignId as string;
    const batches = await queryRows<{ first: number; last: number }>(
      db,
      sql`select first_message_id as first, last_message_id as last from message_batches where campaign_id = ${streamId}`,
    );
    expect(batches.map((b) => [Number(b.first), Number(b.last)])).toEqual([[ids[0], ids[3]]]);
  });

  it('commits in one statement what holds under the lock: a new price is charged, a suspension is a 403, a short balance writes nothing', async () => {
    const accountId = await account(100);
    const prepared = await prepareTransactional(db, accountId, [message('preco@destino.com.br')], options);
    expect(prepared.priceMillis).toBe(5);
    // The operator changes the price between the (unlocked) prepare and the commit: the commit charges the new one.
    await db.update(accounts).set({ priceMillis: 7 }).where(eq(accounts.id, accountId));
    const answer = await commitTransactional(db, accountId, prepared);
    expect(answer).toMatchObject({ costMillis: 7, balanceMillis: 93 });
    expect(answer.messages[0]).toMatchObject({ status: 'queued', costMillis: 7 });
    const [content] = await db
      .select({ cost: transactionalMessages.costMillis })
      .from(transactionalMessages)
      .where(eq(transactionalMessages.messageId, Number(answer.messages[0]?.id)));
    expect(content?.cost).toBe(7);
    expect((await ledgerOf(accountId)).sends.map((e) => [Number(e.amountMillis), e.priceMillis, e.emailCount])).toEqual(
      [[-7, 7, 1]],
    );

    // Suspended after the prepare: 403, and nothing stored nor charged.
    const later = await prepareTransactional(db, accountId, [message('depois@destino.com.br')], options);
    await db.update(accounts).set({ status: 'suspended' }).where(eq(accounts.id, accountId));
    await expect(commitTransactional(db, accountId, later)).rejects.toMatchObject({ code: 'account_suspended' });
    await db.update(accounts).set({ status: 'active' }).where(eq(accounts.id, accountId));

    // A balance that no longer covers it (debited meanwhile): 402 with the missing amount; nothing written.
    await db.update(accounts).set({ balanceMillis: 3 }).where(eq(accounts.id, accountId));
    await expect(commitTransactional(db, accountId, later)).rejects.toMatchObject({
      code: 'insufficient_balance',
      status: 402,
      details: { missingMillis: 4, costMillis: 7, balanceMillis: 3 },
    });
    const stored = await db.select({ id: messages.id }).from(messages).where(eq(messages.accountId, accountId));
    expect(stored).toHaveLength(1);
    expect((await ledgerOf(accountId)).sends).toHaveLength(1);
  });

  it("later commits join the stream's newest unclaimed, due batch while its id range stays under 100", async () => {
    const accountId = await account(10_000);
    const send = async (n: number, prefix: string) => {
      const inputs = Array.from({ length: n }, (_, i) => message(`${prefix}${i}@destino.com.br`));
      const answer = await commitTransactional(
        db,
        accountId,
        await prepareTransactional(db, accountId, inputs, options),
      );
      return answer.messages.map((m) => Number(m.id));
    };
    const [a] = await send(1, 'a');
    const streamId = (await db.select().from(messages).where(eq(messages.accountId, accountId)))[0]?.campaignId;
    const batches = async () =>
      (
        await queryRows<{ first: number; last: number; status: string }>(
          db,
          sql`select first_message_id as first, last_message_id as last, status from message_batches
               where campaign_id = ${streamId} order by id`,
        )
      ).map((b) => [Number(b.first), Number(b.last), b.status]);
    const [b] = await send(1, 'b');
    expect(await batches()).toEqual([[a, b, 'queued']]); // extended, not a second batch

    // Claimed by a lane: never extended; the next commit makes its own batch.
    await queryRows(
      db,
      sql`update message_batches set status = 'sending', claimed_by = 'w1' where campaign_id = ${streamId}`,
    );
    const [c] = await send(1, 'c');
    expect(await batches()).toEqual([
      [a, b, 'sending'],
      [c, c, 'queued'],
    ]);
    // Waiting for a later retry: not extended either (its messages would wait with it).
    await queryRows(
      db,
      sql`update message_batches set due_at = now() + interval '1 hour' where campaign_id = ${streamId} and status = 'queued'`,
    );
    const [d] = await send(1, 'd');
    expect((await batches()).at(-1)).toEqual([d, d, 'queued']);

    // 120 messages would take the range past 100 ids: new batches of ≤ 100, as before; then a single send joins
    // the last one (its range stays under 100 ids).
    const many = await send(120, 'm');
    const [f] = await send(1, 'f');
    expect((await batches()).slice(-3)).toEqual([
      [d, d, 'queued'],
      [many[0], many[99], 'queued'],
      [many[100], f, 'queued'],
    ]);
  });

  // Two connections racing exist only on PostgreSQL (PGlite is one connection): the test is defined there only,
  // so it is never reported as skipped.
  if (kind === 'postgres')
    it("a commit that waited for another process's commit never extends a batch its snapshot saw as the newest", async () => {
      const accountId = await account(10_000);
      const inputs = (prefix: string, n: number) =>
        Array.from({ length: n }, (_, i) => message(`${prefix}${i}@destino.com.br`));
      await commitTransactional(db, accountId, await prepareTransactional(db, accountId, inputs('a', 1), options));
      const many = await prepareTransactional(db, accountId, inputs('m', 3), options);
      const late = await prepareTransactional(db, accountId, inputs('z', 1), options);
      /** Runs `work` in a transaction on its own connection and keeps it open until the returned `release()`. */
      const hold = async (work: (tx: Db) => Promise<unknown>) => {
        let release: () => void = () => {};
        const held = new Promise<void>((resolve) => {
          release = resolve;
        });
        let done: Promise<unknown> = Promise.resolve();
        await new Promise<void>((ready) => {
          done = db.transaction(async (tx) => {
            await work(tx as unknown as Db);
            ready();
            await held;
          });
        });
        return async () => {
          release();
          await done;
        };
      };
      // A lane holds the stream's batch for a moment, so process 1's commit (3 messages) makes a new batch and
      // keeps its transaction open; the lane lets go; process 2's commit takes its snapshot (process 1's batch not
      // in it) and waits for the account lock; process 1 commits. Process 2 must not extend the old batch over
      // process 1's messages.
      const lane = await hold((tx) =>
        queryRows(tx, sql`select id from message_batches where campaign_id = ${many.streamId} for update`),
      );
      const process1 = await hold((tx) => commitTransactional(tx, accountId, many));
      await lane();
      const second = commitTransactional(db, accountId, late);
      for (;;) {
        const [w] = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from pg_stat_activity
               where datname = current_database() and wait_event_type = 'Lock'`,
        );
        if (Number(w?.n) > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      await process1();
      await second;

      const rows = await queryRows<{ first: number; last: number }>(
        db,
        sql`select b.first_message_id as first, b.last_message_id as last from message_batches b
             join campaigns c on c.id = b.campaign_id where c.created_by = ${accountId} order by b.first_message_id`,
      );
      const ranges = rows.map((r) => [Number(r.first), Number(r.last)] as const);
      for (let i = 1; i < ranges.length; i++) expect(ranges[i]?.[0]).toBeGreaterThan(ranges[i - 1]?.[1] as number);
      const ids = (await db.select({ id: messages.id }).from(messages).where(eq(messages.accountId, accountId))).map(
        (m) => Number(m.id),
      );
      expect(ids).toHaveLength(5);
      for (const id of ids) expect(ranges.filter(([f, l]) => id >= f && id <= l)).toHaveLength(1);
    });

  it('N concurrent single sends: N messages, N answers, the ledger exact; a bad request fails alone', async () => {
    const accountId = await account(1_000);
    const n = 12;
    const settled = await Promise.allSettled(
      Array.from({ length: n }, (_, i) =>
        sendTransactionalGrouped(
          db,
          accountId,
          i === 5
            ? message(`p${i}@destino.com.br`, { html: '<p>{% if %}</p>' })
            : message(`p${i}@destino.com.br`, { data: { pedido: String(i) } }),
          options,
        ),
      ),
    );
    const failed = settled.filter((s) => s.status === 'rejected');
    expect(failed).toHaveLength(1);
    const reason = (failed[0] as PromiseRejectedResult).reason;
    expect(reason).toBeInstanceOf(AppError);
    expect(reason).toMatchObject({ code: 'validation_failed' });
    expect((reason as AppError).message).toContain('Erro de sintaxe no modelo');

    const answers = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
    expect(answers).toHaveLength(n - 1);
    for (const [i, s] of settled.entries()) {
      if (s.status !== 'fulfilled') continue;
      expect(s.value.messages).toHaveLength(1);
      expect(s.value.messages[0]).toMatchObject({ to: `p${i}@destino.com.br`, status: 'queued', costMillis: 5 });
      expect(s.value.costMillis).toBe(5);
    }
    const ids = answers.map((a) => a.messages[0]?.id);
    expect(new Set(ids).size).toBe(n - 1);

    const stored = await db.select().from(messages).where(eq(messages.accountId, accountId));
    expect(stored.map((m) => String(m.id)).sort()).toEqual([...ids].sort());
    const ledger = await ledgerOf(accountId);
    expect(ledger.sends.reduce((s, e) => s + Number(e.amountMillis), 0)).toBe(-5 * (n - 1));
    expect(ledger.sends.reduce((s, e) => s + Number(e.emailCount), 0)).toBe(n - 1);
    expect(ledger.balance).toBe(1_000 - 5 * (n - 1));
    expect(ledger.sum).toBe(ledger.balance);
    // The last answer to be committed reports the final balance.
    expect(Math.min(...answers.map((a) => a.balanceMillis))).toBe(ledger.balance);
  });

  it('a balance that covers part of a group: the first ones accepted, the others 402 each, the balance exact', async () => {
    const accountId = await account(15);
    const settled = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) => sendTransactionalGrouped(db, accountId, message(`s${i}@x.com.br`), options)),
    );
    const accepted = settled.filter((s) => s.status === 'fulfilled');
    const refused = settled.flatMap((s) => (s.status === 'rejected' ? [s.reason as AppError] : []));
    expect(accepted).toHaveLength(3);
    expect(refused).toHaveLength(2);
    for (const e of refused) {
      expect(e).toMatchObject({ code: 'insufficient_balance', status: 402 });
      expect(e.message).toBe('Saldo insuficiente: faltam R$\u00a00,005 para enviar esta mensagem.');
    }
    const stored = await db.select().from(messages).where(eq(messages.accountId, accountId));
    expect(stored).toHaveLength(3);
    const ledger = await ledgerOf(accountId);
    expect(ledger.balance).toBe(0);
    expect(ledger.sum).toBe(0);
    expect(ledger.sends.reduce((s, e) => s + Number(e.emailCount), 0)).toBe(3);
  });

  it('reads sender rule and suppressions in one statement, per account: domains, suspension, other accounts', async () => {
    const accountId = await account(1_000);
    const other = await account(1_000);
    // A verified domain of the account lets any of its addresses send; suspended, it does not.
    const [domain] = await db
      .insert(senderDomains)
      .values({
        accountId,
        domain: 'marca.com.br',
        selector: 'ct1',
        dkimRsaPrivateEnc: 'x',
        dkimRsaRecord: 'x',
        dkimEd25519PrivateEnc: 'x',
        dkimEd25519Record: 'x',
        status: 'verified',
      })
      .returning();
    const atDomain = message('a@destino.com.br', { from: { email: 'Vendas@Marca.com.br', name: 'Marca' } });
    const sent = await sendTransactionalGrouped(db, accountId, atDomain, options);
    expect(sent.messages[0]?.status).toBe('queued');
    // Another account's confirmed address and verified domain are not this account's senders.
    await trustSenderAddress(db, other, 'so-da-outra@loja.com.br');
    await expect(
      sendTransactionalGrouped(
        db,
        accountId,
        message('b@destino.com.br', { from: { email: 'so-da-outra@loja.com.br' } }),
        options,
      ),
    ).rejects.toMatchObject({ code: 'sender_not_verified' });
    await expect(sendTransactionalGrouped(db, other, atDomain, options)).rejects.toMatchObject({
      code: 'sender_not_verified',
    });
    await db
      .update(senderDomains)
      .set({ suspendedAt: new Date() })
      .where(eq(senderDomains.id, domain?.id as string));
    await expect(sendTransactionalGrouped(db, accountId, atDomain, options)).rejects.toMatchObject({
      code: 'sender_not_verified',
    });
    // Suppressions are the account's own: the other account's list does not stop this account's message.
    await suppressEmail(db, other, 'c@destino.com.br');
    await suppressEmail(db, accountId, 'd@destino.com.br');
    const both = await prepareTransactional(
      db,
      accountId,
      [message('c@destino.com.br'), message('d@destino.com.br'), message('e@destino.com.br')],
      options,
    );
    expect(both.messages.map((m) => [m.input.to.email, m.suppressedBy])).toEqual([
      ['c@destino.com.br', null],
      ['d@destino.com.br', 'manual'],
      ['e@destino.com.br', null],
    ]);
  });

  it('checks before grouping, in order: a suspended account (403), then an unverified From (403 in pt-BR)', async () => {
    const accountId = await account(1_000);
    const unverified = message('u@destino.com.br', { from: { email: 'outro@naoverificado.com.br' } });
    await expect(sendTransactionalGrouped(db, accountId, unverified, options)).rejects.toMatchObject({
      code: 'sender_not_verified',
      status: 403,
      message: expect.stringContaining('O remetente outro@naoverificado.com.br não está verificado.'),
    });
    await db.update(accounts).set({ status: 'suspended' }).where(eq(accounts.id, accountId));
    await expect(sendTransactionalGrouped(db, accountId, unverified, options)).rejects.toMatchObject({
      code: 'account_suspended',
      status: 403,
    });
    const stored = await db.select().from(messages).where(eq(messages.accountId, accountId));
    expect(stored).toHaveLength(0);
    expect((await ledgerOf(accountId)).balance).toBe(1_000);
  });
});
