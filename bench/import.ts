/**
 * npm run bench:import — generates a CSV of BENCH_ROWS rows (default 1,000,000) in a temp dir and imports it
 * through the real import path (inspect → batched upsert job) into PostgreSQL (BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test; a throwaway database is created) and into PGlite, printing rows/s,
 * peak RSS and the time of a contacts list page at that size.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase, queryRows } from '../server/src/db/database';
import { accounts } from '../server/src/modules/accounts/accounts.db';
import { findContacts } from '../server/src/modules/contacts/find-contacts';
import { findImport, startImport, uploadImport } from '../server/src/modules/imports/import-files';
import { runImport } from '../server/src/modules/imports/run-import';
import { createList } from '../server/src/modules/lists/create-list';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

let peakRss = 0;
let peakDetail = '';
const sampler = setInterval(() => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) {
    peakRss = m.rss;
    peakDetail = `heap ${Math.round(m.heapUsed / 1048576)}/${Math.round(m.heapTotal / 1048576)} MB, external ${Math.round(m.external / 1048576)} MB, arrayBuffers ${Math.round(m.arrayBuffers / 1048576)} MB`;
  }
}, 50);

async function generate(file: string) {
  const out = fs.createWriteStream(file);
  out.write('email;nome;cidade\n');
  const cities = ['São Paulo', 'Maceió', 'Conceição do Araguaia', 'Recife'];
  for (let i = 0; i < ROWS; i++) {
    const line = `pessoa${i}@exemplo${i % 97}.com.br;Pessoa ${i};${cities[i % 4]}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

async function bench(label: string, database: Database, file: string, dir: string) {
  await database.migrate();
  const [account] = await database.db
    .insert(accounts)
    .values({ uuid: crypto.randomUUID(), ownerUserId: 'bench', name: 'Bench' })
    .returning();
  if (!account) throw new Error('no account');
  const list = await createList(database.db, account.id, { name: 'Bench' });
  const before = process.memoryUsage();
  peakRss = before.rss;
  peakDetail = '';
  const t0 = performance.now();
  const up = await uploadImport(database.db, account.id, dir, fs.createReadStream(file), 'bench.csv');
  const t1 = performance.now();
  await startImport(database.db, account.id, up.importId, {
    mapping: up.suggestedMapping,
    legalBasis: 'consent',
    consentSource: 'bench',
    updateExisting: false,
    listId: list.id,
  });
  await runImport(database.db, up.importId, undefined, {
    batchSize: process.env.BENCH_BATCH ? Number(process.env.BENCH_BATCH) : undefined,
    concurrency: process.env.BENCH_CONCURRENCY ? Number(process.env.BENCH_CONCURRENCY) : undefined,
  });
  const seconds = (performance.now() - t0) / 1000;
  const jobSeconds = (performance.now() - t1) / 1000;
  const progress = await findImport(database.db, account.id, up.importId);
  if (progress.inserted !== ROWS) throw new Error(`expected ${ROWS} inserted, got ${JSON.stringify(progress)}`);
  const rss = peakRss;
  await queryRows(database.db, sql`analyze contacts`);
  await queryRows(database.db, sql`analyze list_memberships`);
  // A deep page: the cursor of the contact in the middle of the account (found outside the timing).
  const [middle] = await queryRows<{ cursor_at: string; id: string }>(
    database.db,
    sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
        from contacts where account_id = ${account.id} order by created_at desc, id desc offset ${Math.floor(ROWS / 2)} limit 1`,
  );
  const deepCursor = Buffer.from(`${middle?.cursor_at}|${middle?.id}`).toString('base64url');
  const time = async (fn: () => Promise<unknown>) => {
    await fn(); // warm
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const s0 = performance.now();
      await fn();
      runs.push(performance.now() - s0);
    }
    runs.sort((a, b) => a - b);
    return runs[2] as number; // median of 5
  };
  const first = await findContacts(database.db, account.id, { limit: 50 });
  const firstMs = await time(() => findContacts(database.db, account.id, { limit: 50 }));
  const nextMs = await time(() =>
    findContacts(database.db, account.id, { limit: 50, cursor: first.nextCursor ?? undefined }),
  );
  const deepMs = await time(() => findContacts(database.db, account.id, { limit: 50, cursor: deepCursor }));
  const searchMs = await time(() => findContacts(database.db, account.id, { limit: 50, search: 'pessoa99999' }));
  const nameMs = await time(() => findContacts(database.db, account.id, { limit: 50, search: 'pessoa 4242' }));
  const listMs = await time(() => findContacts(database.db, account.id, { limit: 50, listId: list.id }));
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  console.log(
    `${label}: ${progress.inserted} rows (into a list) in ${seconds.toFixed(1)} s = ${Math.round(ROWS / seconds)} rows/s ` +
      `(upload+inspect ${(seconds - jobSeconds).toFixed(1)} s, import job ${jobSeconds.toFixed(1)} s = ` +
      `${Math.round(ROWS / jobSeconds)} rows/s), peak RSS ${Math.round(rss / 1024 / 1024)} MB (${peakDetail}; RSS before the import ${Math.round(before.rss / 1048576)} MB)`,
  );
  console.log(
    `${label} list pages at ${ROWS} contacts (median of 5): first ${f(firstMs)}, page 2 ${f(nextMs)}, ` +
      `deep page (row ${Math.floor(ROWS / 2)}) ${f(deepMs)}, e-mail search ${f(searchMs)}, name search ${f(nameMs)}, ` +
      `list filter ${f(listMs)}`,
  );
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-bench-import-'));
  const file = path.join(dir, 'contacts.csv');
  await generate(file);
  console.log(`generated ${ROWS} rows, ${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MB`);
  try {
    const name = `carteiro_bench_${process.pid}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(PG_URL);
    url.pathname = `/${name}`;
    const database = await openDatabase({ kind: 'postgres', url: url.toString() });
    try {
      await bench('PostgreSQL', database, file, dir);
    } finally {
      await database.close();
      if (process.env.BENCH_KEEP_DB === '1') console.log(`kept database ${name}`);
      else await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
    if (process.env.BENCH_SKIP_PGLITE !== '1') {
      // On disk, as the embedded mode runs (an in-memory PGlite would hold the whole 1M-row database in RSS).
      const lite = await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'pglite') });
      try {
        await bench('PGlite', lite, file, dir);
      } finally {
        await lite.close();
      }
    }
  } finally {
    clearInterval(sampler);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
