import { randomUUID } from 'node:crypto';
import type { TransactionalMessageInput } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, createApiKeyFor } from '../../../test/support/api-key';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { suppressEmail } from '../contacts/suppression';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { creditAccount } from '../sending/testing/send-fixtures';
import {
  prepareTransactional,
  type TransactionalReadRow,
  transactionalReadOf,
  transactionalReadValues,
} from '../transactional/send-transactional';
import { apiKeys } from './api-keys.db';
import { sendMessageKeyRider } from './messages.routes';
import { FOLDED_KEY_READ_MAX_BODY_BYTES } from './public-api.routes';
import { authenticateAndHitRateLimit } from './rate-limit';

/**
 * A single send's read (account, senders, suppressions) rides on the key statement (rate-limit.ts keyRider,
 * public-api.routes.ts foldsKeyRead): every answer must be the one the same request gets when it is authenticated
 * on its own — a request with an Idempotency-Key is, so each case is sent both ways and the answers compared.
 */
describe.each(DATABASE_KINDS)('a single send with its read in the key statement on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { API_RATE_LIMIT: '1000' });
  });
  afterAll(async () => {
    await t.close();
  });

  const message = (to: string, extra: Record<string, unknown> = {}): TransactionalMessageInput => ({
    category: 'transactional',
    trackOpens: true,
    trackClicks: true,
    to: { email: to, name: 'Ana' },
    from: { email: 'pedidos@loja.com.br', name: 'Loja' },
    subject: 'Pedido {{ pedido }}',
    html: '<p>Olá, {{ contato.nome }}: pedido {{ pedido }} recebido.</p>',
    data: { pedido: '77' },
    ...extra,
  });

  async function account(opts: { credit?: number; trusted?: boolean; mode?: 'test' } = {}) {
    const user = await signUp(t, { verified: true });
    if (opts.credit) await creditAccount(t.database.db, user.accountId, opts.credit);
    if (opts.trusted !== false) await trustSenderAddress(t.database.db, user.accountId, 'pedidos@loja.com.br');
    if (opts.mode === 'test') {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/api-keys',
        headers: { ...user.headers, 'content-type': 'application/json' },
        payload: { name: 'Teste', scope: 'send_only', mode: 'test' },
      });
      return { user, secret: created.json().secret as string };
    }
    return { user, secret: await createApiKeyFor(t, user, 'send_only') };
  }

  /** The same request folded (no Idempotency-Key) and authenticated on its own (a fresh Idempotency-Key). */
  async function bothWays(secret: string, payload: string | object, headers: Record<string, string> = {}) {
    const send = (extra: Record<string, string>) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: bearer(secret, { 'content-type': 'application/json', ...headers, ...extra }),
        payload,
      });
    return { folded: await send({}), alone: await send({ 'idempotency-key': randomUUID() }) };
  }

  /** An answer without what differs between two requests anyway (ids, counts, the request id). */
  const answer = (res: LightMyRequestResponse, body = res.body) => {
    const {
      date: _date,
      'x-request-id': _id,
      'ratelimit-remaining': _remaining,
      // Seconds to the window's end: two requests a few ms apart may straddle a second.
      'ratelimit-reset': _reset,
      'retry-after': _retry,
      'content-length': _length,
      // Transport, not the answer: inject closes a connection whose body was never read (a real server drains it).
      connection: _connection,
      ...headers
    } = res.headers;
    // The 429's message names the same seconds as ratelimit-reset.
    return { status: res.statusCode, headers, body: body.replace(/em \d+ s\./, 'em … s.') };
  };

  it('refuses as before: suspended account, short balance, unverified sender, revoked key, spent window', async () => {
    const suspended = await account({ credit: 1_000 });
    await queryRows(
      t.database.db,
      sql`update accounts set status = 'suspended' where id = ${suspended.user.accountId}`,
    );
    const broke = await account();
    const unverified = await account({ credit: 1_000, trusted: false });
    const revoked = await account({ credit: 1_000 });
    await t.database.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.accountId, revoked.user.accountId));
    const limited = await account({ credit: 1_000 });
    const windowSeconds = t.config.API_RATE_LIMIT_WINDOW_SECONDS;
    for (const offset of [0, windowSeconds]) {
      await queryRows(
        t.database.db,
        sql`insert into api_rate_limits (account_id, window_start, count)
            values (${limited.user.accountId},
                    to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds} + ${offset}),
                    ${t.config.API_RATE_LIMIT})`,
      );
    }

    const cases: [typeof suspended, number, string][] = [
      [suspended, 403, 'account_suspended'],
      [broke, 402, 'insufficient_balance'],
      [unverified, 403, 'sender_not_verified'],
      [revoked, 401, 'invalid_api_key'],
      [limited, 429, 'too_many_requests'],
    ];
    for (const [who, status, code] of cases) {
      const { folded, alone } = await bothWays(who.secret, message('ana@destino.com.br'));
      expect(folded.statusCode, folded.body).toBe(status);
      expect(folded.json().error.code).toBe(code);
      expect(answer(folded)).toEqual(answer(alone));
    }
    // Nothing was stored or charged by the refused ones.
    const [stored] = await queryRows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from transactional_messages where account_id in
            (${suspended.user.accountId}, ${broke.user.accountId}, ${unverified.user.accountId},
             ${revoked.user.accountId}, ${limited.user.accountId})`,
    );
    expect(stored?.n).toBe(0);
  }, 120_000);

  it('answers a key refusal before a body refusal, and a body refusal with the rate-limit headers', async () => {
    const live = await account({ credit: 1_000 });
    const revoked = await account({ credit: 1_000 });
    await t.database.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.accountId, revoked.user.accountId));
    const bodies: (string | object)[] = [
      '{"to": ',
      message('sem-arroba'),
      { ...message('ana@destino.com.br'), surprise: 1 },
      message('ana@destino.com.br', { subject: '{% if %}' }),
    ];
    for (const payload of bodies) {
      const bad = await bothWays(revoked.secret, payload);
      expect(bad.folded.statusCode, bad.folded.body).toBe(401);
      expect(bad.folded.headers['www-authenticate']).toContain('invalid_token');
      expect(answer(bad.folded)).toEqual(answer(bad.alone));
      const good = await bothWays(live.secret, payload);
      expect(good.folded.statusCode, good.folded.body).toBe(400);
      expect(good.folded.headers['ratelimit-limit']).toBe('1000');
      expect(answer(good.folded)).toEqual(answer(good.alone));
    }
    // Another media type: 415 for a good key, 401 for a revoked one.
    const text = { 'content-type': 'text/plain' };
    expect((await bothWays(live.secret, 'oi', text)).folded.statusCode).toBe(415);
    expect((await bothWays(revoked.secret, 'oi', text)).folded.statusCode).toBe(401);
  }, 120_000);

  it('accepts as before: queued and charged, suppressed at no cost, a test key in the sandbox, a large body', async () => {
    const live = await account({ credit: 1_000 });
    await suppressEmail(t.database.db, live.user.accountId, 'fora@destino.com.br', 'manual');
    const queued = await bothWays(live.secret, message('ana@destino.com.br'));
    const strip = (res: LightMyRequestResponse) =>
      JSON.stringify({
        ...res.json(),
        balanceMillis: 0,
        messages: res.json().messages.map((m: object) => ({ ...m, id: '' })),
      });
    expect(queued.folded.statusCode, queued.folded.body).toBe(201);
    expect(queued.folded.json()).toMatchObject({ costMillis: 5, messages: [{ status: 'queued', costMillis: 5 }] });
    expect(answer(queued.folded, strip(queued.folded))).toEqual(answer(queued.alone, strip(queued.alone)));

    const suppressed = await bothWays(live.secret, message('fora@destino.com.br'));
    expect(suppressed.folded.json()).toMatchObject({
      costMillis: 0,
      messages: [{ status: 'suppressed', suppressionReason: 'manual', costMillis: 0 }],
    });
    expect(answer(suppressed.folded, strip(suppressed.folded))).toEqual(
      answer(suppressed.alone, strip(suppressed.alone)),
    );

    // A copy to a suppressed address: the copy is judged by the carried read too.
    const copied = await bothWays(
      live.secret,
      message('ana@destino.com.br', { cc: [{ email: 'fora@destino.com.br' }] }),
    );
    expect(copied.folded.json()).toMatchObject({
      costMillis: 5,
      messages: [{ status: 'queued', copies: [{ kind: 'cc', status: 'suppressed', costMillis: 0 }] }],
    });
    const stripCopies = (res: LightMyRequestResponse) => {
      const sent = res.json() as { messages: { copies: object[] }[] };
      const messages = sent.messages.map((m) => ({ ...m, id: '', copies: m.copies.map((c) => ({ ...c, id: '' })) }));
      return JSON.stringify({ ...sent, balanceMillis: 0, messages });
    };
    const [copiedFolded, copiedAlone] = [copied.folded, copied.alone].map((res) => answer(res, stripCopies(res)));
    expect(copiedFolded).toEqual(copiedAlone);

    const sandbox = await account({ mode: 'test' });
    const test = await bothWays(sandbox.secret, message('ana@destino.com.br'));
    expect(test.folded.statusCode, test.folded.body).toBe(201);
    expect(answer(test.folded, strip(test.folded))).toEqual(answer(test.alone, strip(test.alone)));

    // Past FOLDED_KEY_READ_MAX_BODY_BYTES the key is looked up alone first: the same answer.
    const padding = 'x'.repeat(FOLDED_KEY_READ_MAX_BODY_BYTES);
    const large = await bothWays(live.secret, message('ana@destino.com.br', { text: padding }));
    expect(large.folded.statusCode, large.folded.body).toBe(201);
    expect(answer(large.folded, strip(large.folded))).toEqual(answer(large.alone, strip(large.alone)));
  }, 120_000);

  it('answers sends that share one key statement as each alone: suppressions, copies, senders, two accounts', async () => {
    const live = await account({ credit: 1_000 });
    const other = await account({ credit: 1_000 });
    await suppressEmail(t.database.db, live.user.accountId, 'fora@destino.com.br', 'manual');
    const sends: [{ secret: string }, TransactionalMessageInput][] = [
      [live, message('ana@destino.com.br')],
      [live, message('fora@destino.com.br')],
      [other, message('fora@destino.com.br')],
      [live, message('bia@destino.com.br', { cc: [{ email: 'fora@destino.com.br' }] })],
      [live, message('ana@destino.com.br', { from: { email: 'vendas@loja.com.br', name: 'Loja' } })],
      [other, message('bia@destino.com.br')],
    ];
    const send = (secret: string, payload: object, extra: Record<string, string> = {}) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/messages',
        headers: bearer(secret, { 'content-type': 'application/json', ...extra }),
        payload,
      });
    const stripIds = (res: LightMyRequestResponse) => {
      const body = res.json() as { messages?: { copies?: object[] }[] };
      if (!body.messages) return res.body;
      const messages = body.messages.map((m) => ({
        ...m,
        id: '',
        ...(m.copies ? { copies: m.copies.map((c) => ({ ...c, id: '' })) } : {}),
      }));
      return JSON.stringify({ ...body, balanceMillis: 0, messages });
    };
    const together = await Promise.all(sends.map(([who, payload]) => send(who.secret, payload)));
    const alone: LightMyRequestResponse[] = [];
    for (const [who, payload] of sends)
      alone.push(await send(who.secret, payload, { 'idempotency-key': randomUUID() }));
    expect(together.map((res) => res.statusCode)).toEqual([201, 201, 201, 201, 403, 201]);
    expect(together[1]?.json().messages[0]).toMatchObject({ status: 'suppressed', costMillis: 0 });
    expect(together[2]?.json().messages[0]).toMatchObject({ status: 'queued', costMillis: 5 });
    expect(together[3]?.json().messages[0].copies[0]).toMatchObject({ status: 'suppressed' });
    expect(together.map((res) => answer(res, stripIds(res)))).toEqual(alone.map((res) => answer(res, stripIds(res))));

    // The reads themselves: each request of a round gets the read of its own values.
    const reads = await Promise.all(
      sends.map(([who, input]) =>
        authenticateAndHitRateLimit(t.database.db, who.secret, 1000, 60, new Date(), {
          rider: sendMessageKeyRider,
          values: transactionalReadValues([input]),
        }),
      ),
    );
    // The first is a round of one, the other five the next round.
    expect(reads.map((r) => Number(r?.read.i))).toEqual([1, 1, 2, 3, 4, 5]);
    const rows = reads.map(
      (r, i) => transactionalReadOf([sends[i]?.[1] as TransactionalMessageInput], r?.read ?? {}).row,
    );
    expect(rows.map((row) => row?.suppressions.length)).toEqual([0, 1, 0, 1, 0, 0]);
    expect(rows.map((row) => row?.allowed)).toEqual([[true], [true], [true], [true], [false], [true]]);
  }, 120_000);

  it('carries the read in the key statement, and the send uses it only for the values it was made with', async () => {
    const live = await account({ credit: 1_000 });
    await suppressEmail(t.database.db, live.user.accountId, 'fora@destino.com.br', 'bounced');
    const inputs = [message('fora@destino.com.br')];
    const values = transactionalReadValues(inputs);
    const found = await authenticateAndHitRateLimit(t.database.db, live.secret, 100, 60, new Date(), {
      rider: sendMessageKeyRider,
      values,
    });
    expect(found?.key.accountId).toBe(live.user.accountId);
    const read = transactionalReadOf(inputs, found?.read ?? {});
    expect(read.row).toMatchObject({ status: 'active', price_millis: 5, allowed: [true] });
    expect(read.row?.suppressions).toHaveLength(1);
    // A revoked key reads nothing.
    await t.database.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.accountId, live.user.accountId));
    expect(
      await authenticateAndHitRateLimit(t.database.db, live.secret, 100, 60, new Date(), {
        rider: sendMessageKeyRider,
        values,
      }),
    ).toBeNull();

    // The carried read decides (here: a suspension the account does not have), not a read of its own…
    const row = { ...(read.row as TransactionalReadRow), status: 'suspended' };
    const publicUrl = 'https://carteiro.test';
    await expect(
      prepareTransactional(t.database.db, live.user.accountId, inputs, { publicUrl, read: { ...read, row } }),
    ).rejects.toMatchObject({ code: 'account_suspended' });
    // …unless it was made for other messages: then the send reads for itself.
    const other = transactionalReadOf([message('outra@destino.com.br')], { ...row });
    const prepared = await prepareTransactional(t.database.db, live.user.accountId, inputs, { publicUrl, read: other });
    expect(prepared.messages[0]?.suppressedBy).toBe('bounced');
  }, 120_000);
});
