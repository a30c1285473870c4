import { randomBytes, randomUUID } from 'node:crypto';
import http from 'node:http';
import type { SegmentCondition, SegmentGroup } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { testClock } from '../../../test/support/test-clock';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { asDb, type Db, queryRows } from '../../db/database';
import { ERROR_TEXT } from '../../http/error-texts';
import { recentSentCampaignIds } from '../campaigns/campaign-directory';
import { CONTACT_COUNT_FOLD_AT } from '../contacts/contact-counts';
import { createReadyCampaign, creditAccount, suppressEmail } from '../sending/testing/send-fixtures';
import { compileSegment, type SegmentContext } from './compile-segment';
import { countSegment, previewSegment, readSegment, SEGMENT_READ_TAG } from './segments';
import { SEGMENT_READS_PER_MINUTE } from './segments.routes';
import { all, any } from './testing/segment-trees';

const custom = (key: string, operator: string, value?: string) =>
  ({ type: 'field', field: { custom: key }, operator, value }) as SegmentCondition;

describe.each(DATABASE_KINDS)('segments on %s', (kind) => {
  let t: TestApp;
  let a: SignedInUser;
  let b: SignedInUser;
  let db: Db;
  const ids: Record<string, string> = {};
  let vip = '';
  let news = '';
  const clock = testClock();

  const json = { 'content-type': 'application/json' };
  const post = (user: SignedInUser, url: string, payload: unknown) =>
    t.app.inject({ method: 'POST', url, headers: { ...user.headers, ...json }, payload: payload as object });
  const count = async (tree: SegmentGroup, user = a) => {
    const res = await post(user, '/api/segments/count', { conditions: tree });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().count as number;
  };
  const emails = async (tree: SegmentGroup) => {
    const res = await post(a, '/api/segments/preview', { conditions: tree });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().items as Array<{ email: string }>).map((c) => c.email.split('@')[0]).sort();
  };

  /** What account A's trees compile in, for the tests that read the compiled SQL's plan. */
  const contextOfA = (): SegmentContext => ({
    accountId: a.accountId,
    customFields: new Map(),
    listIds: new Set([vip, news]),
    timeZone: 'America/Sao_Paulo',
    now: new Date(),
    recentCampaignIds: [],
  });

  beforeAll(async () => {
    t = await createTestApp(kind, {}, undefined, { clock: clock.now });
    db = t.database.db;
    a = await signUp(t, { verified: true });
    b = await signUp(t, { verified: true });
    vip = (await post(a, '/api/lists', { name: 'VIP' })).json().id;
    news = (await post(a, '/api/lists', { name: 'Novidades' })).json().id;
    const people: Array<[string, string | null, Record<string, string>, string[]]> = [
      ['ana', 'Ana Souza', { cidade: 'São Paulo', pontos: '150', nascimento: '2000-02-29', plano: 'ouro' }, [vip]],
      ['bruno', 'Bruno Lima', { cidade: 'Campinas', pontos: '42,5', nascimento: '15/02/1985' }, [vip, news]],
      ['carla', 'Carla Dias', { cidade: 'são paulo', pontos: 'muitos', nascimento: '1990-03-01' }, [news]],
      ['davi', null, { cidade: '', pontos: '7', nascimento: '31/02/1999' }, []],
      ['eva', 'Eva Reis', { cidade: 'Santos', nascimento: 'amanhã' }, [news]],
    ];
    for (const [local, name, fields, listIds] of people) {
      const res = await post(a, '/api/contacts', { email: `${local}@exemplo.com.br`, name, fields, listIds });
      expect(res.statusCode, res.body).toBe(201);
      ids[local] = res.json().id;
    }
    await t.app.inject({
      method: 'PATCH',
      url: `/api/contacts/${ids.eva}`,
      headers: { ...a.headers, ...json },
      payload: { status: 'unsubscribed' },
    });
    // Another account's contact with the same fields must never be counted for A.
    await post(b, '/api/contacts', { email: 'ana@exemplo.com.br', fields: { cidade: 'São Paulo', plano: 'ouro' } });
    // Subscription dates (created_at), in UTC: Carla joined 40 days ago, Davi on 2024-01-01 02:00 UTC
    // (still 31 December 2023 in São Paulo).
    await db.execute(sql`update contacts set created_at = now() - interval '40 days' where id = ${ids.carla}`);
    await db.execute(sql`update contacts set created_at = '2024-01-01T02:00:00Z' where id = ${ids.davi}`);
  });
  afterAll(async () => {
    await t.close();
  });

  it('compares contact and custom fields: equals/contains/starts with ignore case, empty, numbers, dates', async () => {
    expect(await emails(all(custom('cidade', 'equals', 'SÃO PAULO')))).toEqual(['ana', 'carla']);
    expect(await emails(all(custom('cidade', 'not_equals', 'são paulo')))).toEqual(['bruno', 'davi', 'eva']);
    expect(await emails(all({ type: 'field', field: 'name', operator: 'contains', value: 'li' }))).toEqual(['bruno']);
    expect(await emails(all({ type: 'field', field: 'name', operator: 'not_contains', value: 'a' }))).toEqual(['davi']);
    expect(await emails(all({ type: 'field', field: 'email', operator: 'starts_with', value: 'C' }))).toEqual([
      'carla',
    ]);
    expect(await emails(all({ type: 'field', field: 'name', operator: 'is_empty' }))).toEqual(['davi']);
    expect(await emails(all(custom('cidade', 'is_empty')))).toEqual(['davi']);
    expect(await emails(all(custom('plano', 'is_not_empty')))).toEqual(['ana']);
    // "muitos" is not a number and Eva has none: neither matches nor breaks the query.
    expect(await emails(all(custom('pontos', 'number_gt', '42')))).toEqual(['ana', 'bruno']);
    expect(await emails(all(custom('pontos', 'number_lte', '42,5')))).toEqual(['bruno', 'davi']);
    expect(await emails(all(custom('pontos', 'number_eq', '7')))).toEqual(['davi']);
    // Dates written AAAA-MM-DD or DD/MM/AAAA; "amanhã" is not a date and does not match.
    expect(await emails(all(custom('nascimento', 'date_before', '1995-01-01')))).toEqual(['bruno', 'carla']);
    expect(await emails(all(custom('nascimento', 'date_after', '1995-01-01')))).toEqual(['ana', 'davi']);
    expect(await emails(all(custom('nascimento', 'date_on', '1985-02-15')))).toEqual(['bruno']);
  });

  it('combines E and OU groups, lists, status and subscription dates', async () => {
    // (in VIP and points > 100) or (city São Paulo and not in VIP)
    const tree = any(
      all({ type: 'list', operator: 'in', listId: vip }, custom('pontos', 'number_gt', '100')),
      all(custom('cidade', 'equals', 'são paulo'), { type: 'list', operator: 'not_in', listId: vip }),
    );
    expect(await emails(tree)).toEqual(['ana', 'carla']);
    expect(await count(tree)).toBe(2);
    // Eva unsubscribed: her memberships are unsubscribed too, so she is no longer "in" the list.
    expect(await emails(all({ type: 'list', operator: 'in', listId: news }))).toEqual(['bruno', 'carla']);
    expect(await emails(all({ type: 'status', operator: 'is', value: 'unsubscribed' }))).toEqual(['eva']);
    expect(await count(all({ type: 'status', operator: 'is_not', value: 'unsubscribed' }))).toBe(4);
    expect(await emails(all({ type: 'subscribed_at', operator: 'in_last_days', value: '30' }))).toEqual([
      'ana',
      'bruno',
      'eva',
    ]);
    // Davi joined at 2024-01-01 02:00 UTC: 31/12/2023 in São Paulo, so "before 2024-01-01" holds.
    expect(await emails(all({ type: 'subscribed_at', operator: 'before', value: '2024-01-01' }))).toEqual(['davi']);
    expect(await count(all({ type: 'subscribed_at', operator: 'after', value: '2023-12-31' }))).toBe(4);
    // Account B sees only its own contact.
    expect(await count(all(custom('plano', 'equals', 'ouro')), b)).toBe(1);
  });

  it("a count outside a set reads the account's contact count from its delta rows, and folds them past the limit", async () => {
    const notVip = all({ type: 'list', operator: 'not_in', listId: vip });
    const expected = await count(any(notVip, { type: 'list', operator: 'in', listId: vip }));
    const inVip = await count(all({ type: 'list', operator: 'in', listId: vip }));
    // Rows that net to nothing, as many as a long import leaves: the count is the same, and the rows are folded.
    await queryRows(
      db,
      sql`insert into contact_count_deltas (account_id, contacts)
          select ${a.accountId}::uuid, case when g % 2 = 0 then 1 else -1 end
            from generate_series(1, ${CONTACT_COUNT_FOLD_AT + 2}) g`,
    );
    expect(await count(notVip)).toBe(expected - inVip);
    const [rows] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from contact_count_deltas where account_id = ${a.accountId}::uuid`,
    );
    expect(rows?.n).toBe(1);
    expect(await count(notVip)).toBe(expected - inVip);
  });

  it("a list condition reads the list's subscribed members from their own index (list_memberships_subscribed_idx), at the top and inside an OU", async () => {
    // status is not in list_memberships' key: without an index whose predicate the set's `status = 'subscribed'`
    // implies, the members are read from the heap (migration 0054, docs/benchmarks.md session 11). Scans other
    // than an index's are priced out here so the plan shows whether the compiled query can use it at all.
    const ctx = contextOfA();
    for (const tree of [
      all({ type: 'list', operator: 'in', listId: vip }),
      any({ type: 'list', operator: 'not_in', listId: vip }, { type: 'list', operator: 'in', listId: news }),
    ]) {
      const segment = compileSegment(tree, ctx);
      const plan = await db.transaction(async (tx) => {
        await tx.execute(sql`set local enable_seqscan = off`);
        await tx.execute(sql`set local enable_bitmapscan = off`);
        return queryRows<{ 'QUERY PLAN': string }>(
          asDb(tx),
          sql`explain select count(*) from contacts c ${segment.joins} where c.account_id = ${a.accountId} and ${segment.where}`,
        );
      });
      const text = plan.map((r) => r['QUERY PLAN']).join('\n');
      expect(text).toMatch(/Index (Only )?Scan using list_memberships_subscribed_idx/);
      expect(text).not.toMatch(/list_memberships_list_id_contact_id_pk/);
    }
  });

  it('"aniversário este mês" in America/Sao_Paulo: 29 February in a common year, and the month turning at midnight there', async () => {
    const birthday = all(custom('nascimento', 'birthday_this_month'));
    const names = async (now: string) =>
      (await previewSegment(db, a.accountId, birthday, recentSentCampaignIds, new Date(now)))
        .map((c) => c.email.split('@')[0])
        .sort();
    // 2027 is not a leap year; 01/03 02:00 UTC is still 28 February 23:00 in São Paulo.
    expect(await names('2027-03-01T02:00:00Z')).toEqual(['ana', 'bruno', 'davi']);
    expect(await countSegment(db, a.accountId, birthday, recentSentCampaignIds, new Date('2027-02-10T12:00:00Z'))).toBe(
      3,
    );
    // 03:00 UTC is midnight in São Paulo: March.
    expect(await names('2027-03-01T03:00:00Z')).toEqual(['carla']);
    expect(await names('2028-02-29T12:00:00Z')).toEqual(['ana', 'bruno', 'davi']);
  });

  it('engagement: opened/clicked any of the last N campaigns, opened none, never opened — machine opens excluded', async () => {
    // Three sent campaigns, oldest first; events per contact.
    const campaign = async (name: string, startedAt: string) => {
      const [row] = await queryRows<{ id: string }>(
        db,
        sql`insert into campaigns (uuid, created_by, name, subject, status, started_at)
            values (${randomUUID()}, ${a.accountId}, ${name}, 'Oi', 'sent', ${startedAt}) returning id`,
      );
      return (row as { id: string }).id;
    };
    const c1 = await campaign('Antiga', '2026-01-01T12:00:00Z');
    const c2 = await campaign('Meio', '2026-02-01T12:00:00Z');
    const c3 = await campaign('Recente', '2026-03-01T12:00:00Z');
    const deliver = async (campaignId: string, who: string) => {
      const [m] = await queryRows<{ id: number }>(
        db,
        sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at)
            values (${campaignId}, ${a.accountId}, ${ids[who]}, ${`${who}@exemplo.com.br`}, 'sent',
                    ${randomBytes(20).toString('hex')}, now()) returning id`,
      );
      return Number((m as { id: number }).id);
    };
    const event = async (campaignId: string, who: string, messageId: number, kind: string, machine = false) => {
      await db.execute(
        sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine)
            values (${messageId}, ${campaignId}, ${a.accountId}, ${ids[who]}, ${kind}, ${machine})`,
      );
    };
    // Ana opened c3. Bruno: only a machine open (Apple MPP) on c3, and a human click on c2.
    // Carla opened c1 only (out of the last two). Davi received c2 and c3, no events. Eva received nothing.
    for (const who of ['ana', 'bruno', 'carla', 'davi']) {
      const m1 = await deliver(c1, who);
      const m2 = await deliver(c2, who);
      const m3 = await deliver(c3, who);
      if (who === 'ana') await event(c3, who, m3, 'open');
      if (who === 'bruno') {
        await event(c3, who, m3, 'open', true);
        await event(c2, who, m2, 'click');
      }
      if (who === 'carla') await event(c1, who, m1, 'open');
    }
    const engagement = (operator: string, campaigns?: number) =>
      all({ type: 'engagement', operator, campaigns } as SegmentCondition);
    expect(await emails(engagement('opened_any', 2))).toEqual(['ana']);
    expect(await emails(engagement('opened_any', 3))).toEqual(['ana', 'carla']);
    expect(await emails(engagement('clicked_any', 2))).toEqual(['bruno']);
    expect(await emails(engagement('clicked_any', 1))).toEqual([]);
    expect(await emails(engagement('opened_none', 2))).toEqual(['bruno', 'carla', 'davi']);
    expect(await emails(engagement('opened_none', 3))).toEqual(['bruno', 'davi']);
    expect(await emails(engagement('never_opened'))).toEqual(['bruno', 'davi', 'eva']);
    // Three conditions with engagement, as in the benchmark.
    const three = all(
      custom('cidade', 'is_not_empty'),
      { type: 'status', operator: 'is', value: 'subscribed' },
      { type: 'engagement', operator: 'opened_none', campaigns: 2 },
    );
    expect(await emails(three)).toEqual(['bruno', 'carla']);
  });

  it('SQL in a value is only a value; unknown fields, bad operators and other accounts’ lists get a pt-BR 400', async () => {
    const injected = await post(a, '/api/segments/count', {
      conditions: all(custom('cidade', 'equals', "x' or '1'='1"), {
        type: 'field',
        field: 'name',
        operator: 'contains',
        value: "'); drop table contacts; --",
      }),
    });
    expect(injected.statusCode).toBe(200);
    expect(injected.json().count).toBe(0);
    expect(await count(all({ type: 'status', operator: 'is_not', value: 'bounced' }))).toBe(5);

    const unknown = await post(a, '/api/segments/count', {
      conditions: all(custom("cidade') or true or ('", 'equals', 'x')),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'validation_failed' });
    expect(unknown.json().error.message).toContain('Campo desconhecido');
    // A key only another account's contacts have is unknown here.
    await post(b, '/api/contacts', { email: 'zeca@exemplo.com.br', fields: { segredo: '1' } });
    expect((await post(a, '/api/segments/count', { conditions: all(custom('segredo', 'is_empty')) })).statusCode).toBe(
      400,
    );

    const rawColumn = await post(a, '/api/segments/count', {
      conditions: all({ type: 'field', field: 'password', operator: 'equals', value: 'x' } as never),
    });
    expect(rawColumn.statusCode).toBe(400);
    expect(rawColumn.json().error.message).toMatch(/inválid/);
    const badOperator = await post(a, '/api/segments/count', {
      conditions: all({ type: 'field', field: 'email', operator: 'like', value: '%' } as never),
    });
    expect(badOperator.statusCode).toBe(400);
    expect(badOperator.json().error.message).toContain('Operador inválido');
    const badNumber = await post(a, '/api/segments/count', { conditions: all(custom('pontos', 'number_gt', '1;')) });
    expect(badNumber.json().error.message).toContain('Informe um número');
    const badDate = await post(a, '/api/segments/count', {
      conditions: all(custom('nascimento', 'date_before', '2023-02-29')),
    });
    expect(badDate.json().error.message).toContain('data válida');
    const theirList = (await post(b, '/api/lists', { name: 'Deles' })).json().id;
    const foreign = await post(a, '/api/segments/count', {
      conditions: all({ type: 'list', operator: 'in', listId: theirList }),
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.message).toBe('Uma das listas escolhidas não existe.');
    const deep = all(all(all(all(custom('cidade', 'is_empty')))));
    expect((await post(a, '/api/segments/count', { conditions: deep })).json().error.message).toContain('3 níveis');
  });

  it('counts and previews share a per-account window: past it a pt-BR 429 with Retry-After, other accounts untouched, open again in the next minute', async () => {
    // Five seconds into a minute: the window does not turn while the test fills it (a few seconds).
    clock.set(new Date('2030-01-01T00:00:05Z'));
    try {
      const c = await signUp(t, { verified: true });
      const d = await signUp(t, { verified: true });
      const tree = all({ type: 'status', operator: 'is', value: 'subscribed' });
      // A draft the schema refuses is answered before the window is counted.
      expect((await post(c, '/api/segments/count', { conditions: { type: 'group' } })).statusCode).toBe(400);
      for (let i = 0; i < SEGMENT_READS_PER_MINUTE; i++) {
        const res = await post(c, i % 2 ? '/api/segments/preview' : '/api/segments/count', { conditions: tree });
        expect(res.statusCode, `read ${i + 1}: ${res.body}`).toBe(200);
      }
      for (const url of ['/api/segments/count', '/api/segments/preview']) {
        const refused = await post(c, url, { conditions: tree });
        expect(refused.statusCode).toBe(429);
        expect(refused.json().error.message).toBe(ERROR_TEXT.segments.readsRateLimited);
        // The window ends at 00:01:00; the clock has run on for as long as the reads took.
        expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(30);
        expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(55);
      }
      expect((await post(d, '/api/segments/count', { conditions: tree })).statusCode).toBe(200);
      clock.advance(60_000);
      expect((await post(c, '/api/segments/count', { conditions: tree })).statusCode).toBe(200);
    } finally {
      clock.reset();
    }
  });

  it('an editor read is tagged and bounded inside its own transaction only, and one abandoned before it starts does not run', async () => {
    const segment = compileSegment(all({ type: 'status', operator: 'is', value: 'subscribed' }), contextOfA());
    const [inside] = await readSegment<{ tag: string; timeout: string }>(
      db,
      segment,
      sql`select current_setting('application_name') as tag, current_setting('statement_timeout') as timeout`,
      { timeoutMs: 1500 },
    );
    expect(inside?.tag.startsWith(SEGMENT_READ_TAG)).toBe(true);
    expect(inside?.timeout).toBe('1500ms');
    const [after] = await queryRows<{ tag: string; timeout: string }>(
      db,
      sql`select current_setting('application_name') as tag, current_setting('statement_timeout') as timeout`,
    );
    expect(after?.tag.startsWith(SEGMENT_READ_TAG)).toBe(false);
    expect(after?.timeout).not.toBe('1500ms');
    // Each read its own tag: a cancel names one read.
    const [other] = await readSegment<{ tag: string }>(
      db,
      segment,
      sql`select current_setting('application_name') as tag`,
    );
    expect(other?.tag).not.toBe(inside?.tag);
    const gone = new AbortController();
    gone.abort();
    await expect(
      readSegment(db, segment, sql`select 1`, { abandon: { signal: gone.signal, log: console } }),
    ).rejects.toMatchObject({ name: 'AbortError' });
  });

  // PostgreSQL only: PGlite is one connection in this process, so nothing else can hold a lock a read waits on, and
  // it has no statement timer (its reads run to their end — the embedded database serves one small install).
  if (kind === 'postgres') {
    const subscribed = all({ type: 'status', operator: 'is', value: 'subscribed' });
    /** Runs `body` while another connection holds contacts exclusively: a count of them waits until it is done. */
    const whileContactsLocked = async (body: (lockerPid: number) => Promise<void>) => {
      const pool = t.database.pool;
      if (!pool) throw new Error('a PostgreSQL test app has a pool');
      const locker = await pool.connect();
      try {
        await locker.query('begin');
        await locker.query('lock table contacts in access exclusive mode');
        const { rows } = await locker.query<{ pid: number }>('select pg_backend_pid() as pid');
        await body(rows[0]?.pid ?? 0);
      } finally {
        await locker.query('rollback');
        locker.release();
      }
    };
    /** The segment reads waiting behind `lockerPid`. */
    const readsBehind = async (lockerPid: number) =>
      (
        await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from pg_stat_activity
               where application_name like ${`${SEGMENT_READ_TAG}%`} and ${lockerPid} = any(pg_blocking_pids(pid))`,
        )
      )[0]?.n ?? 0;
    const until = async (what: string, test: () => Promise<boolean>) => {
      for (let i = 0; i < 200; i++) {
        if (await test()) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error(`timed out waiting until ${what}`);
    };

    it('an editor count past its time bound stops with a pt-BR 503, and the connection serves the next read', async () => {
      await whileContactsLocked(async () => {
        const error = await countSegment(db, a.accountId, subscribed, recentSentCampaignIds, undefined, {
          timeoutMs: 300,
        }).catch((e: unknown) => e);
        expect(error).toMatchObject({ status: 503, message: ERROR_TEXT.segments.readTimedOut });
      });
      expect(await count(subscribed)).toBeGreaterThan(0);
    });

    it('a preview whose walk of the newest contacts runs past its budget is answered from the segment rows: the same newest 20', async () => {
      const inVip = all({ type: 'list', operator: 'in', listId: vip });
      const expected = await previewSegment(db, a.accountId, inVip, recentSentCampaignIds);
      expect(expected.length).toBeGreaterThan(0);
      const tags = new Set<string>();
      let pending: Promise<Array<{ id: string }>> | undefined;
      await whileContactsLocked(async (lockerPid) => {
        pending = previewSegment(db, a.accountId, inVip, recentSentCampaignIds, undefined, {}, 100);
        // The walk waits behind the lock until its budget stops it; the segment rows' read, its own tag, follows.
        await until('the walk gives way to the segment rows', async () => {
          const waiting = await queryRows<{ tag: string }>(
            db,
            sql`select application_name as tag from pg_stat_activity
                 where application_name like ${`${SEGMENT_READ_TAG}%`} and ${lockerPid} = any(pg_blocking_pids(pid))`,
          );
          for (const { tag } of waiting) tags.add(tag);
          return tags.size === 2;
        });
      });
      expect((await pending)?.map((c) => c.id)).toEqual(expected.map((c) => c.id));
    });

    it('a count whose request closes before the answer is cancelled in PostgreSQL, not left to run for nobody', async () => {
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      await whileContactsLocked(async (lockerPid) => {
        const body = JSON.stringify({ conditions: subscribed });
        const request = http.request(`${address}/api/segments/count`, {
          method: 'POST',
          headers: { ...a.headers, ...json, 'content-length': Buffer.byteLength(body) },
        });
        const closed = new Promise<void>((resolve) => request.on('close', () => resolve()));
        request.on('error', () => {
          // The test closes the request itself: the socket's reset is expected.
        });
        request.end(body);
        await until('the count waits behind the lock', async () => (await readsBehind(lockerPid)) === 1);
        request.destroy();
        await closed;
        // Still locked: only a cancel ends the wait.
        await until('the abandoned count is cancelled', async () => (await readsBehind(lockerPid)) === 0);
      });
      expect(await count(subscribed)).toBeGreaterThan(0);
    });
  }

  it('saves, lists, edits and deletes segments, scoped to the account', async () => {
    const created = await post(a, '/api/segments', {
      name: 'Paulistanos',
      conditions: all(custom('cidade', 'equals', 'são paulo')),
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().id;
    expect(
      (await post(a, '/api/segments', { name: ' ', conditions: all(custom('cidade', 'is_empty')) })).json().error
        .message,
    ).toContain('Informe o nome do segmento');
    const listed = (await t.app.inject({ url: '/api/segments', headers: a.headers })).json().items;
    expect(listed.map((s: { name: string }) => s.name)).toContain('Paulistanos');
    expect((await t.app.inject({ url: '/api/segments', headers: b.headers })).json().items).toEqual([]);
    expect((await t.app.inject({ url: `/api/segments/${id}`, headers: b.headers })).statusCode).toBe(404);
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/segments/${id}`,
      headers: { ...a.headers, ...json },
      payload: { name: 'Capital' },
    });
    expect(patched.json()).toMatchObject({ name: 'Capital', conditions: { match: 'all' } });
    expect((await t.app.inject({ method: 'DELETE', url: `/api/segments/${id}`, headers: b.headers })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ method: 'DELETE', url: `/api/segments/${id}`, headers: a.headers })).statusCode).toBe(
      204,
    );
  });

  it('a campaign targets segments next to lists: deduplicated, unsubscribed and suppressed left out, same count previewed and sent', async () => {
    const user = await signUp(t, { verified: true });
    const list = (await post(user, '/api/lists', { name: 'Clientes' })).json().id;
    const add = async (local: string, fields: Record<string, string>, listIds: string[]) =>
      (
        await post(user, '/api/contacts', {
          email: `${local}@loja.com.br`,
          fields: { ...fields, cidade: 'X' },
          listIds,
        })
      ).json().id as string;
    await add('lista1', { uf: 'RJ' }, [list]);
    await add('ambos', { uf: 'SP' }, [list]); // in the list and the segment: mailed once
    await add('seg1', { uf: 'SP' }, []);
    await add('seg2', { uf: 'sp' }, []);
    const gone = await add('saiu', { uf: 'SP' }, []);
    await add('bloqueado', { uf: 'SP' }, []);
    await add('fora', { uf: 'MG' }, []);
    await t.app.inject({
      method: 'PATCH',
      url: `/api/contacts/${gone}`,
      headers: { ...user.headers, ...json },
      payload: { status: 'unsubscribed' },
    });
    await suppressEmail(db, user.accountId, 'bloqueado@loja.com.br');
    const segment = (
      await post(user, '/api/segments', { name: 'SP', conditions: all(custom('uf', 'equals', 'SP')) })
    ).json();

    // Another account's segment cannot be targeted.
    const foreign = await post(a, '/api/segments', { name: 'De A', conditions: all(custom('cidade', 'is_empty')) });
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: [list] });
    const refused = await t.app.inject({
      method: 'PATCH',
      url: `/api/campaigns/${id}`,
      headers: { ...user.headers, ...json },
      payload: { includeSegmentIds: [foreign.json().id] },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().error.message).toBe('Um dos segmentos escolhidos não existe.');
    const patched = await t.app.inject({
      method: 'PATCH',
      url: `/api/campaigns/${id}`,
      headers: { ...user.headers, ...json },
      payload: { includeSegmentIds: [segment.id] },
    });
    expect(patched.json().includeSegmentIds).toEqual([segment.id]);
    const summary = (await t.app.inject({ url: `/api/campaigns/${id}/summary`, headers: user.headers })).json();
    expect(summary.recipients).toBe(4);
    // A segment in use by a draft cannot be deleted.
    const inUse = await t.app.inject({ method: 'DELETE', url: `/api/segments/${segment.id}`, headers: user.headers });
    expect(inUse.statusCode).toBe(409);

    await creditAccount(db, user.accountId, 10_000);
    const sent = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().recipients).toBe(4);
    const snapshot = await queryRows<{ email: string }>(
      db,
      sql`select email from messages where campaign_id = ${id} order by email`,
    );
    expect(snapshot.map((r) => r.email)).toEqual([
      'ambos@loja.com.br',
      'lista1@loja.com.br',
      'seg1@loja.com.br',
      'seg2@loja.com.br',
    ]);
  });

  it('a campaign with only a segment can be scheduled; without lists or segments it cannot', async () => {
    const user = await signUp(t, { verified: true });
    await post(user, '/api/contacts', { email: 'x@loja.com.br', fields: { uf: 'SP', cidade: 'São Paulo' } });
    const segment = (
      await post(user, '/api/segments', { name: 'SP', conditions: all(custom('uf', 'equals', 'SP')) })
    ).json();
    const id = await createReadyCampaign(db, user.accountId, { includeListIds: [] });
    const when = new Date(Date.now() + 3_600_000).toISOString();
    const none = await post(user, `/api/campaigns/${id}/schedule`, { scheduledAt: when });
    // A campaign not ready to send is a 409 naming the missing item (the send checklist's audience).
    expect(none.statusCode, none.body).toBe(409);
    expect(none.json().error.code).toBe('campaign_not_ready');
    expect(none.json().error.message).toBe(
      'Escolha pelo menos uma lista ou segmento de destinatários antes de enviar.',
    );
    await t.app.inject({
      method: 'PATCH',
      url: `/api/campaigns/${id}`,
      headers: { ...user.headers, ...json },
      payload: { includeSegmentIds: [segment.id] },
    });
    const scheduled = await post(user, `/api/campaigns/${id}/schedule`, { scheduledAt: when });
    expect(scheduled.statusCode, scheduled.body).toBe(200);
    expect(scheduled.json().status).toBe('scheduled');
  });
});
