/**
 * npm run bench:tracking — the public tracking endpoints under load (a benchmark, not a test):
 *
 *   BENCH_MESSAGES=10000 BENCH_DURATION=10 BENCH_CONNECTIONS=50 npm run bench:tracking
 *
 * 1. Creates a throwaway PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test;
 *    dropped at the end, kept with BENCH_KEEP_DB=1) — or, with BENCH_DB=pglite, an embedded PGlite data directory
 *    — migrates it and seeds an account, a sent campaign with BENCH_LINKS tracked links and BENCH_MESSAGES sent
 *    messages with random 40-hex tokens (as the sending engine writes them).
 * 2. Starts the production process, `node server/dist/main.js api` (rebuilt first when server/src or shared/src
 *    is newer; BENCH_NO_BUILD=1 skips that), with NODE_ENV=production on a free 127.0.0.1 port, its JSON logs
 *    written to a file as a log shipper would read them.
 * 3. In a second process (so the load generator does not share the server's event loop), runs autocannon
 *    against GET /o/<token>.gif and GET /c/<token>, each request drawing a genuine signed token of one of the
 *    messages (and links) at random, with browser user agents: BENCH_WARMUP s of warm-up, then BENCH_DURATION s
 *    measured with BENCH_CONNECTIONS keep-alive connections.
 * 4. Prints requests/s, p50/p97.5/p99/max latency, status classes and errors, and the server's CPU time per
 *    request (from /proc), then checks that every answered request became exactly one event: the count the
 *    server itself reports on /metrics (carteiro_http_requests_total) against the rows in message_events —
 *    while running (after the batch flush interval, PostgreSQL only) and after a SIGTERM (graceful shutdown
 *    must flush the last batch) — and that campaigns.opened_count/clicked_count match the distinct messages.
 *
 * Other knobs: BENCH_REPORT_ROLLUP=off (the campaign report's rollup trigger on message_events disabled: what a
 * batch cost before it; the campaign counters' check then fails, as they are read from the rollup),
 * BENCH_TARGETS=pixel,click, BENCH_LOG_LEVEL (server LOG_LEVEL, default info), BENCH_PROFILE=<dir>
 * (the server runs with --cpu-prof into that directory), BENCH_SERVER_BUNDLE=<path/main.js> (another build, e.g.
 * an older commit's, for an A/B run under the same conditions).
 */
import { type ChildProcess, execFileSync, fork, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { type Database, openDatabase, queryRows } from '../server/src/db/database';
import { setTrackingSecret, signTrackingToken } from '../server/src/modules/tracking/tracking-token';
import { seedSentCampaign } from './seed-sent-campaign';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const N = Number(process.env.BENCH_MESSAGES ?? 10_000);
const LINKS = Number(process.env.BENCH_LINKS ?? 10);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const KIND: 'postgres' | 'pglite' = process.env.BENCH_DB === 'pglite' ? 'pglite' : 'postgres';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TARGETS = (process.env.BENCH_TARGETS ?? 'pixel,click').split(',') as Array<'pixel' | 'click'>;
const AUTH_SECRET = 'bench-secret-bench-secret-bench-secret-0123456789';
const ROLLUP = process.env.BENCH_REPORT_ROLLUP !== 'off';
const FLUSH_MS = 200; // TRACKING_FLUSH_MS default, which the server runs with
const USER_AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148',
  'Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)',
  'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36',
];

// ------------------------------------------------------------------------------------------ load generator
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p50: number; p97_5: number; p99: number; max: number; average: number };
  '1xx': number;
  '2xx': number;
  '3xx': number;
  '4xx': number;
  '5xx': number;
  errors: number;
  timeouts: number;
  duration: number;
}
interface RequestParams {
  path: string;
  headers: Record<string, string>;
}
type Autocannon = (
  options: {
    url: string;
    connections: number;
    duration: number;
    requests: Array<{ method: string; setupRequest: (request: RequestParams) => RequestParams }>;
  },
  done: (error: Error | null, result: AutocannonResult) => void,
) => unknown;

interface LoadJob {
  url: string;
  pathsFile: string;
  duration: number;
  connections: number;
}
type LoadReply = { result: AutocannonResult; cpuMicros: number };

async function loadChild(): Promise<void> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  process.on('message', (job: LoadJob) => {
    const paths = JSON.parse(fs.readFileSync(job.pathsFile, 'utf8')) as string[];
    let i = 0;
    const cpu0 = process.cpuUsage();
    autocannon(
      {
        url: job.url,
        connections: job.connections,
        duration: job.duration,
        requests: [
          {
            method: 'GET',
            setupRequest: (request) => {
              // Random message (and link), not a round-robin: the server cannot lean on a hot cache line.
              request.path = paths[Math.floor(Math.random() * paths.length)] as string;
              request.headers = { ...request.headers, 'user-agent': USER_AGENTS[i++ % USER_AGENTS.length] as string };
              return request;
            },
          },
        ],
      },
      (error, result) => {
        if (error) throw error;
        const cpu = process.cpuUsage(cpu0);
        process.send?.({ result, cpuMicros: cpu.user + cpu.system } satisfies LoadReply);
      },
    );
  });
  process.send?.({ ready: true });
}

