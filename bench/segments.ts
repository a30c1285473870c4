/**
 * npm run bench:segments — the live count of a segment at scale (a benchmark, not a test):
 *
 *   BENCH_CONTACTS=1000000 BENCH_EVENTS=10000000 npm run bench:segments
 *
 * 1. Creates a throwaway PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *    dropped at the end, kept with BENCH_KEEP_DB=1 for EXPLAIN), migrates it, and generates with SQL
 *    (generate_series): one account with BENCH_CONTACTS contacts (custom fields cidade/pontos/nascimento, joined
 *    over the last ~3 years) on three lists (Clientes 60 %, VIP 5 %, Inativos 14 %), BENCH_CAMPAIGNS sent
 *    campaigns, one message per contact for the BENCH_DELIVERED_CAMPAIGNS (5) most recent (2 % failed), and
 *    BENCH_EVENTS message events spread over the campaigns and the contacts (≈ 65 % opens, a fifth of them machine
 *    opens, 30 % clicks, 5 % unsubscribes). The messages and message_events indexes are dropped during the load
 *    and rebuilt from their own definitions (faster than maintaining them row by row), then the tables are
 *    analysed. The campaigns are sent before their events are inserted, so the trigger on message_events writes
 *    segment_engagement during the load; the delivered campaigns are then folded and the table rewritten (CLUSTER,
 *    as migration 0051 leaves it).
 * 2. Counts segments through the real code path (countSegment: context checks + compiled SQL), BENCH_RUNS times
 *    each after BENCH_WARMUP runs, and prints p50 / p95 / max in ms: the three segments of the first benchmark,
 *    one row per condition type (text, number, date, list, status, subscription date, each engagement operator),
 *    an OU and an E of a list and "nunca abriu", an OU of three sets, and the worst tree the editor allows (3
 *    levels, 30 conditions, OU at the top). BENCH_ONLY=<text>[|<text>…] measures only the rows whose label contains one of them.
 *
 * BENCH_REUSE_DB=<name> measures again on a database a previous run kept (BENCH_KEEP_DB=1), without seeding; the
 * migrations it lacks are applied first.
 *
 * Before/after in one run (the box is shared: separate runs are not comparable): BENCH_BASELINE=<checkout> — another
 * tree of this repository, e.g. `git worktree add --detach ../base main` with node_modules linked — counts every
 * row with that tree's countSegment too, alternately with this tree's (the order swapped each run), on
 * BENCH_BASELINE_DB=<name>: a clone of the same database at that tree's schema (CREATE DATABASE … TEMPLATE …
 * before this tree's migrations; never migrated here). Each row then prints both and the ratio this/baseline.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type { SegmentCondition, SegmentGroup } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Db, openDatabase, queryRows } from '../server/src/db/database';
import { recentSentCampaignIds } from '../server/src/modules/campaigns/campaign-directory';
import { foldEngagement } from '../server/src/modules/segments/segment-engagement';
import { countSegment, previewSegment } from '../server/src/modules/segments/segments';
import { all, any } from '../server/src/modules/segments/testing/segment-trees';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const EVENTS = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const CAMPAIGNS = Number(process.env.BENCH_CAMPAIGNS ?? 20);
/** Measure only the segments whose label contains one of these texts (separated by |). */
const ONLY = process.env.BENCH_ONLY;
const DELIVERED_CAMPAIGNS = Number(process.env.BENCH_DELIVERED_CAMPAIGNS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const ms = (n: number) => n.toFixed(1);

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, i)] as number;
}

const custom = (key: string, operator: string, value?: string) =>
  ({ type: 'field', field: { custom: key }, operator, value }) as SegmentCondition;
const engagement = (operator: string, campaigns?: number) =>
  ({ type: 'engagement', operator, campaigns }) as SegmentCondition;

