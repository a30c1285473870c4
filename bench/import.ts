/**
 * npm run bench:import — generates a CSV of BENCH_ROWS rows (default 1,000,000) in a temp dir and imports it
 * through the real import path (upload + inspect → batched upsert job, into a list) into PostgreSQL
 * (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; a throwaway database is created) and
 * into PGlite (on disk), printing rows/s, peak RSS, the CPU time per row of Node and of the PostgreSQL backends,
 * and the time of contact list pages at that size.
 *
 * Each import runs in its own child process, as the production worker runs it: this file bundled with esbuild
 * (as server/build.mjs bundles the server) and started with plain `node`, so the peak RSS is that of a process
 * doing nothing but the import — not the CSV generator's garbage, and not tsx's loader (a second V8 isolate,
 * ~100 MB). The peak is the kernel's high-water mark (getrusage maxrss), not a sample.
 *
 * Env: BENCH_ROWS, BENCH_TYPED_FIELDS=1 (two more columns, a number and a date: custom fields segments type),
 * BENCH_SKIP_PGLITE=1, BENCH_SKIP_POSTGRES=1, BENCH_BATCH / BENCH_CONCURRENCY (the import's
 * batch size and batches in flight), BENCH_KEEP_DB=1 (keep the PostgreSQL database for EXPLAIN), BENCH_NODE_ARGS
 * (extra node flags for the child, e.g. `--cpu-prof`), BENCH_AUTO_EXPLAIN=<ms> (PostgreSQL: the plans of statements
 * slower than that, triggers' included, go to the server's log, through auto_explain).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase, queryRows } from '../server/src/db/database';
import { accounts } from '../server/src/modules/accounts/accounts.db';
import { findContacts } from '../server/src/modules/contacts/find-contacts';
import { findImport, startImport, uploadImport } from '../server/src/modules/imports/import-files';
import { runImport } from '../server/src/modules/imports/run-import';
import { createList } from '../server/src/modules/lists/create-list';
import { sendTransactional } from '../server/src/modules/transactional/send-transactional';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const MB = 1024 * 1024;
const TYPED_FIELDS = process.env.BENCH_TYPED_FIELDS === '1';

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

async function generate(file: string) {
  const out = fs.createWriteStream(file);
  out.write(TYPED_FIELDS ? 'email;nome;cidade;pontos;nascimento\n' : 'email;nome;cidade\n');
  const cities = ['São Paulo', 'Maceió', 'Conceição do Araguaia', 'Recife'];
  for (let i = 0; i < ROWS; i++) {
    // With BENCH_TYPED_FIELDS=1 each row also carries a number and a date custom field (what segments type).
    const typed = TYPED_FIELDS
      ? `;${i % 1000};${String((i % 28) + 1).padStart(2, '0')}/${String((i % 12) + 1).padStart(2, '0')}/${1950 + (i % 55)}`
      : '';
    const line = `pessoa${i}@exemplo${i % 97}.com.br;Pessoa ${i};${cities[i % 4]}${typed}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
}

/**
 * CPU seconds (user + system) of the local PostgreSQL server's processes, from /proc, sampled every 200 ms
 * (autovacuum workers come and go): `ours` = the backends and autovacuum workers of the bench database,
 * `shared` = walwriter, checkpointer and background writer (they serve every database on the server, so this is
 * an upper bound of the import's share). Null when PostgreSQL runs elsewhere (not measurable from here).
 */
type Kind = 'backends' | 'autovacuum' | 'shared';
function postgresCpuMeter(dbName: string) {
  const ticks = 100; // USER_HZ
  const start = new Map<number, number>();
  const last = new Map<number, { cpu: number; kind: Kind }>();
  const notPostgres = new Set<number>();
  let first = true;
  const sample = () => {
    for (const name of fs.readdirSync('/proc')) {
      const pid = Number(name);
      if (!Number.isInteger(pid) || notPostgres.has(pid)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
        if (!stat.includes('(postgres)')) {
          notPostgres.add(pid);
          continue;
        }
        const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
        const kind: Kind | null =
          cmd.includes(` ${dbName} `) || cmd.endsWith(` ${dbName}`)
            ? cmd.includes('autovacuum')
              ? 'autovacuum'
              : 'backends'
            : /walwriter|checkpointer|background writer/.test(cmd)
              ? 'shared'
              : null;
        if (!kind) continue;
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const cpu = (Number(f[11]) + Number(f[12])) / ticks;
        if (first) start.set(pid, cpu);
        last.set(pid, { cpu, kind });
      } catch {
        // the process ended between readdir and read
      }
    }
    first = false;
  };
  try {
    sample();
  } catch {
    return null; // no /proc: not measurable from here
  }
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      sample();
      const total = { backends: 0, autovacuum: 0, shared: 0 };
      for (const [pid, { cpu, kind }] of last) total[kind] += cpu - (start.get(pid) ?? 0);
      return last.size > 0 ? total : null;
    },
  };
}