// ------------------------------------------------------------------------------------------------ helpers
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full));
    else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** The server's CPU time (user + system) in µs, from /proc (Linux). */
function processCpuMicros(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1e6) / 100; // USER_HZ is 100 on Linux
  } catch {
    return Number.NaN;
  }
}

/** CPU (µs) of each PostgreSQL backend serving the bench database (same host, from /proc); empty on PGlite. */
async function backendCpu(dbName: string): Promise<Map<number, number>> {
  if (KIND !== 'postgres') return new Map();
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  const { rows } = await client.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [dbName]);
  await client.end();
  return new Map(rows.map((r) => [r.pid, processCpuMicros(r.pid)]));
}

/** CPU the backends used between two samples; backends that exited in between are lost (a lower bound then). */
function backendCpuDelta(before: Map<number, number>, after: Map<number, number>): { micros: number; exact: boolean } {
  let micros = 0;
  for (const [pid, cpu] of after) micros += cpu - (before.get(pid) ?? 0);
  return { micros, exact: [...before.keys()].every((pid) => after.has(pid)) };
}

function loadAverage(): string {
  return os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Requests the server says it answered on a route with a status, from its own Prometheus counters. */
async function servedCount(base: string, route: string, status: number): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  let total = 0;
  for (const line of text.split('\n')) {
    if (!line.startsWith('carteiro_http_requests_total{')) continue;
    if (line.includes(`route="${route}"`) && line.includes(`status="${status}"`)) {
      total += Number(line.slice(line.lastIndexOf(' ') + 1));
    }
  }
  return total;
}

async function eventCounts(db: Database['db']) {
  const rows = await queryRows<{ kind: string; n: number; messages: number; human_messages: number }>(
    db,
    sql`select kind, count(*)::int as n, count(distinct message_id)::int as messages,
               count(distinct message_id) filter (where not machine)::int as human_messages
          from message_events group by kind`,
  );
  const by = (kind: string) => rows.find((r) => r.kind === kind) ?? { n: 0, messages: 0, human_messages: 0 };
  const [campaign] = await queryRows<{ opened_count: number; clicked_count: number }>(
    db,
    sql`select opened_count, clicked_count from campaigns limit 1`,
  );
  return { open: by('open'), click: by('click'), campaign };
}