/** The segments measured; `{list:Clientes}` etc. are replaced by the seeded lists' ids. */
export function segmentsToMeasure(lists: Record<string, string>): Array<{ label: string; tree: SegmentGroup }> {
  const list = (name: string, operator: 'in' | 'not_in' = 'in') =>
    ({ type: 'list', operator, listId: lists[name] as string }) as SegmentCondition;
  // The deepest tree the editor allows (3 levels) with its most conditions (30), every condition type and
  // operator family in it, OU at the top so no branch can stop the others early.
  const worst = any(
    all(
      custom('cidade', 'equals', 'São Paulo'),
      any(custom('pontos', 'number_gt', '450'), custom('nascimento', 'birthday_this_month'), list('VIP')),
      engagement('opened_any', 5),
      { type: 'status', operator: 'is', value: 'subscribed' },
      { type: 'subscribed_at', operator: 'in_last_days', value: '90' },
    ),
    all(
      custom('cidade', 'starts_with', 'Rec'),
      engagement('never_opened'),
      any(custom('pontos', 'number_lte', '10'), custom('nascimento', 'date_before', '1975-01-01')),
      list('Inativos', 'not_in'),
    ),
    all(
      list('Clientes'),
      engagement('opened_none', 3),
      any(
        { type: 'field', field: 'name', operator: 'contains', value: '999' },
        { type: 'field', field: 'email', operator: 'starts_with', value: 'c12' },
        custom('cidade', 'is_empty'),
      ),
    ),
    all(
      engagement('clicked_any', 10),
      custom('cidade', 'not_equals', 'Curitiba'),
      any(
        custom('nascimento', 'date_after', '2005-01-01'),
        custom('nascimento', 'date_on', '1990-05-05'),
        custom('pontos', 'number_eq', '77'),
      ),
      { type: 'subscribed_at', operator: 'before', value: '2024-06-01' },
    ),
    all(
      { type: 'status', operator: 'is_not', value: 'unsubscribed' },
      custom('cidade', 'not_contains', 'o'),
      any(custom('pontos', 'number_gte', '498'), { type: 'subscribed_at', operator: 'after', value: '2026-01-01' }),
      custom('nascimento', 'is_not_empty'),
      { type: 'field', field: 'email', operator: 'not_contains', value: 'teste' },
    ),
    custom('cidade', 'contains', 'Horizonte'),
  );
  return [
    {
      label: 'cidade = São Paulo E inscrito há ≤ 365 dias E abriu alguma das últimas 5',
      tree: all(
        custom('cidade', 'equals', 'São Paulo'),
        { type: 'subscribed_at', operator: 'in_last_days', value: '365' },
        engagement('opened_any', 5),
      ),
    },
    {
      label: 'pontos > 250 E situação inscrito E clicou em alguma das últimas 3',
      tree: all(
        custom('pontos', 'number_gt', '250'),
        { type: 'status', operator: 'is', value: 'subscribed' },
        engagement('clicked_any', 3),
      ),
    },
    {
      label: 'aniversário este mês OU (cidade começa com "Rec" E nunca abriu)',
      tree: any(
        custom('nascimento', 'birthday_this_month'),
        all(custom('cidade', 'starts_with', 'Rec'), engagement('never_opened')),
      ),
    },
    {
      label: 'texto: nome contém "99"',
      tree: all({ type: 'field', field: 'name', operator: 'contains', value: '99' }),
    },
    {
      label: 'texto: e-mail começa com "c1" OU cidade é diferente de "Recife"',
      tree: any(
        { type: 'field', field: 'email', operator: 'starts_with', value: 'c1' },
        custom('cidade', 'not_equals', 'Recife'),
      ),
    },
    { label: 'texto: cidade está vazia', tree: all(custom('cidade', 'is_empty')) },
    { label: 'número: pontos ≥ 480', tree: all(custom('pontos', 'number_gte', '480')) },
    { label: 'data: nascimento antes de 1980-01-01', tree: all(custom('nascimento', 'date_before', '1980-01-01')) },
    { label: 'data: aniversário este mês', tree: all(custom('nascimento', 'birthday_this_month')) },
    { label: 'lista: está em Clientes', tree: all(list('Clientes')) },
    { label: 'lista: não está em VIP OU está em Inativos', tree: any(list('VIP', 'not_in'), list('Inativos')) },
    { label: 'situação: não é inscrito', tree: all({ type: 'status', operator: 'is_not', value: 'subscribed' }) },
    {
      label: 'inscrição: antes de 2025-01-01 OU depois de 2026-06-01',
      tree: any(
        { type: 'subscribed_at', operator: 'before', value: '2025-01-01' },
        { type: 'subscribed_at', operator: 'after', value: '2026-06-01' },
      ),
    },
    { label: 'engajamento: abriu alguma das últimas 5', tree: all(engagement('opened_any', 5)) },
    { label: 'engajamento: clicou em alguma das últimas 50', tree: all(engagement('clicked_any', 50)) },
    { label: 'engajamento: não abriu nenhuma das últimas 5', tree: all(engagement('opened_none', 5)) },
    { label: 'engajamento: nunca abriu', tree: all(engagement('never_opened')) },
    {
      label: 'engajamento: abriu alguma das últimas 5 OU clicou em alguma das últimas 5',
      tree: any(engagement('opened_any', 5), engagement('clicked_any', 5)),
    },
    {
      label: 'engajamento dentro de OU: cidade = Recife OU não abriu nenhuma das últimas 3 OU nunca abriu',
      tree: any(custom('cidade', 'equals', 'Recife'), engagement('opened_none', 3), engagement('never_opened')),
    },
    {
      label: 'lista OU engajamento: está em Clientes OU nunca abriu',
      tree: any(list('Clientes'), engagement('never_opened')),
    },
    {
      label: 'conjuntos em OU: está em Clientes OU está em VIP OU abriu alguma das últimas 5',
      tree: any(list('Clientes'), list('VIP'), engagement('opened_any', 5)),
    },
    {
      label: 'lista E engajamento: está em Clientes E nunca abriu',
      tree: all(list('Clientes'), engagement('never_opened')),
    },
    { label: 'pior aninhamento: 3 níveis, 30 condições de todos os tipos, OU no topo', tree: worst },
  ];
}

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
    // A reused database gets the migrations it does not have yet (a clone of a kept database taken before a
    // branch's new migration is brought up to that branch's schema, backfills included); its data is kept.
    await database.migrate();
    const t0 = performance.now();
    if (reuse) {
      const [account] = await queryRows<{ id: string }>(db, sql`select id from accounts where owner_user_id = 'bench'`);
      const baseline = await openBaseline(dbUrl);
      try {
        await measure(db, (account as { id: string }).id, `PostgreSQL ${dbName} (reused)`, baseline);
      } finally {
        await baseline?.close();
      }
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
    // Lists: Clientes (3 in 5 contacts), VIP (1 in 20), Inativos (1 in 7, half of those unsubscribed from it).
    await db.execute(
      sql`insert into lists (account_id, name) values (${accountId}, 'Clientes'), (${accountId}, 'VIP'),
            (${accountId}, 'Inativos')`,
    );
    await db.execute(
      sql`insert into list_memberships (list_id, contact_id, status)
          select l.id, c.id, case when l.name = 'Inativos' and c.n % 2 = 0 then 'unsubscribed' else 'subscribed' end
            from (select id, row_number() over () as n from contacts where account_id = ${accountId}) c
            join lists l on l.account_id = ${accountId}
                        and ((l.name = 'Clientes' and c.n % 5 < 3) or (l.name = 'VIP' and c.n % 20 = 0)
                             or (l.name = 'Inativos' and c.n % 7 = 0))`,
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
    // The last BENCH_DELIVERED_CAMPAIGNS campaigns' messages, one per contact (2 % failed): what "não abriu
    // nenhuma das últimas N" reads. Indexes rebuilt after the load, like message_events'.
    const messageIndexes = await queryRows<{ indexname: string; indexdef: string }>(
      db,
      sql`select indexname, indexdef from pg_indexes where tablename = 'messages' and indexname <> 'messages_pkey'`,
    );
    for (const index of messageIndexes) await db.execute(sql.raw(`drop index ${index.indexname}`));
    await db.execute(
      sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at, created_at)
          select k.id, ${accountId}::uuid, c.id, c.email,
                 case when (hashtext(c.id::text) + k.n) % 50 = 0 then 'failed' else 'sent' end,
                 md5(k.id::text || c.id::text) || substr(md5(c.id::text), 1, 8), k.started_at, k.started_at
            from (select id, started_at, row_number() over (order by started_at desc) as n from campaigns) k
            cross join contacts c
           where k.n <= ${DELIVERED_CAMPAIGNS}::int and c.account_id = ${accountId}`,
    );
    for (const index of messageIndexes) await db.execute(sql.raw(index.indexdef));
    const tEvents = performance.now();
    for (const index of indexes) await db.execute(sql.raw(index.indexdef));
    // The delivered campaigns' fold (their deliveries into segment_engagement) here, not in the first count, and the
    // table then rewritten as migration 0051 leaves it: the trigger wrote it once per 1M-event statement and the
    // fold updates every recipient's row, so a seed measured as it was read a heap ~5× its live rows (577 MB for
    // 1M contacts, session 9) — not the state session 8's figures were measured in.
    const delivered = await queryRows<{ id: string }>(
      db,
      sql`select id from campaigns where created_by = ${accountId} and status = 'sent'
           order by started_at desc nulls last, id desc limit ${DELIVERED_CAMPAIGNS}::int`,
    );
    await foldEngagement(
      db,
      accountId,
      delivered.map((k) => k.id),
    );
    await db.execute(sql`cluster segment_engagement using segment_engagement_account_id_contact_id_pk`);
    // Steady state: autovacuum's insert-triggered vacuum sets the visibility map of an append-only table, which
    // index-only scans need.
    await db.execute(sql`vacuum analyze contacts`);
    await db.execute(sql`vacuum analyze contact_field_values`);
    await db.execute(sql`vacuum analyze message_events`);
    await db.execute(sql`vacuum analyze messages`);
    await db.execute(sql`vacuum analyze list_memberships`);
    await db.execute(sql`vacuum analyze contact_first_opens`);
    await db.execute(sql`vacuum analyze segment_engagement`);
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

/** Another tree's count (BENCH_BASELINE) over its own clone of the database (BENCH_BASELINE_DB). */
interface Baseline {
  db: Db;
  count: (db: Db, accountId: string, tree: SegmentGroup) => Promise<number>;
  close: () => Promise<void>;
}

async function openBaseline(dbUrl: URL): Promise<Baseline | undefined> {
  const dir = process.env.BENCH_BASELINE;
  if (!dir) return undefined;
  const url = new URL(dbUrl);
  if (process.env.BENCH_BASELINE_DB) url.pathname = `/${process.env.BENCH_BASELINE_DB}`;
  const segments = await import(pathToFileURL(`${dir}/server/src/modules/segments/segments.ts`).href);
  const directory = await import(pathToFileURL(`${dir}/server/src/modules/campaigns/campaign-directory.ts`).href);
  // The baseline's own pool too: its sessions' settings are part of what is compared.
  const baselineDatabase = await import(pathToFileURL(`${dir}/server/src/db/database.ts`).href);
  const database = await baselineDatabase.openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 2 });
  return {
    db: database.db,
    count: (db, accountId, tree) => segments.countSegment(db, accountId, tree, directory.recentSentCampaignIds),
    close: () => database.close(),
  };
}

/** Prints the floor and every segment's count times for the account (also used by bench/ten-million.ts). */
export async function measure(db: Db, accountId: string, title: string, baseline?: Baseline): Promise<void> {
  {
    const [counts] = await queryRows<{ contacts: number; events: number; messages: number }>(
      db,
      sql`select (select count(*)::int from contacts) as contacts, (select count(*)::int from message_events) as events,
                 (select count(*)::int from messages) as messages`,
    );
    const lists = Object.fromEntries(
      (
        await queryRows<{ id: string; name: string }>(
          db,
          sql`select id, name from lists where account_id = ${accountId}`,
        )
      ).map((l) => [l.name, l.id]),
    );
    const load = os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
    console.info(
      `${title}; ${fmt(counts?.contacts ?? 0)} contacts, ${fmt(counts?.events ?? 0)} message events, ` +
        `${fmt(counts?.messages ?? 0)} messages; ` +
        `${os.cpus().length} CPUs, load average ${load}, Node ${process.version}`,
    );

    const recent = await queryRows<{ id: string }>(
      db,
      sql`select id from campaigns where created_by = ${accountId} and status = 'sent'
           order by started_at desc nulls last, id desc limit 5`,
    );
    // Opened/clicked/não abriu: campaigns not folded into segment_engagement yet (their deliveries, and events
    // from before the campaign was sent — none here) are folded once, by the first count that needs them — timed
    // here, apart from the counts.
    const engagementStart = performance.now();
    const engagementFolded = await foldEngagement(
      db,
      accountId,
      recent.map((r) => r.id),
    );
    console.info(
      `fold of the last ${recent.length} sent campaigns into segment_engagement (once per campaign): ${fmt(engagementFolded)} campaigns in ${fmt(performance.now() - engagementStart)} ms`,
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
    for (const { label, tree } of segmentsToMeasure(lists)) {
      if (ONLY && !ONLY.split('|').some((part) => label.includes(part))) continue;
      const times: number[] = [];
      const baseTimes: number[] = [];
      let matched = 0;
      let baseMatched = 0;
      for (let i = 0; i < WARMUP + RUNS; i++) {
        const runThis = async () => {
          const start = performance.now();
          matched = await countSegment(db, accountId, tree, recentSentCampaignIds);
          if (i >= WARMUP) times.push(performance.now() - start);
        };
        const runBase = async (b: Baseline) => {
          const start = performance.now();
          baseMatched = await b.count(b.db, accountId, tree);
          if (i >= WARMUP) baseTimes.push(performance.now() - start);
        };
        if (!baseline) await runThis();
        else if (i % 2 === 0) {
          await runBase(baseline);
          await runThis();
        } else {
          await runThis();
          await runBase(baseline);
        }
      }
      times.sort((x, y) => x - y);
      baseTimes.sort((x, y) => x - y);
      if (baseline) {
        console.info(
          `baseline "${label}": ${fmt(baseMatched)} contacts${baseMatched === matched ? '' : ` (MISMATCH: this tree ${fmt(matched)})`} — ` +
            `p50 ${ms(percentile(baseTimes, 50))} ms, p95 ${ms(percentile(baseTimes, 95))} ms; this/baseline ` +
            `p50 ${(percentile(times, 50) / percentile(baseTimes, 50)).toFixed(2)}, p95 ${(percentile(times, 95) / percentile(baseTimes, 95)).toFixed(2)}`,
        );
      }
      const pStart = performance.now();
      const preview = await previewSegment(db, accountId, tree, recentSentCampaignIds);
      const previewMs = performance.now() - pStart;
      console.info(
        `count "${label}": ${fmt(matched)} contacts — p50 ${ms(percentile(times, 50))} ms, p95 ${ms(percentile(times, 95))} ms, ` +
          `max ${ms(times[times.length - 1] ?? 0)} ms (${RUNS} runs); preview of ${preview.length} in ${ms(previewMs)} ms`,
      );
    }
  }
}

// Run when started as a script (not when bench/ten-million.ts imports `measure`).
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
