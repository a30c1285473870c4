/**
 * The measure phase of bench/ten-million.ts, on a database its seed phase generated: each step through the real
 * code, timed, with the load average printed beside it (the box is shared).
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { type Db, openDatabase, queryRows } from '../server/src/db/database';
import { suppressedForStreamSql } from '../server/src/modules/contacts/suppression';
import { findImport, startImport, uploadImport } from '../server/src/modules/imports/import-files';
import { runImport } from '../server/src/modules/imports/run-import';
import { createList } from '../server/src/modules/lists/create-list';
import { campaignRecipients, campaignReport, campaignReportCsv } from '../server/src/modules/reports/reports';
import { sendTransactional } from '../server/src/modules/transactional/send-transactional';
import { measure as measureSegments } from './segments';

const IMPORT_ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 1_000_000);
const CSV_ROWS = Number(process.env.BENCH_CSV_ROWS ?? 0);
const SUPPRESSIONS = Number(process.env.BENCH_SUPPRESSIONS ?? 1_000_000);
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const MB = 1024 * 1024;
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

async function timed<T>(label: string, work: () => Promise<T>): Promise<T> {
  const start = performance.now();
  const result = await work();
  console.info(`${label}: ${fmt(performance.now() - start)} ms [load ${load()}]`);
  return result;
}

export async function measure(url: string): Promise<void> {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 4 });
  const db = database.db;
  const steps = (process.env.BENCH_STEPS ?? 'report,csv,suppression,segments,import,size').split(',');
  try {
    // The seed phase migrated the database; the measurements read it as it is.
    const [account] = await queryRows<{ id: string }>(db, sql`select id from accounts where owner_user_id = 'bench'`);
    const [big] = await queryRows<{ id: string }>(db, sql`select id from campaigns where name = 'Grande'`);
    const accountId = account?.id as string;
    const campaignId = big?.id as string;
    const [counts] = await queryRows<{ contacts: number; events: number; messages: number }>(
      db,
      sql`select (select count(*) from contacts)::int as contacts, (select count(*) from message_events)::bigint as events,
                 (select count(*) from messages)::int as messages`,
    );
    console.info(
      `ten-million: ${fmt(counts?.contacts ?? 0)} contacts, ${fmt(Number(counts?.events ?? 0))} message events, ` +
        `${fmt(counts?.messages ?? 0)} messages; ${os.cpus().length} CPUs, load ${load()}, Node ${process.version}`,
    );

    if (steps.includes('report')) {
      for (let i = 0; i < 3; i++) {
        await timed(`campaign report of "Grande" (run ${i + 1})`, () => campaignReport(db, accountId, campaignId));
      }
    }

    if (steps.includes('csv')) await csvExport(db, accountId, campaignId);

    if (steps.includes('suppression')) await suppressionCheck(db, accountId, campaignId);

    if (steps.includes('segments')) {
      // The segments bench's lists (its VIP and Inativos rows), once.
      await timed('segments: lists VIP (1 in 20) and Inativos (1 in 7) added', async () => {
        const have = await queryRows<{ n: number }>(
          db,
          sql`select count(*)::int as n from lists where account_id = ${accountId} and name in ('VIP', 'Inativos')`,
        );
        if ((have[0]?.n ?? 0) > 0) return;
        await db.execute(
          sql`insert into lists (account_id, name) values (${accountId}, 'VIP'), (${accountId}, 'Inativos')`,
        );
        await db.execute(
          sql`insert into list_memberships (list_id, contact_id, status)
              select l.id, c.id, case when l.name = 'Inativos' and c.n % 2 = 0 then 'unsubscribed' else 'subscribed' end
                from (select id, row_number() over () as n from contacts where account_id = ${accountId}) c
                join lists l on l.account_id = ${accountId}
                            and ((l.name = 'VIP' and c.n % 20 = 0) or (l.name = 'Inativos' and c.n % 7 = 0))`,
        );
        await db.execute(sql`vacuum analyze list_memberships`);
      });
      await measureSegments(db, accountId, 'segments at ten million');
    }

    if (steps.includes('import')) await importInto(db, accountId);

    if (steps.includes('size')) {
      const [size] = await queryRows<{ total: string }>(
        db,
        sql`select pg_size_pretty(pg_database_size(current_database())) as total`,
      );
      const tables = await queryRows<{ name: string; total: string; heap: string; indexes: string; rows: string }>(
        db,
        sql`select c.relname as name, pg_size_pretty(pg_total_relation_size(c.oid)) as total,
                   pg_size_pretty(pg_relation_size(c.oid)) as heap,
                   pg_size_pretty(pg_indexes_size(c.oid)) as indexes, c.reltuples::bigint::text as rows
              from pg_class c join pg_namespace n on n.oid = c.relnamespace
             where n.nspname = 'public' and c.relkind = 'r'
             order by pg_total_relation_size(c.oid) desc limit 10`,
      );
      console.info(`database size ${size?.total}`);
      for (const t of tables) {
        console.info(`  ${t.name}: ${t.total} (heap ${t.heap}, indexes ${t.indexes}), ~${fmt(Number(t.rows))} rows`);
      }
    }
  } finally {
    await database.close();
  }
}

/** The recipients CSV of the 10M-recipient campaign, streamed to nowhere: first byte, total, rows/s, peak RSS. */
async function csvExport(db: Db, accountId: string, campaignId: string): Promise<void> {
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 100);
  const start = performance.now();
  let first = 0;
  let bytes = 0;
  let lines = 0;
  const { rows } = await campaignReportCsv(db, accountId, campaignId);
  for await (const chunk of rows) {
    if (!first) first = performance.now() - start;
    bytes += Buffer.byteLength(chunk);
    for (let i = chunk.indexOf('\n'); i >= 0; i = chunk.indexOf('\n', i + 1)) lines++;
    // BENCH_CSV_ROWS: a prefix only (the consumer stops reading, as a client that goes away would).
    if (CSV_ROWS > 0 && lines - 1 >= CSV_ROWS) break;
  }
  const seconds = (performance.now() - start) / 1000;
  clearInterval(sampler);
  console.info(
    `recipients CSV of "Grande", streamed${CSV_ROWS > 0 ? ` (the first ${fmt(CSV_ROWS)} rows only)` : ''}: ${fmt(lines - 1)} rows, ` +
      `${fmt(bytes / MB)} MB, first bytes after ${fmt(first)} ms, ` +
      `in ${seconds.toFixed(1)} s (${fmt((lines - 1) / seconds)} rows/s), peak RSS ${fmt(peak / MB)} MB [load ${load()}]`,
  );
  // The export's pages deep in the campaign (its cursor is the message id): flat if each page costs the same.
  const [range] = await queryRows<{ lo: number; hi: number }>(
    db,
    sql`select min(id)::bigint as lo, max(id)::bigint as hi from messages where campaign_id = ${campaignId}`,
  );
  for (const at of [0.1, 0.5, 0.9]) {
    const cursor = Math.floor(Number(range?.lo) + at * (Number(range?.hi) - Number(range?.lo)));
    await timed(`  recipients page of 5,000 at ${at * 100} % of the campaign (cursor ${cursor})`, () =>
      campaignRecipients(db, accountId, campaignId, { cursor, limit: 5_000 }),
    );
  }
}

