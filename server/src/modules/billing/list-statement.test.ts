import { randomUUID } from 'node:crypto';
import { DEFAULT_TIME_ZONE } from '@carteiro/shared';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planRowsRead } from '../../../test/support/plan-rows-read';
import { seededRandom } from '../../../test/support/seeded-random';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestDatabase, DATABASE_KINDS } from '../../../test/support/test-database';
import { type Database, type Db, queryRows } from '../../db/database';
import { type LedgerEntryKind, ledgerEntries, topups } from './billing.db';
import { listStatementLines, type StatementFilter, type StatementLine } from './list-statement';
import { statementToCsv } from './statement-csv';

/**
 * The extrato's lines, page by page, are exactly the lines of the query that folded the account's whole ledger before
 * paging (kept below only as the reference), over a generated ledger: transactional sends and refunds, top-ups and
 * their refunds, operator adjustments, campaigns reserved, settled (release and send, in either order) or still
 * sending, interleaved with other campaigns and with another account's entries, some dated out of seq order so a
 * period cuts campaigns in odd places. Every page of every limit is walked with the cursor, so a line dropped,
 * duplicated or moved fails.
 */

interface StatementLineRow {
  id: string;
  seq: string | number;
  account_id: string;
  amount_millis: string | number;
  kind: LedgerEntryKind;
  campaign_id: string | null;
  topup_id: string | null;
  refund_id: string | null;
  operator_user_id: string | null;
  email_count: number | null;
  price_millis: number | null;
  description: string;
  balance_after_millis: string | number;
  created_at: string | Date;
  campaign_name: string | null;
}

/** The extrato as it was read before a page was bounded by its size: every entry of the period grouped, then paged. */
async function previousStatementLines(
  db: Db,
  filter: StatementFilter,
): Promise<{ entries: StatementLine[]; nextCursor: number | null }> {
  const tz = filter.timeZone ?? DEFAULT_TIME_ZONE;
  const period: SQL[] = [sql`le.account_id = ${filter.accountId}`];
  if (filter.from) period.push(sql`le.created_at >= (${filter.from}::date)::timestamp at time zone ${tz}`);
  if (filter.to) period.push(sql`le.created_at < (${filter.to}::date + 1)::timestamp at time zone ${tz}`);
  const rows = await queryRows<StatementLineRow>(
    db,
    sql`with entries as (
          select le.*,
            case when le.campaign_id is not null and le.kind in ('reservation', 'release', 'send')
              then 'c' || le.campaign_id::text else 'e' || le.id::text end as line
          from ledger_entries le
          where ${sql.join(period, sql` and `)}
        ), lines as (
          select max(seq) as seq,
            (array_agg(id order by seq desc))[1] as id,
            (array_agg(account_id))[1] as account_id,
            sum(amount_millis)::bigint as amount_millis,
            (array_agg(kind order by case kind when 'send' then 0 when 'release' then 1 else 2 end, seq desc))[1] as kind,
            (array_agg(description order by case kind when 'send' then 0 when 'release' then 2 else 1 end, seq desc))[1]
              as description,
            (array_agg(email_count order by case kind when 'send' then 0 else 1 end, seq desc))[1] as email_count,
            (array_agg(price_millis order by case kind when 'send' then 0 else 1 end, seq desc))[1] as price_millis,
            (array_agg(campaign_id))[1] as campaign_id,
            (array_agg(topup_id))[1] as topup_id,
            (array_agg(refund_id))[1] as refund_id,
            (array_agg(operator_user_id))[1] as operator_user_id,
            (array_agg(balance_after_millis order by seq desc))[1] as balance_after_millis,
            max(created_at) as created_at
          from entries group by line
          ${filter.cursor ? sql`having max(seq) < ${filter.cursor}` : sql``}
        )
        select lines.*, c.name as campaign_name
        from lines left join campaigns c on c.id = lines.campaign_id and c.created_by = ${filter.accountId}
        order by lines.seq desc
        limit ${filter.limit + 1}`,
  );
  const entries = rows.slice(0, filter.limit).map(
    (r): StatementLine => ({
      id: r.id,
      seq: Number(r.seq),
      accountId: r.account_id,
      amountMillis: Number(r.amount_millis),
      kind: r.kind,
      campaignId: r.campaign_id,
      topupId: r.topup_id,
      refundId: r.refund_id,
      operatorUserId: r.operator_user_id,
      emailCount: r.email_count,
      priceMillis: r.price_millis,
      description: r.description,
      balanceAfterMillis: Number(r.balance_after_millis),
      createdAt: new Date(r.created_at),
      campaignName: r.campaign_name,
    }),
  );
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > filter.limit && last ? last.seq : null };
}

