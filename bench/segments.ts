/**
 * npm run bench:segments — the live count of a segment at scale (a benchmark, not a test):
 *
 *   BENCH_CONTACTS=1000000 BENCH_EVENTS=10000000 npm run bench:segments
 *
 * 1. Creates a throwaway PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *    dropped at the end, kept with BENCH_KEEP_DB=1 for EXPLAIN), migrates it, and generates with SQL
 *    (generate_series): one account with BENCH_CONTACTS contacts (custom fields cidade/pontos/nascimento, joined
 *    over the last ~3 years), BENCH_CAMPAIGNS sent campaigns, and BENCH_EVENTS message events spread over them
 *    and the contacts (≈ 65 % opens, a fifth of them machine opens, 30 % clicks, 5 % unsubscribes). The
 *    message_events indexes are dropped during the load and rebuilt from their own definitions (faster than
 *    maintaining them row by row), then the tables are analysed.
 * 2. Counts segments through the real code path (countSegment: context checks + compiled SQL), BENCH_RUNS times
 *    each after BENCH_WARMUP runs, and prints p50 / p95 / max in ms. The headline is a three-condition segment
 *    with one condition on engagement: cidade = "São Paulo" E inscrito nos últimos 365 dias E abriu alguma das
 *    últimas 5 campanhas (machine opens excluded).
 *
 * BENCH_REUSE_DB=<name> measures again on a database a previous run kept (BENCH_KEEP_DB=1), without seeding.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { SegmentGroup } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openDatabase, queryRows } from '../server/src/db/database';
import { countSegment, previewSegment } from '../server/src/modules/segments/segments';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(1);

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] as number;
}

const SEGMENTS: Array<{ label: string; tree: SegmentGroup }> = [
  {
    label: 'cidade = São Paulo E inscrito há ≤ 365 dias E abriu alguma das últimas 5',
    tree: {
      type: 'group',
      match: 'all',
      conditions: [
        { type: 'field', field: { custom: 'cidade' }, operator: 'equals', value: 'São Paulo' },
        { type: 'subscribed_at', operator: 'in_last_days', value: '365' },
        { type: 'engagement', operator: 'opened_any', campaigns: 5 },
      ],
    },
  },
  {
    label: 'pontos > 250 E situação inscrito E clicou em alguma das últimas 3',
    tree: {
      type: 'group',
      match: 'all',
      conditions: [
        { type: 'field', field: { custom: 'pontos' }, operator: 'number_gt', value: '250' },
        { type: 'status', operator: 'is', value: 'subscribed' },
        { type: 'engagement', operator: 'clicked_any', campaigns: 3 },
      ],
    },
  },
  {
    label: 'aniversário este mês OU (cidade começa com "Rec" E nunca abriu)',
    tree: {
      type: 'group',
      match: 'any',
      conditions: [
        { type: 'field', field: { custom: 'nascimento' }, operator: 'birthday_this_month' },
        {
          type: 'group',
          match: 'all',
          conditions: [
            { type: 'field', field: { custom: 'cidade' }, operator: 'starts_with', value: 'Rec' },
            { type: 'engagement', operator: 'never_opened' },
          ],
        },
      ],
    },
  },
];

async function main(): Promise<void> {
  const reuse = process.env.BENCH_REUSE_DB;
  const dbName = reuse ?? `bench_segments_${randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  if (!reuse) await admin(`create database ${dbName}`);
  const database = await openDatabase({ kind: 'postgres', url: dbUrl.toString(), poolSize: 2 });
  try {
    const db = database.db;
    await database.migrate();
    const t0 = performance.now();
    if (reuse) {
      const [account] = await queryRows<{ id: string }>(db, sql`select id from accounts where owner_user_id = 'bench'`);
      await measure(db, (account as { id: string }).id, `PostgreSQL ${dbName} (reused)`);
      return;
    }
    const [account] = await queryRows<{ id: string }>(
      db,
      sql`insert into accounts (uuid, owner_user_id, name) values (gen_random_uuid(), 'bench', 'Loja Bench') returning id`,
    );
    const accountId = (account as { id: string }).id;
    await db.execute(
      sql`insert into contacts (account_id, email, name, fields, status, created_at)
          select ${accountId}::uuid, 'c' || g || '@exemplo.com.br', 'Pessoa ' || g,
                 jsonb_build_object(
                   'cidade', (array['São Paulo', 'Rio de Janeiro', 'Recife', 'Curitiba', 'Belo Horizonte'])[1 + g % 5],
                   'pontos', (g % 500)::text,
                   'nascimento', to_char(date '1970-01-01' + (g % 15000), 'YYYY-MM-DD')),
                 case when g % 20 = 0 then 'unsubscribed' else 'subscribed' end,
                 now() - ((g % 1100) || ' days')::interval
            from generate_series(1, ${CONTACTS}::int) g`,
    );
    const tContacts = performance.now();
    await db.execute(
      sql`insert into campaigns (uuid, created_by, name, subject, status, started_at, finished_at)
          select gen_random_uuid(), ${accountId}::uuid, 'Campanha ' || g, 'Oi', 'sent',
                 now() - ((${CAMPAIGNS}::int - g) * 7 || ' days')::interval,
                 now() - ((${CAMPAIGNS}::int - g) * 7 || ' days')::interval
            from generate_series(1, ${CAMPAIGNS}::int) g`,
    );
    const indexes = await queryRows<{ indexname: string; indexdef: string }>(
      db,
      sql`select indexname, indexdef from pg_indexes where tablename = 'message_events' and indexname <> 'message_events_pkey'`,
    );
    for (const index of indexes) await db.execute(sql.raw(`drop index ${index.indexname}`));
    await db.execute(sql`create temp table bench_c as select id, row_number() over () as n from contacts`);
    await db.execute(
      sql`create temp table bench_k as select id, row_number() over (order by started_at) as n from campaigns`,
    );
    await db.execute(sql`create index on bench_c (n)`);
    await db.execute(sql`create index on bench_k (n)`);
    // Per event g: a contact (spread by a multiplicative hash), a campaign (uniform), a kind and machine flag.
    const chunk = 1_000_000;
    for (let from = 1; from <= EVENTS; from += chunk) {
      const to = Math.min(EVENTS, from + chunk - 1);
      await db.execute(
        sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, created_at)
            select g, k.id, ${accountId}::uuid, c.id,
                   case when g % 20 < 13 then 'open' when g % 20 < 19 then 'click' else 'unsubscribe' end,
                   g % 20 < 13 and g % 5 = 0,
                   now() - ((g % 140) || ' days')::interval
              from generate_series(${from}::bigint, ${to}::bigint) g
              join bench_c c on c.n = 1 + (g * 2654435761) % ${CONTACTS}::bigint
              join bench_k k on k.n = 1 + (g / 7) % ${CAMPAIGNS}::bigint`,
      );
    }
    const tEvents = performance.now();
    for (const index of indexes) await db.execute(sql.raw(index.indexdef));
    // Steady state: autovacuum's insert-triggered vacuum sets the visibility map of an append-only table, which
    // index-only scans need.
    await db.execute(sql`vacuum analyze contacts`);
    await db.execute(sql`vacuum analyze message_events`);
    await db.execute(sql`analyze campaigns`);
    const tReady = performance.now();
    await measure(
      db,
      accountId,
      `PostgreSQL ${dbName}: contacts in ${fmt(tContacts - t0)} ms, events in ${fmt(tEvents - tContacts)} ms, ` +
        `indexes + vacuum analyze ${fmt(tReady - tEvents)} ms`,
    );
  } finally {
    await database.close();
    if (process.env.BENCH_KEEP_DB || reuse) console.info(`kept database ${dbName}`);
    else await admin(`drop database if exists ${dbName} with (force)`);
  }
}

async function measure(db: Db, accountId: string, title: string): Promise<void> {
  {
    const [counts] = await queryRows<{ contacts: number; events: number }>(
      db,
      sql`select (select count(*)::int from contacts) as contacts, (select count(*)::int from message_events) as events`,
    );
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.info(
      `${title}; ${fmt(counts?.contacts ?? 0)} contacts, ${fmt(counts?.events ?? 0)} message events; ` +
        `${os.cpus().length} CPUs, load average ${load}, Node ${process.version}`,
    );

    // The floor on this machine now: one pass over the account's contacts reading a custom field, which every
    // segment count on a custom field needs — load-dependent, so it is printed beside the results.
    const floor: number[] = [];
    for (let i = 0; i < WARMUP + RUNS; i++) {
      const start = performance.now();
      await queryRows(
        db,
        sql`select count(*) from contacts c where c.account_id = ${accountId} and c.fields ->> 'cidade' = 'São Paulo'`,
      );
      if (i >= WARMUP) floor.push(performance.now() - start);
    }
    floor.sort((x, y) => x - y);
    console.info(
      `floor (one pass over the contacts reading a custom field): p50 ${ms(percentile(floor, 50))} ms, p95 ${ms(percentile(floor, 95))} ms`,
    );
    for (const { label, tree } of SEGMENTS) {
      const times: number[] = [];
      let matched = 0;
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const start = performance.now();
        matched = await countSegment(db, accountId, tree);
        if (i >= WARMUP) times.push(performance.now() - start);
      }
      times.sort((x, y) => x - y);
      const pStart = performance.now();
      const preview = await previewSegment(db, accountId, tree);
      const previewMs = performance.now() - pStart;
      console.info(
        `count "${label}": ${fmt(matched)} contacts — p50 ${ms(percentile(times, 50))} ms, p95 ${ms(percentile(times, 95))} ms, ` +
          `max ${ms(times[times.length - 1] ?? 0)} ms (${RUNS} runs); preview of ${preview.length} in ${ms(previewMs)} ms`,
      );
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