/**
 * The suppression check of the engine's claim (suppressedForStreamSql, one probe per message) with SUPPRESSIONS
 * addresses suppressed on the account: EXPLAIN ANALYZE of one 500-message batch's check, per message.
 */
async function suppressionCheck(db: Db, accountId: string, campaignId: string): Promise<void> {
  const [have] = await queryRows<{ n: number }>(
    db,
    sql`select count(*)::int as n from suppressions where account_id = ${accountId}`,
  );
  if ((have?.n ?? 0) < SUPPRESSIONS) {
    await timed(`suppressions: ${fmt(SUPPRESSIONS)} addresses of the account suppressed (1 in 10 contacts)`, () =>
      db.execute(
        sql`insert into suppressions (account_id, email_hash, reason)
            select ${accountId}::uuid, encode(sha256(convert_to(email, 'UTF8')), 'hex'), 'bounced'
              from (select email from contacts where account_id = ${accountId} order by id limit ${SUPPRESSIONS}) c
            on conflict do nothing`,
      ),
    );
    await db.execute(sql`vacuum analyze suppressions`);
  }
  const [range] = await queryRows<{ lo: number; hi: number }>(
    db,
    sql`select min(id)::bigint as lo, max(id)::bigint as hi from messages where campaign_id = ${campaignId}`,
  );
  // 20 batches spread over the whole campaign, whatever its size (a reduced run has fewer than 10M messages).
  const stride = Math.max(500, Math.floor((Number(range?.hi) - Number(range?.lo) - 499) / 19));
  const times: number[] = [];
  for (let i = 0; i < 20; i++) {
    const lo = Number(range?.lo) + i * stride;
    const plan = await queryRows<{ 'QUERY PLAN': string }>(
      db,
      sql`explain (analyze, timing off) select count(*) from messages m
           where m.campaign_id = ${campaignId} and m.id between ${lo} and ${lo + 499}
             and ${suppressedForStreamSql(sql`m.account_id`, sql`m.email`, 'marketing')}`,
    );
    const line = plan.map((p) => p['QUERY PLAN']).find((l) => l.startsWith('Execution Time')) ?? '';
    times.push(Number(/([\d.]+) ms/.exec(line)?.[1] ?? 0));
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] ?? 0;
  console.info(
    `suppression check of one 500-message batch (${fmt(SUPPRESSIONS)} suppressed on the account): median ${median.toFixed(2)} ms, ` +
      `${((median * 1000) / 500).toFixed(1)} µs per message (20 batches across the campaign) [load ${load()}]`,
  );
}