type Lister = typeof listStatementLines;

/** Every page of the statement, following nextCursor from the first page to the last. */
async function walk(list: Lister, db: Db, filter: Omit<StatementFilter, 'cursor'>) {
  const pages: Array<{ entries: StatementLine[]; nextCursor: number | null }> = [];
  let cursor: number | undefined;
  do {
    const page = await list(db, { ...filter, cursor });
    pages.push(page);
    cursor = page.nextCursor ?? undefined;
    if (pages.length > 10_000) throw new Error('the cursor never reaches the last page');
  } while (cursor !== undefined);
  return pages;
}

type NewEntry = typeof ledgerEntries.$inferInsert;

/**
 * A ledger of about `size` entries for `accountId`, in seq order, a few for `otherId` among them; entries an hour
 * apart on average from 2026-03-01, one in twenty dated up to two days back (a clock step: created_at is not seq).
 */
async function generateLedger(db: Db, seed: number, size: number, accountId: string, otherId: string) {
  const r = seededRandom(seed);
  const entries: NewEntry[] = [];
  let at = Date.parse('2026-03-01T09:00:00-03:00');
  let balance = 1_000_000;
  const add = (entry: Omit<NewEntry, 'balanceAfterMillis' | 'createdAt'>) => {
    at += r.int(0, 7_200_000);
    const createdAt = new Date(r.chance(0.05) ? at - r.int(0, 172_800_000) : at);
    if (entry.accountId === accountId) balance += entry.amountMillis;
    entries.push({ ...entry, balanceAfterMillis: Math.max(balance, 0), createdAt });
  };
  const named: string[] = [];
  const open: Array<{ id: string; reserved: number; count: number }> = [];
  const topupIds: string[] = [];
  /** Campaigns of the account with no send: another account's send may carry one's id (never on this extrato). */
  const releasedOnly: string[] = [];
  const price = 4;
  while (entries.length < size) {
    const roll = r.next();
    if (roll < 0.3) {
      const count = r.int(1, 40);
      add({
        accountId,
        kind: 'send',
        amountMillis: -count * price,
        emailCount: count,
        priceMillis: price,
        description: `Envio transacional: ${count} e-mails`,
      });
    } else if (roll < 0.38) {
      const count = r.int(1, 5);
      add({
        accountId,
        kind: 'refund',
        amountMillis: count * price,
        emailCount: count,
        description: `Estorno de envio transacional: ${count} e-mails`,
      });
    } else if (roll < 0.43) {
      const id = randomUUID();
      topupIds.push(id);
      const amount = r.int(1, 50) * 1_000;
      await db.insert(topups).values({
        id,
        accountId,
        amountMillis: amount,
        txid: `t${id.replaceAll('-', '').slice(0, 20)}`,
        brCode: 'br',
        status: 'paid',
        expiresAt: new Date(at),
        paidAt: new Date(at),
      });
      add({ accountId, kind: 'topup', amountMillis: amount, topupId: id, description: 'Recarga via Pix' });
    } else if (roll < 0.48) {
      const amount = r.pick([-1, 1]) * r.int(1, 9_000);
      add({
        accountId,
        kind: 'adjustment',
        amountMillis: amount,
        operatorUserId: 'operador',
        description: `Ajuste manual: ${amount}`,
      });
    } else if (roll < 0.5 && topupIds.length > 0) {
      // A top-up's refund, sometimes given back when the provider refuses it.
      const refundId = randomUUID();
      add({
        accountId,
        kind: 'refund',
        amountMillis: -500,
        topupId: r.pick(topupIds),
        refundId,
        description: 'Estorno de recarga',
      });
      if (r.chance(0.5))
        add({ accountId, kind: 'adjustment', amountMillis: 500, refundId, description: 'Estorno recusado' });
    } else if (roll < 0.62) {
      const id = randomUUID();
      const count = r.int(10, 500);
      if (r.chance(0.7)) named.push(id);
      open.push({ id, reserved: count * price, count });
      add({
        accountId,
        kind: 'reservation',
        amountMillis: -count * price,
        campaignId: id,
        emailCount: count,
        priceMillis: price,
        description: `Reserva: ${count} e-mails`,
      });
    } else if (roll < 0.78 && open.length > 0) {
      // Settles a campaign reserved earlier (not always the latest): release and send, in either order or alone.
      const [c] = open.splice(r.int(0, open.length - 1), 1);
      if (!c) continue;
      const sent = r.int(0, c.count);
      const release = () =>
        add({
          accountId,
          kind: 'release',
          amountMillis: c.reserved,
          campaignId: c.id,
          emailCount: c.count,
          priceMillis: price,
          description: `Liberação: ${c.count} e-mails`,
        });
      const send = () =>
        add({
          accountId,
          kind: 'send',
          amountMillis: -sent * price,
          campaignId: c.id,
          emailCount: sent,
          priceMillis: price,
          description: `Envio da campanha: ${sent} e-mails`,
        });
      const shape = r.next();
      if (shape < 0.7) {
        release();
        send();
      } else if (shape < 0.8) {
        send();
        release();
      } else if (shape < 0.9) {
        release();
        releasedOnly.push(c.id);
      } else {
        send();
      }
    } else if (roll < 0.8) {
      // A campaign's entry of another kind is a line of its own; so is a send of a campaign never reserved.
      const id = r.pick([...named, randomUUID()]);
      add({
        accountId,
        kind: 'adjustment',
        amountMillis: 100,
        campaignId: id,
        operatorUserId: 'operador',
        description: 'Ajuste de campanha',
      });
    } else if (roll < 0.82) {
      add({
        accountId,
        kind: 'send',
        amountMillis: -price,
        campaignId: randomUUID(),
        emailCount: 1,
        priceMillis: price,
        description: 'Envio avulso',
      });
    } else {
      const id = randomUUID();
      add({
        accountId: otherId,
        kind: 'reservation',
        amountMillis: -40,
        campaignId: id,
        emailCount: 10,
        priceMillis: price,
        description: 'Outra conta',
      });
      add({
        accountId: otherId,
        kind: 'send',
        amountMillis: -8,
        campaignId: r.chance(0.5) ? (releasedOnly.pop() ?? null) : null,
        emailCount: 2,
        priceMillis: price,
        description: 'Outra conta',
      });
      if (r.chance(0.5))
        add({
          accountId: otherId,
          kind: 'release',
          amountMillis: 40,
          campaignId: id,
          emailCount: 10,
          priceMillis: price,
          description: 'Outra conta',
        });
    }
  }
  for (let i = 0; i < entries.length; i += 200) await db.insert(ledgerEntries).values(entries.slice(i, i + 200));
  // Names for most of the account's campaigns, and one of them under the other account (never shown).
  for (const [i, id] of named.entries()) {
    await queryRows(
      db,
      sql`insert into campaigns (id, uuid, created_by, name)
          values (${id}, gen_random_uuid(), ${i === 0 ? otherId : accountId}, ${`Campanha ${i}`})`,
    );
  }
}

