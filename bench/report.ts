/**
 * npm run bench:report — the campaign report of one big campaign, read from its rollup against the raw events, and
 * what the rollup's trigger costs a tracking batch (a benchmark, not a test):
 *
 *   BENCH_EVENTS=2000000 BENCH_MESSAGES=500000 BENCH_RUNS=3 npm run bench:report
 *
 * 1. Creates a throwaway PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *    dropped at the end, kept with BENCH_KEEP_DB=1), migrates it, seeds an account and a sent campaign with
 *    BENCH_LINKS links and BENCH_MESSAGES messages (the first fifth an A/B test share of two variants), then
 *    BENCH_EVENTS events in statements of 100,000 (60 % opens, a quarter of them machine; 35 % clicks, a tenth
 *    machine, over the links; bounces of each kind, complaints, unsubscribes), spread over 72 hours — each
 *    statement folded by the trigger, as the migration's backfill would fold them.
 * 2. Back to back, alternating, BENCH_RUNS times: the report's event counts read from every event (the queries the
 *    report ran before the rollup, kept as the tests' oracle) and from the rollup; the A/B variants' unique opens
 *    and clicks the same way; the two answers compared.
 * 3. The tracking recorder's batch (BENCH_BATCH events, default 2,000, opens and clicks of random messages of the
 *    campaign) written BENCH_BATCHES times with the rollup trigger on and off, alternating: the PostgreSQL backend's
 *    CPU per batch (from /proc, one connection) and the wall time.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { type Database, openDatabase, queryRows } from '../server/src/db/database';
import { writeEngagementCounters } from '../server/src/modules/campaigns/campaign-records';
import { abVariantStats } from '../server/src/modules/reports/ab-report';
import { campaignEventCounts } from '../server/src/modules/reports/reports';
import { rawAbVariantCounts, rawCampaignEventCounts } from '../server/src/modules/reports/testing/raw-campaign-report';
import { EventRecorder } from '../server/src/modules/tracking/event-recorder';
import { adminStatement, benchDatabaseUrl } from './bench-database';
import { seedSentCampaign } from './seed-sent-campaign';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 2_000_000);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 500_000);
const LINKS = Number(process.env.BENCH_LINKS ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const BATCH = Number(process.env.BENCH_BATCH ?? 2_000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const CHUNK = 100_000;
const fmt = (x: number) => Math.round(x).toLocaleString('en-US');

/** user + system CPU of a local process in µs (Linux /proc; clock ticks of 10 ms). */
function processCpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

async function seed(db: Database['db']) {
  const { accountId, campaignId, linkIds } = await seedSentCampaign(db, {
    name: 'Grande',
    recipients: MESSAGES,
    links: LINKS,
  });
  await db.execute(
    sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at, attempts, variant)
        select ${campaignId}, ${accountId}, gen_random_uuid(), 'pessoa' || g || '@exemplo.com.br', 'sent',
               md5(g::text) || lpad(g::text, 8, '0'), now() - interval '80 hours', 1,
               case when g <= ${Math.floor(MESSAGES / 5)} then g % 2 end
          from generate_series(1, ${MESSAGES}::int) g`,
  );
  const [range] = await queryRows<{ first: number; test_last: number }>(
    db,
    sql`select min(id)::bigint as first, max(id) filter (where variant is not null)::bigint as test_last
          from messages where campaign_id = ${campaignId}`,
  );
  const firstId = Number(range?.first);
  await db.execute(
    sql`update campaign_sends set ab_test_last_message_id = ${Number(range?.test_last)} where campaign_id = ${campaignId}`,
  );
  const t0 = performance.now();
  for (let from = 1; from <= EVENTS; from += CHUNK) {
    const to = Math.min(from + CHUNK - 1, EVENTS);
    await db.execute(
      sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, link_id, bounce_kind,
                                      created_at)
          select ${firstId}::bigint + floor(x.m * ${MESSAGES})::bigint, ${campaignId}, ${accountId}, null, k.kind,
                 case k.kind when 'open' then x.r2 < 0.25 when 'click' then x.r2 < 0.1 else false end,
                 case when k.kind = 'click' then (${`{${linkIds.join(',')}}`}::int[])[1 + floor(x.r2 * ${LINKS})::int] end,
                 case when k.kind = 'bounce' then (array['hard', 'soft', 'policy'])[1 + floor(x.r2 * 3)::int] end,
                 now() - interval '75 hours' + (g::float8 / ${EVENTS}) * interval '72 hours'
            from generate_series(${from}::int, ${to}::int) g
           cross join lateral (select random() as m, random() as r, random() as r2, g as keep) x
           cross join lateral (select case when x.r < 0.6 then 'open' when x.r < 0.95 then 'click'
                                           when x.r < 0.97 then 'bounce' when x.r < 0.98 then 'complaint'
                                           else 'unsubscribe' end as kind) k`,
    );
  }
  const seedMs = performance.now() - t0;
  await db.execute(sql`analyze`);
  return { accountId, campaignId, testLast: Number(range?.test_last), seedMs };
}