/** The child: one import into one database, then the list pages; prints the figures. */
async function child(label: string, database: Database, file: string, dbName: string) {
  const [account] = await database.db
    .insert(accounts)
    .values({ uuid: crypto.randomUUID(), ownerUserId: 'bench', name: 'Bench' })
    .returning();
  if (!account) throw new Error('no account');
  const list = await createList(database.db, account.id, { name: 'Bench' });
  let peakSample = 0;
  let peakDetail = '';
  const sampler = setInterval(() => {
    const m = process.memoryUsage();
    if (m.rss > peakSample) {
      peakSample = m.rss;
      peakDetail = `heap ${Math.round(m.heapUsed / MB)}/${Math.round(m.heapTotal / MB)} MB, external ${Math.round(m.external / MB)} MB`;
    }
  }, 20);
  const rssBefore = process.memoryUsage().rss;
  const loadBefore = load();
  const meter = database.kind === 'postgres' ? postgresCpuMeter(dbName) : null;
  const cpuBefore = process.cpuUsage();
  const t0 = performance.now();
  const up = await uploadImport(database.db, account.id, fs.createReadStream(file), 'bench.csv');
  const t1 = performance.now();
  await startImport(database.db, account.id, up.importId, {
    mapping: up.suggestedMapping,
    legalBasis: 'consent',
    consentSource: 'bench',
    updateExisting: false,
    listId: list.id,
  });
  await runImport(
    database.db,
    up.importId,
    {
      publicUrl: 'http://127.0.0.1:3000',
      secret: 'bench-secret-bench-secret-bench-secret-0',
      sendConfirmations: sendTransactional,
    },
    undefined,
    {
      batchSize: process.env.BENCH_BATCH ? Number(process.env.BENCH_BATCH) : undefined,
      concurrency: process.env.BENCH_CONCURRENCY ? Number(process.env.BENCH_CONCURRENCY) : undefined,
    },
  );
  const t2 = performance.now();
  const cpu = process.cpuUsage(cpuBefore);
  const pgCpu = meter?.stop() ?? null;
  const maxRss = process.resourceUsage().maxRSS * 1024;
  clearInterval(sampler);
  const loadAfter = load();
  const seconds = (t2 - t0) / 1000;
  const jobSeconds = (t2 - t1) / 1000;
  const progress = await findImport(database.db, account.id, up.importId);
  if (progress.inserted !== ROWS || progress.percent !== 100) {
    throw new Error(`expected ${ROWS} inserted, got ${JSON.stringify(progress)}`);
  }
  const nodeUs = ((cpu.user + cpu.system) / ROWS).toFixed(1);
  const perRow = (seconds: number) => `${((seconds * 1e6) / ROWS).toFixed(1)} µs/row`;
  const backendUs = pgCpu
    ? `backends ${perRow(pgCpu.backends)} + autovacuum ${perRow(pgCpu.autovacuum)} (+ walwriter/checkpointer/bgwriter ${perRow(pgCpu.shared)}, shared with other databases)`
    : 'n/a';
  console.log(
    `${label}: ${progress.inserted} rows (into a list) in ${seconds.toFixed(1)} s = ${Math.round(ROWS / seconds)} rows/s ` +
      `(upload+inspect ${(seconds - jobSeconds).toFixed(1)} s, import job ${jobSeconds.toFixed(1)} s = ` +
      `${Math.round(ROWS / jobSeconds)} rows/s); peak RSS ${Math.round(maxRss / MB)} MB (RSS before the import ` +
      `${Math.round(rssBefore / MB)} MB; at the sampled peak: ${peakDetail}); CPU: Node ${nodeUs} µs/row, ` +
      `PostgreSQL (bench database) ${backendUs}; load average ${loadBefore} → ${loadAfter}`,
  );

  // No ANALYZE here: the pages are timed with the statistics the import left (it analyses what it grew).
  // A deep page: the cursor of the contact in the middle of the account (found outside the timing).
  const [middle] = await queryRows<{ cursor_at: string; id: string }>(
    database.db,
    sql`select id, to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as cursor_at
        from contacts where account_id = ${account.id}
        order by created_at desc nulls last, id desc nulls last offset ${Math.floor(ROWS / 2)} limit 1`,
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
  const pages = {
    first: await time(() => findContacts(database.db, account.id, { limit: 50 })),
    'page 2': await time(() =>
      findContacts(database.db, account.id, { limit: 50, cursor: first.nextCursor ?? undefined }),
    ),
    [`deep page (row ${Math.floor(ROWS / 2)})`]: await time(() =>
      findContacts(database.db, account.id, { limit: 50, cursor: deepCursor }),
    ),
    'e-mail search': await time(() => findContacts(database.db, account.id, { limit: 50, search: 'pessoa99999' })),
    'name search': await time(() => findContacts(database.db, account.id, { limit: 50, search: 'pessoa 4242' })),
    'unselective search': await time(() => findContacts(database.db, account.id, { limit: 50, search: 'pe' })),
    'list filter': await time(() => findContacts(database.db, account.id, { limit: 50, listId: list.id })),
    'status filter (none match)': await time(() =>
      findContacts(database.db, account.id, { limit: 50, status: 'unsubscribed' }),
    ),
  };
  console.log(
    `${label} list pages at ${ROWS} contacts (median of 5): ${Object.entries(pages)
      .map(([name, ms]) => `${name} ${ms.toFixed(1)} ms`)
      .join(', ')}`,
  );
}

async function childMain() {
  const file = process.env.BENCH_FILE as string;
  const dir = path.dirname(file);
  const kind = process.env.BENCH_CHILD;
  const database =
    kind === 'postgres'
      ? await openDatabase({ kind: 'postgres', url: process.env.BENCH_CHILD_URL as string })
      : await openDatabase({ kind: 'pglite', dataDir: path.join(dir, 'pglite') });
  try {
    // On disk for PGlite, as the embedded mode runs (in memory it would hold the 1M-row database in RSS).
    await database.migrate();
    await child(
      kind === 'postgres' ? 'PostgreSQL' : 'PGlite',
      database,
      file,
      kind === 'postgres' ? new URL(process.env.BENCH_CHILD_URL as string).pathname.slice(1) : '',
    );
  } finally {
    await database.close();
  }
}

/** Bundles this file for plain node, next to the built server (so node_modules and server/drizzle resolve). */
async function bundle(): Promise<string> {
  const { build } = await import('esbuild');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const outfile = path.resolve(here, '../server/dist/bench-import.mjs');
  await build({
    entryPoints: [fileURLToPath(import.meta.url)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@carteiro/shared': path.resolve(here, '../shared/src/index.ts') },
    logLevel: 'warning',
  });
  return outfile;
}

function runChild(script: string, env: Record<string, string>) {
  const nodeArgs = process.env.BENCH_NODE_ARGS ? process.env.BENCH_NODE_ARGS.split(' ') : [];
  const run = spawnSync(process.execPath, [...nodeArgs, script], { stdio: 'inherit', env: { ...process.env, ...env } });
  if (run.status !== 0) throw new Error(`bench child exited with ${run.status}`);
}

async function main() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-bench-import-'));
  const file = path.join(dir, 'contacts.csv');
  let script: string | null = null;
  try {
    await generate(file);
    console.log(`generated ${ROWS} rows, ${(fs.statSync(file).size / MB).toFixed(0)} MB; ${os.cpus().length} cores`);
    script = await bundle();
    if (process.env.BENCH_SKIP_POSTGRES !== '1') {
      const name = `carteiro_bench_${process.pid}`;
      const admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`create database ${name}`);
      if (process.env.BENCH_AUTO_EXPLAIN) {
        // The plans of the bench database's statements slower than that many ms, in the server's log.
        await admin.query(`alter database ${name} set session_preload_libraries = 'auto_explain'`);
        await admin.query(
          `alter database ${name} set auto_explain.log_min_duration = ${Number(process.env.BENCH_AUTO_EXPLAIN)}`,
        );
        await admin.query(`alter database ${name} set auto_explain.log_nested_statements = on`);
      }
      const url = new URL(PG_URL);
      url.pathname = `/${name}`;
      try {
        runChild(script, { BENCH_CHILD: 'postgres', BENCH_CHILD_URL: url.toString(), BENCH_FILE: file });
      } finally {
        if (process.env.BENCH_KEEP_DB === '1') console.log(`kept database ${name}`);
        else await admin.query(`drop database if exists ${name} with (force)`);
        await admin.end();
      }
    }
    if (process.env.BENCH_SKIP_PGLITE !== '1') runChild(script, { BENCH_CHILD: 'pglite', BENCH_FILE: file });
  } finally {
    if (script) fs.rmSync(script, { force: true });
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_CHILD) await childMain();
else await main();