/** BENCH_IMPORT_ROWS new contacts into the 10M account through the real import path (upload → job). */
async function importInto(db: Db, accountId: string): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-10m-import-'));
  try {
    const file = path.join(dir, 'novos.csv');
    const out = fs.createWriteStream(file);
    out.write('email;nome;cidade\n');
    for (let i = 0; i < IMPORT_ROWS; i++) {
      if (!out.write(`novo${i}@importado${i % 89}.com.br;Novo ${i};Salvador\n`)) {
        await new Promise<void>((resolve) => out.once('drain', () => resolve()));
      }
    }
    await new Promise<void>((resolve) => out.end(() => resolve()));
    const list = await createList(db, accountId, { name: `Importados ${Date.now()}` });
    const start = performance.now();
    const up = await uploadImport(db, accountId, fs.createReadStream(file), 'novos.csv');
    await startImport(db, accountId, up.importId, {
      mapping: up.suggestedMapping,
      legalBasis: 'consent',
      consentSource: 'bench',
      updateExisting: false,
      listId: list.id,
    });
    await runImport(
      db,
      up.importId,
      {
        publicUrl: 'http://127.0.0.1:3000',
        secret: 'bench-secret-bench-secret-bench-secret-0',
        sendConfirmations: sendTransactional,
      },
      undefined,
      {},
    );
    const seconds = (performance.now() - start) / 1000;
    const progress = await findImport(db, accountId, up.importId);
    console.info(
      `import of ${fmt(IMPORT_ROWS)} new contacts into the 10M account: ${fmt(progress.inserted)} inserted in ${seconds.toFixed(1)} s, ` +
        `${fmt(progress.inserted / seconds)} rows/s [load ${load()}]`,
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