// ----------------------------------------------------------------------------------------------------- main
async function seed(database: Database): Promise<{ pixel: string[]; click: string[] }> {
  const db = database.db;
  const { accountId, campaignId, linkIds } = await seedSentCampaign(db, {
    name: 'Bench tracking',
    recipients: N,
    links: LINKS,
    linkSuffix: '?utm_source=carteiro&utm_campaign=bench',
  });
  const messages = await queryRows<{ token: string }>(
    db,
    sql`insert into messages (campaign_id, account_id, contact_id, email, status, token, sent_at, attempts)
        select ${campaignId}, ${accountId}, gen_random_uuid(), 'pessoa' || g || '@exemplo.com.br', 'sent',
               md5(random()::text) || substr(md5(g::text), 1, 8), now() - interval '1 hour', 1
          from generate_series(1, ${N}) g returning token`,
  );
  await db.execute(sql`analyze`);
  setTrackingSecret(AUTH_SECRET);
  return {
    pixel: messages.map((m) => `/o/${signTrackingToken(m.token, 0)}.gif`),
    click: messages.map((m, i) => `/c/${signTrackingToken(m.token, linkIds[(i * 7) % linkIds.length] as number)}`),
  };
}

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-bench-tracking-'));
  const dbName = `carteiro_bench_tracking_${randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(PG_URL);
  dbUrl.pathname = `/${dbName}`;
  const dataDir = path.join(tmp, 'data');
  let server: ChildProcess | null = null;
  let exited: Promise<number | null> = Promise.resolve(null);
  let load: ChildProcess | null = null;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: PG_URL });
    await client.connect();
    await client.query(statement);
    await client.end();
  };
  const open = () =>
    openDatabase(
      KIND === 'postgres' ? { kind: 'postgres', url: dbUrl.toString(), poolSize: 2 } : { kind: 'pglite', dataDir },
    );
  try {
    const bundle = process.env.BENCH_SERVER_BUNDLE ?? path.join(ROOT, 'server/dist/main.js');
    const sources = Math.max(newestMtime(path.join(ROOT, 'server/src')), newestMtime(path.join(ROOT, 'shared/src')));
    const stale = !fs.existsSync(bundle) || fs.statSync(bundle).mtimeMs < sources;
    if (!process.env.BENCH_NO_BUILD && !process.env.BENCH_SERVER_BUNDLE && stale) {
      console.info('server/dist/main.js is older than the sources: npm run build -w server');
      execFileSync('npm', ['run', 'build', '-w', 'server'], { cwd: ROOT, stdio: 'inherit' });
    }

    if (KIND === 'postgres') await admin(`create database ${dbName}`);
    const t0 = performance.now();
    let database = await open();
    await database.migrate();
    // The campaign report's rollup trigger off: the recorder's batches as they were before it (a before/after
    // of the trigger's cost on the same tree and database).
    if (!ROLLUP)
      await database.db.execute(sql`alter table message_events disable trigger message_events_report_rollup`);
    const tokens = await seed(database);
    await database.close();
    console.info(
      `server ${path.relative(ROOT, bundle)}; seeded ${fmt(N)} sent messages, ${LINKS} links (${KIND}) in ${fmt(performance.now() - t0)} ms; ` +
        `${os.cpus().length} CPUs, Node ${process.version}; report rollup trigger ${ROLLUP ? 'on' : 'off'}`,
    );

    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const logFile = path.join(tmp, 'server.log');
    const logFd = fs.openSync(logFile, 'w');
    const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : [];
    server = spawn(process.execPath, [...profile, bundle, 'api'], {
      cwd: ROOT,
      stdio: ['ignore', logFd, logFd],
      env: {
        PATH: process.env.PATH,
        NODE_ENV: 'production',
        AUTH_SECRET,
        HOST: '127.0.0.1',
        PORT: String(port),
        PUBLIC_URL: base,
        DATA_DIR: dataDir,
        ...(KIND === 'postgres' ? { DATABASE_URL: dbUrl.toString() } : {}),
        MAIL_CATCHER: 'off',
        SMTP_URL: 'smtp://127.0.0.1:9',
        BOUNCE_SMTP_PORT: '0',
        // Production refuses the development placeholder Pix key (config.ts); the bench takes no top-ups.
        PIX_KEY: 'financeiro@loja.exemplo.com.br',
        LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      },
    });
    const serverPid = server.pid as number;
    const child = server;
    exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    for (let i = 0; ; i++) {
      try {
        if ((await fetch(`${base}/readyz`)).ok) break;
      } catch {}
      if (i > 300 || server.exitCode !== null)
        throw new Error(`server did not start:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
      await sleep(100);
    }

    load = fork(fileURLToPath(import.meta.url), ['load'], { execArgv: process.execArgv });
    await new Promise((resolve) => load?.once('message', resolve));
    const runLoad = (job: LoadJob) =>
      new Promise<LoadReply>((resolve) => {
        load?.once('message', (reply: LoadReply) => resolve(reply));
        load?.send(job);
      });

    const rows: string[] = [];
    const verdicts: string[] = [];
    for (const target of TARGETS) {
      const pathsFile = path.join(tmp, `${target}.json`);
      fs.writeFileSync(pathsFile, JSON.stringify(tokens[target]));
      const route = target === 'pixel' ? '/o/:token' : '/c/:token';
      const okStatus = target === 'pixel' ? 200 : 302;
      if (WARMUP > 0) await runLoad({ url: base, pathsFile, duration: WARMUP, connections: CONNECTIONS });
      const load0 = loadAverage();
      const cpu0 = processCpuMicros(serverPid);
      const pgCpu0 = await backendCpu(dbName);
      const { result: r, cpuMicros: loadCpu } = await runLoad({
        url: base,
        pathsFile,
        duration: DURATION,
        connections: CONNECTIONS,
      });
      const serverCpu = processCpuMicros(serverPid) - cpu0;
      await sleep(FLUSH_MS * 3 + 300); // the last batch is written
      const pgDelta = backendCpuDelta(pgCpu0, await backendCpu(dbName));
      const pgCpu = KIND === 'postgres' ? pgDelta.micros : Number.NaN;
      const pgNote = pgDelta.exact ? '' : ' (lower bound: a connection closed)';
      const load1 = loadAverage();
      const answered = r['2xx'] + r['3xx'];
      console.info(
        `\n${target === 'pixel' ? 'GET /o/<token>.gif (open pixel)' : 'GET /c/<token> (click redirect)'}: ` +
          `${DURATION} s, ${CONNECTIONS} connections, ${fmt(tokens[target].length)} distinct tokens\n` +
          `  requests/s ${fmt(r.requests.average)} (total ${fmt(r.requests.total)})\n` +
          `  latency ms: p50 ${r.latency.p50}, p97.5 ${r.latency.p97_5}, p99 ${r.latency.p99}, max ${r.latency.max}, mean ${r.latency.average}\n` +
          `  2xx ${fmt(r['2xx'])}, 3xx ${fmt(r['3xx'])}, 4xx ${r['4xx']}, 5xx ${r['5xx']}, errors ${r.errors}, timeouts ${r.timeouts}\n` +
          `  server CPU ${(serverCpu / 1000).toFixed(0)} ms = ${(serverCpu / answered).toFixed(0)} µs/request; ` +
          `load generator CPU ${(loadCpu / answered).toFixed(0)} µs/request; ` +
          `PostgreSQL backends CPU ${Number.isNaN(pgCpu) ? 'n/a (PGlite is inside the server)' : `${(pgCpu / answered).toFixed(0)} µs/request${pgNote}`}; ` +
          `load average ${load0} → ${load1}`,
      );
      const met = r.requests.average >= 5_000 && r.latency.p99 < 20;
      verdicts.push(
        `${target} ${met ? 'meets' : 'misses'} the target (≥ 5,000 req/s, p99 < 20 ms) at load average ${load1.split(' ')[0]}`,
      );
      rows.push(
        `| ${target} | ${fmt(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.latency.max} | ` +
          `${r['4xx'] + r['5xx'] + r.errors + r.timeouts} | ${(serverCpu / answered).toFixed(0)} | ` +
          `${Number.isNaN(pgCpu) ? 'n/a' : `${pgDelta.exact ? '' : '≥ '}${(pgCpu / answered).toFixed(0)}`} | ${load1.split(' ')[0]} |`,
      );

      // Every answered request must become one event once the batch is flushed (FLUSH_MS) — checked live on
      // PostgreSQL (PGlite belongs to the server process until it stops).
      const served = await servedCount(base, route, okStatus);
      if (KIND === 'postgres') {
        const live = await open();
        const counts = await eventCounts(live.db);
        await live.close();
        const recorded = counts[target === 'pixel' ? 'open' : 'click'].n;
        console.info(
          `  check (live, ${FLUSH_MS * 3 + 300} ms after the load): server answered ${fmt(served)} ${okStatus}s on ${route} ` +
            `(warm-up included), message_events has ${fmt(recorded)} ${target === 'pixel' ? 'opens' : 'clicks'} → ` +
            `${served === recorded ? 'OK' : 'MISMATCH'}`,
        );
      }
    }

    // Graceful shutdown must flush what is still queued and refresh the campaign counters.
    const servedOpens = TARGETS.includes('pixel') ? await servedCount(base, '/o/:token', 200) : 0;
    const servedClicks = TARGETS.includes('click') ? await servedCount(base, '/c/:token', 302) : 0;
    const tStop = performance.now();
    server.kill('SIGTERM');
    const code = await exited;
    console.info(`\nSIGTERM → exit ${code} in ${fmt(performance.now() - tStop)} ms`);
    server = null;
    database = await open();
    const counts = await eventCounts(database.db);
    await database.close();
    const ok =
      counts.open.n === servedOpens &&
      counts.click.n === servedClicks &&
      counts.campaign?.opened_count === counts.open.human_messages &&
      counts.campaign?.clicked_count === counts.click.human_messages;
    console.info(
      `check (after shutdown): opens answered ${fmt(servedOpens)} / recorded ${fmt(counts.open.n)}; ` +
        `clicks answered ${fmt(servedClicks)} / recorded ${fmt(counts.click.n)}; ` +
        `campaign opened_count ${counts.campaign?.opened_count} (distinct human ${counts.open.human_messages}), ` +
        `clicked_count ${counts.campaign?.clicked_count} (distinct human ${counts.click.human_messages}) → ${ok ? 'OK' : 'MISMATCH'}`,
    );
    const logBytes = fs.statSync(logFile).size;
    console.info(`server log: ${fmt(logBytes)} bytes (${logFile})`);
    console.info(
      `\n| endpoint | req/s | p50 ms | p99 ms | max ms | failed | server µs/req | PostgreSQL µs/req | load avg |\n|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}`,
    );
    console.info(verdicts.join('\n'));
    if (!ok) process.exitCode = 1;
  } finally {
    load?.kill();
    if (server) {
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGTERM');
      await exited;
    }
    if (KIND === 'postgres' && !process.env.BENCH_KEEP_DB) {
      await admin(`drop database if exists ${dbName} with (force)`).catch((error) => console.error(error));
    }
    if (!process.env.BENCH_KEEP_DB) fs.rmSync(tmp, { recursive: true, force: true });
  }
}

if (process.argv[2] === 'load') void loadChild();
else
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