describe.each(DATABASE_KINDS)('the extrato on %s', (kind) => {
  let database: Database;
  let db: Db;
  let accountId: string;
  let otherId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
    accountId = (await createTestAccount(db)).id;
    otherId = (await createTestAccount(db, { name: 'Outra loja' })).id;
    await generateLedger(db, 20_260_301, 420, accountId, otherId);
  });
  afterAll(async () => {
    await database.close();
  });

  it('generates a ledger with every kind of line, campaigns folded across other entries and periods', async () => {
    const lines = (await walk(previousStatementLines, db, { accountId, limit: 1_000 })).flatMap((p) => p.entries);
    const [shape] = await queryRows<{ folded: number; interleaved: number; out_of_order: number; shared: number }>(
      db,
      sql`select
            count(distinct campaign_id) filter (where kind in ('reservation', 'release', 'send') and campaign_id is not null)
              as folded,
            (select count(*) from (
               select campaign_id from ledger_entries
               where account_id = ${accountId} and kind in ('reservation', 'release', 'send') and campaign_id is not null
               group by campaign_id having max(seq) - min(seq) > count(*) - 1) i) as interleaved,
            (select count(*) from ledger_entries a join ledger_entries b
               on b.account_id = a.account_id and b.seq = a.seq + 1 and b.created_at < a.created_at
             where a.account_id = ${accountId}) as out_of_order,
            (select count(distinct campaign_id) from ledger_entries
             where account_id = ${otherId} and campaign_id in (
               select campaign_id from ledger_entries where account_id = ${accountId})) as shared
          from ledger_entries where account_id = ${accountId}`,
    );
    expect(Number(shape?.folded)).toBeGreaterThan(20);
    expect(Number(shape?.interleaved)).toBeGreaterThan(10);
    expect(Number(shape?.out_of_order)).toBeGreaterThan(5);
    expect(Number(shape?.shared)).toBeGreaterThan(0);
    expect(new Set(lines.map((l) => l.kind))).toEqual(
      new Set(['send', 'refund', 'topup', 'adjustment', 'reservation', 'release']),
    );
    expect(lines.some((l) => l.campaignName !== null)).toBe(true);
    expect(lines.length).toBeGreaterThan(200);
  });

  const filters: Array<[string, Omit<StatementFilter, 'accountId' | 'limit' | 'cursor'>]> = [
    ['the whole ledger', {}],
    ['from a day', { from: '2026-03-05' }],
    ['up to a day', { to: '2026-03-12' }],
    ['a week', { from: '2026-03-06', to: '2026-03-12' }],
    ['one day', { from: '2026-03-09', to: '2026-03-09' }],
    ['a week in UTC', { from: '2026-03-06', to: '2026-03-12', timeZone: 'UTC' }],
    ['a period with no entry', { from: '2025-01-01', to: '2025-01-31' }],
  ];

  it.each(filters)('pages %s exactly as the whole-ledger query did, at every page size', async (_name, period) => {
    for (const limit of [1, 3, 7, 50]) {
      const filter = { accountId, limit, ...period };
      const expected = await walk(previousStatementLines, db, filter);
      const actual = await walk(listStatementLines, db, filter);
      expect(actual).toEqual(expected);
    }
  });

  it.each(filters)('exports %s in the same CSV', async (_name, period) => {
    const filter = { accountId, limit: 100_000, ...period };
    const expected = await previousStatementLines(db, filter);
    const actual = await listStatementLines(db, filter);
    expect(actual).toEqual(expected);
    expect(statementToCsv(actual.entries)).toBe(statementToCsv(expected.entries));
  });
});