async function main(): Promise<void> {
  const dbName = `carteiro_bench_report_${process.pid}`;
  await adminStatement(`create database ${dbName}`);
  const database = await openDatabase({ kind: 'postgres', url: benchDatabaseUrl(dbName), poolSize: 1 });
  try {
    await database.migrate();
    const db = database.db;
    const s = await seed(db);
    const [size] = await queryRows<{ firsts: number; counts: number; events_mb: number; firsts_mb: number }>(
      db,
      sql`select (select count(*) from message_event_firsts)::int as firsts,
                 (select count(*) from campaign_report_counts)::int as counts,
                 pg_total_relation_size('message_events') / 1048576 as events_mb,
                 pg_total_relation_size('message_event_firsts') / 1048576 as firsts_mb`,
    );
    console.info(
      `seeded ${fmt(MESSAGES)} messages, ${fmt(EVENTS)} events (${LINKS} links) in ${fmt(s.seedMs)} ms with the trigger ` +
        `folding them (${fmt(EVENTS / (s.seedMs / 1000))} events/s); rollup: ${fmt(Number(size?.firsts))} firsts ` +
        `(${size?.firsts_mb} MB), ${fmt(Number(size?.counts))} counter rows; message_events ${size?.events_mb} MB`,
    );

    for (let run = 1; run <= RUNS; run++) {
      const raw = await timed(() => rawCampaignEventCounts(db, s.campaignId));
      const rollup = await timed(() => campaignEventCounts(db, s.campaignId));
      const rawAb = await timed(() => rawAbVariantCounts(db, s.campaignId, s.testLast));
      const ab = await timed(() => abVariantStats(db, s.campaignId, 2, s.testLast));
      const same =
        JSON.stringify(raw.value) === JSON.stringify(rollup.value) &&
        JSON.stringify(rawAb.value) ===
          JSON.stringify(
            ab.value.map(({ index, uniqueOpens, uniqueClicks }) => ({ index, uniqueOpens, uniqueClicks })),
          );
      console.info(
        `run ${run}: report event counts raw ${fmt(raw.ms)} ms, rollup ${rollup.ms.toFixed(1)} ms; ` +
          `A/B variants raw ${fmt(rawAb.ms)} ms, firsts ${fmt(ab.ms)} ms; answers ${same ? 'equal' : 'DIFFER'} ` +
          `(${fmt(rollup.value.humanOpens)} unique opens, ${rollup.value.series.length} hours)`,
      );
    }

    // The tracking recorder's batches, trigger on and off, on the one connection whose backend CPU is read.
    const [backend] = await queryRows<{ pid: number }>(db, sql`select pg_backend_pid() as pid`);
    const pid = Number(backend?.pid);
    const tokens = (
      await queryRows<{ token: string }>(db, sql`select token from messages where campaign_id = ${s.campaignId}`)
    ).map((r) => r.token);
    const links = (
      await queryRows<{ id: number }>(db, sql`select id from campaign_links where campaign_id = ${s.campaignId}`)
    ).map((r) => Number(r.id));
    const recorder = new EventRecorder(db, {
      logger: pino({ level: 'silent' }),
      writeEngagementCounters,
      flushMs: 3_600_000,
      maxBatch: BATCH + 1,
      counterMs: 3_600_000,
    });
    const totals = { on: { cpu: 0, ms: 0 }, off: { cpu: 0, ms: 0 } };
    for (let i = 0; i < 2 * BATCHES; i++) {
      const mode = i % 2 === 0 ? 'on' : 'off';
      await db.execute(
        mode === 'on'
          ? sql`alter table message_events enable trigger message_events_report_rollup`
          : sql`alter table message_events disable trigger message_events_report_rollup`,
      );
      for (let j = 0; j < BATCH; j++) {
        const click = Math.random() < 0.35;
        recorder.record({
          messageToken: tokens[Math.floor(Math.random() * tokens.length)] as string,
          kind: click ? 'click' : 'open',
          linkId: click ? (links[Math.floor(Math.random() * links.length)] as number) : null,
          machine: Math.random() < 0.2,
          nonBrowser: false,
          userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/131.0',
          ip: '203.0.113.7',
          at: new Date(),
        });
      }
      const cpu0 = processCpuMicros(pid);
      const t0 = performance.now();
      await recorder.flush();
      totals[mode].ms += performance.now() - t0;
      totals[mode].cpu += processCpuMicros(pid) - cpu0;
    }
    await db.execute(sql`alter table message_events enable trigger message_events_report_rollup`);
    const per = (m: 'on' | 'off') =>
      `${fmt(totals[m].cpu / BATCHES / 1000)} ms CPU, ${fmt(totals[m].ms / BATCHES)} ms wall per batch ` +
      `(${(totals[m].cpu / BATCHES / BATCH).toFixed(1)} µs CPU per event)`;
    console.info(
      `recorder batch of ${fmt(BATCH)} events × ${BATCHES} each, alternating: trigger on ${per('on')}; off ${per('off')}`,
    );
  } finally {
    await database.close();
    if (process.env.BENCH_KEEP_DB === '1') console.info(`kept database ${dbName}`);
    else await adminStatement(`drop database if exists ${dbName} with (force)`);
  }
}

await main();
