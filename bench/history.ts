/**
 * npm run bench:history — the pages that read a long history newest first: the public API's message list
 * (`findMessagePage`) and the account statement (`listStatementLines`), with and without a period (a benchmark, not
 * a test):
 *
 *   BENCH_STREAM=1000000 BENCH_CAMPAIGN_MESSAGES=2000000 BENCH_LEDGER=1000000 BENCH_RUNS=7 npm run bench:history
 *
 * 1. Creates a throwaway PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *    dropped at the end, kept with BENCH_KEEP_DB=1, reused with BENCH_REUSE_DB=<name>), migrates it, and seeds one
 *    account: an API stream of BENCH_STREAM messages one a second up to three days ago, then BENCH_CAMPAIGN_MESSAGES
 *    campaign messages (20 campaigns) sent since — after the stream's in id order, as an account's campaigns sent
 *    after its last API message are; and a ledger of BENCH_LEDGER entries ten seconds apart up to now (sends, every
 *    100th a campaign's reservation settled 50 entries later). Then VACUUM ANALYZE, as autovacuum would leave them.
 * 2. Each page BENCH_RUNS times after one warm-up: p50 and p95, and p50 as a ratio to the plain first page of the
 *    same list measured in this run (the in-run reference).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { sql } from 'drizzle-orm';
import { type Db, openDatabase, queryRows } from '../server/src/db/database';
import { listStatementLines, type StatementFilter } from '../server/src/modules/billing/list-statement';
import { findMessagePage } from '../server/src/modules/public-api/message-lookup';
import { adminStatement, benchDatabaseUrl } from './bench-database';

const STREAM = Number(process.env.BENCH_STREAM ?? 1_000_000);
const CAMPAIGN_MESSAGES = Number(process.env.BENCH_CAMPAIGN_MESSAGES ?? 2_000_000);
const LEDGER = Number(process.env.BENCH_LEDGER ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const CAMPAIGNS = 20;
const TIME_ZONE = 'America/Sao_Paulo';
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

async function seed(db: Db): Promise<void> {
  const [account] = await queryRows<{ id: string }>(
    db,
    sql`insert into accounts (uuid, owner_user_id, name) values (gen_random_uuid(), 'bench', 'Loja Bench') returning id`,
  );
  const accountId = account?.id as string;
  const [stream] = await queryRows<{ id: string }>(
    db,
    sql`insert into campaigns (uuid, created_by, name, subject, status, kind)
        values (gen_random_uuid(), ${accountId}::uuid, 'API', '', 'sending', 'transactional') returning id`,
  );
  const t0 = performance.now();
  await db.execute(
    sql`insert into messages (campaign_id, account_id, email, status, token, created_at, sent_at, attempts)
        select ${stream?.id}::uuid, ${accountId}::uuid, 'r' || (g % 1000) || '@destino.com.br', 'sent', md5('s' || g),
               now() - interval '3 days' - (${STREAM}::int - g) * interval '1 second', now(), 1
          from generate_series(1, ${STREAM}::int) g`,
  );
  const perCampaign = Math.ceil(CAMPAIGN_MESSAGES / CAMPAIGNS);
  await db.execute(
    sql`with c as (insert into campaigns (uuid, created_by, name, subject, status, from_email)
                   select gen_random_uuid(), ${accountId}::uuid, 'Campanha ' || k, 'Oi', 'sent', 'loja@exemplo.com.br'
                     from generate_series(1, ${CAMPAIGNS}::int) k returning id, name)
        insert into messages (campaign_id, account_id, contact_id, email, status, token, created_at, sent_at, attempts)
        select c.id, ${accountId}::uuid, gen_random_uuid(), 'c' || g || '@exemplo.com.br', 'sent', md5(c.name || '/' || g),
               now() - interval '3 days' + (substr(c.name, 10)::int * interval '3 hours'), now(), 1
          from c, generate_series(1, ${perCampaign}::int) g
         order by c.name, g`,
  );
  await db.execute(
    sql`insert into ledger_entries (account_id, amount_millis, kind, campaign_id, email_count, price_millis,
                                    description, balance_after_millis, created_at)
        select ${accountId}::uuid, case when k = 'release' then 400 else -4 end, k,
               case when k <> 'send' or g % 100 = 52 then md5((g / 100)::text)::uuid end,
               1, 4, k, 1000000, now() - (${LEDGER}::int - g) * interval '10 seconds'
          from (select g, case g % 100 when 1 then 'reservation' when 51 then 'release' else 'send' end as k
                  from generate_series(1, ${LEDGER}::int) g) s
         order by g`,
  );
  await db.execute(sql`vacuum analyze messages`);
  await db.execute(sql`vacuum analyze ledger_entries`);
  console.log(
    `seeded: ${fmt(STREAM)} stream messages, ${fmt(CAMPAIGN_MESSAGES)} campaign messages after them, ` +
      `${fmt(LEDGER)} ledger entries in ${fmt((performance.now() - t0) / 1000)} s`,
  );
}

async function timePage(read: () => Promise<number>): Promise<{ p50: number; p95: number; rows: number }> {
  let rows = await read();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    rows = await read();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? Number.NaN;
  return { p50: at(0.5), p95: at(0.95), rows };
}

function printRow(label: string, r: { p50: number; p95: number; rows: number }, reference: number): void {
  console.log(
    `  ${label.padEnd(58)} ${String(r.rows).padStart(4)} ${r.p50.toFixed(1).padStart(8)} ${r.p95.toFixed(1).padStart(8)} ${(r.p50 / reference).toFixed(1).padStart(7)}×`,
  );
}

async function measure(db: Db): Promise<void> {
  const [account] = await queryRows<{ id: string }>(db, sql`select id from accounts where owner_user_id = 'bench'`);
  const accountId = account?.id as string;
  const [newest] = await queryRows<{ at: string }>(
    db,
    sql`select max(created_at) as at from messages
         where campaign_id = (select id from campaigns where kind = 'transactional') and contact_id is null`,
  );
  const end = new Date(newest?.at as string).getTime();
  const ago = (seconds: number) => new Date(end - seconds * 1000).toISOString();
  const header = `  ${'page'.padEnd(58)} rows  p50 ms   p95 ms   ÷ plain`;

  console.log(`\nGET /api/v1/messages (findMessagePage, a live key, 50 per page), ${RUNS} runs after one`);
  console.log(header);
  const messages = async (query: object) =>
    (await findMessagePage(db, accountId, 'live', { limit: 50, ...query })).items.length;
  const plain = await timePage(() => messages({}));
  printRow('no filter (reference)', plain, plain.p50);
  const messagePages: [string, object][] = [
    ['since an hour before the newest', { since: ago(3600) }],
    ['until an hour before the newest', { until: ago(3600) }],
    ['until ten days before the newest', { until: ago(10 * 86400) }],
    ['a one-day window five days before the newest', { since: ago(5 * 86400), until: ago(4 * 86400) }],
    ['until before the first message (empty)', { until: ago(STREAM + 3600) }],
    ['since after the newest (empty)', { since: ago(-600) }],
    ['until a day before the newest, status delivered', { until: ago(86400), status: ['delivered'] }],
  ];
  for (const [label, query] of messagePages) printRow(label, await timePage(() => messages(query)), plain.p50);

  console.log(`\nThe account statement (listStatementLines, 50 lines per page), ${RUNS} runs after one`);
  console.log(header);
  const dayOf = async (offset: number) =>
    (
      await queryRows<{ day: string }>(
        db,
        sql`select to_char(created_at at time zone ${TIME_ZONE}, 'YYYY-MM-DD') as day from ledger_entries
             where account_id = ${accountId}::uuid order by seq limit 1 offset ${offset}`,
      )
    )[0]?.day as string;
  const statement = async (filter: Partial<StatementFilter>) =>
    (await listStatementLines(db, { accountId, limit: 50, timeZone: TIME_ZONE, ...filter })).entries.length;
  const first = await timePage(() => statement({}));
  printRow('first page, no period (reference)', first, first.p50);
  const early = await dayOf(Math.floor(LEDGER / 50));
  const middle = await dayOf(Math.floor(LEDGER / 2));
  const statementPages: [string, Partial<StatementFilter>][] = [
    [`a day near the start (${early})`, { from: early, to: early }],
    [`a day in the middle (${middle})`, { from: middle, to: middle }],
    [`up to a day near the start`, { to: early }],
    [`from a day in the middle`, { from: middle }],
  ];
  for (const [label, filter] of statementPages) printRow(label, await timePage(() => statement(filter)), first.p50);
}

async function main(): Promise<void> {
  console.log(
    `machine: ${os.cpus().length} cores, load ${os
      .loadavg()
      .map((n) => n.toFixed(2))
      .join(' ')}`,
  );
  const reuse = process.env.BENCH_REUSE_DB;
  const name = reuse ?? `bench_history_${randomBytes(4).toString('hex')}`;
  if (!reuse) await adminStatement(`create database ${name}`);
  const database = await openDatabase({ kind: 'postgres', url: benchDatabaseUrl(name), poolSize: 1 });
  try {
    await database.migrate();
    if (!reuse) await seed(database.db);
    await measure(database.db);
  } finally {
    await database.close();
    if (!reuse && process.env.BENCH_KEEP_DB !== '1')
      await adminStatement(`drop database if exists ${name} with (force)`);
    else console.log(`database ${name} kept (BENCH_REUSE_DB=${name} to measure it again)`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