/** The ledger_entries rows one statement's plan read (returned or filtered out, every loop), from EXPLAIN ANALYZE. */
const ledgerRowsRead = (db: Db, filter: StatementFilter) =>
  planRowsRead(db, 'ledger_entries', (explaining) => listStatementLines(explaining, filter));

describe.each(DATABASE_KINDS)('the cost of an extrato page on %s', (kind) => {
  let database: Database;
  let db: Db;
  let accountId: string;

  beforeAll(async () => {
    database = await createTestDatabase(kind);
    db = database.db;
    accountId = (await createTestAccount(db)).id;
    // 5,000 entries an hour apart up to now: transactional sends, and every 100th a campaign reserved, settled 50
    // entries later.
    await queryRows(
      db,
      sql`insert into ledger_entries (account_id, amount_millis, kind, campaign_id, email_count, price_millis,
                                      description, balance_after_millis, created_at)
          select ${accountId}::uuid, case when k = 'release' then 400 else -4 end, k,
                 case when k <> 'send' or g % 100 = 52 then md5((g / 100)::text)::uuid end,
                 1, 4, k, 1000000, now() - (5000 - g) * interval '1 hour'
          from (select g, case g % 100 when 1 then 'reservation' when 51 then 'release' else 'send' end as k
                from generate_series(1, 5000) g) s
          order by g`,
    );
    await queryRows(db, sql`analyze ledger_entries`);
  });
  afterAll(async () => {
    await database.close();
  });

  it("reads a page's lines, not the account's history, on the first page and deep in it", async () => {
    const limit = 60;
    const first = await listStatementLines(db, { accountId, limit });
    expect(first.entries).toHaveLength(limit);
    expect(await ledgerRowsRead(db, { accountId, limit })).toBeLessThan(10 * (limit + 1));
    const [deep] = await queryRows<{ seq: number }>(
      db,
      sql`select seq from ledger_entries where account_id = ${accountId} order by seq limit 1 offset 2500`,
    );
    expect(await ledgerRowsRead(db, { accountId, limit, cursor: Number(deep?.seq) })).toBeLessThan(10 * (limit + 1));
  });

  it('reads the first page of a period ending far in the past from its end, not through the newer entries', async () => {
    // Up to the day of the 2,000th entry: ~3,000 newer entries come first, newest first.
    const [day] = await queryRows<{ date: string }>(
      db,
      sql`select to_char(created_at at time zone ${DEFAULT_TIME_ZONE}, 'YYYY-MM-DD') as date from ledger_entries
           where account_id = ${accountId} order by seq limit 1 offset 2000`,
    );
    const filter = { accountId, limit: 10, to: day?.date };
    const page = await listStatementLines(db, filter);
    expect(page.entries).toHaveLength(10);
    expect(page.nextCursor).not.toBeNull();
    const dates = page.entries.map((e) => e.createdAt.toLocaleDateString('en-CA', { timeZone: DEFAULT_TIME_ZONE }));
    expect(dates[0]).toBe(day?.date);
    expect(dates.every((date) => date <= (day?.date ?? ''))).toBe(true);
    expect(await ledgerRowsRead(db, filter)).toBeLessThan(10 * (10 + 1));
  });
});
