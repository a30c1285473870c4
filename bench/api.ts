/**
 * npm run bench:api — transactional sends through the public API, end to end (a benchmark, not a test):
 *
 *   BENCH_SINGLE=5000 BENCH_BATCHES=40 BENCH_CAMPAIGN_RECIPIENTS=20000 npx tsx bench/api.ts
 *
 * A throwaway PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test); the smtp
 * sink (bench/smtp-sink.ts, counts and discards; its lean kind unless BENCH_SINK=smtp-server) as a child process on
 * 127.0.0.1; one API process (the real buildApp on 127.0.0.1: Bearer key, rate limit, validation,
 * sendTransactional) and one worker process (the real SendingEngine, which also runs the transactional lanes). The
 * parent is the HTTP client (keep-alive; bench/lean-http.ts unless BENCH_CLIENT=node). The sink and the client
 * share the two cores with what they measure, so they are kept lean (docs/benchmarks.md, session 18).
 * 1. Campaign engine: a campaign of BENCH_CAMPAIGN_RECIPIENTS, from startCampaignSend to status sent.
 * 1b. Warm-up: BENCH_WARMUP_SENDS (5,000) untimed single sends, their accepted/s and API CPU per step of 1,000
 *    printed: the rows below measure a warm process, as a service that has been up for a while is.
 * 2. Single form: BENCH_SINGLE calls of POST /api/v1/messages, BENCH_HTTP_CONCURRENCY in flight: accepted/s,
 *    p50/p99 latency, and delivered/s (first call → last message recorded sent).
 *    2b. The single form again after BENCH_STREAM_HISTORY (200,000) done batches were added to the stream (a stream's
 *    past: batches are never deleted), as a ratio to 2 in the same run.
 * 3. Batch form: BENCH_BATCHES calls of POST /api/v1/messages/batch with 500 messages each: messages
 *    accepted/s, p50/p99 per call, delivered/s, and the ratio of delivered/s to the campaign engine's rate.
 * 4. Attachments: BENCH_ATTACHMENT_SENDS calls of POST /api/v1/messages, each with a 100 KB PDF (base64): the same
 *    figures as 2, and accepted/s as a ratio to the single form's in the same run.
 * The worker runs during 2–4, as in production (accepting and delivering at once on the same 2 cores).
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { type Database, openDatabase, queryRows } from '../server/src/db/database';
import { accounts } from '../server/src/modules/accounts/accounts.db';
import { campaigns } from '../server/src/modules/campaigns/campaigns.db';
import { startCampaignSend } from '../server/src/modules/campaigns/start-campaign-send';
import { createApiKey } from '../server/src/modules/public-api/api-keys';
import { trustSenderAddress } from '../server/src/modules/sender-identities/testing/trust-sender';
import { creditAccount } from '../server/src/modules/sending/testing/send-fixtures';
import { setTrackingSecret } from '../server/src/modules/tracking/tracking-token';
import { SendingEngine } from '../server/src/worker/sending-engine';
import { createPlatformMailer, createRelayTransport } from '../server/src/worker/sending-runtime';
import { LeanHttpClient } from './lean-http';

const SINGLE = Number(process.env.BENCH_SINGLE ?? 5000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const BATCH_SIZE = 500;
const CAMPAIGN_N = Number(process.env.BENCH_CAMPAIGN_RECIPIENTS ?? 20_000);
const HTTP_CONCURRENCY = Number(process.env.BENCH_HTTP_CONCURRENCY ?? 16);
const ATTACHMENT_SENDS = Number(process.env.BENCH_ATTACHMENT_SENDS ?? 1000);
const STREAM_HISTORY = Number(process.env.BENCH_STREAM_HISTORY ?? 200_000);
/**
 * Untimed single sends before phase 2, in steps of 1,000 whose rates are printed: the first thousands of sends after
 * a start run on a cold API process (its send path not yet optimised by V8) and would otherwise be most of phase 2.
 */
const WARMUP_SENDS = Number(process.env.BENCH_WARMUP_SENDS ?? 5000);
/** The single sends of phase 2b (the same messages as phase 2's). */
const HISTORY_SENDS = STREAM_HISTORY > 0 ? SINGLE : 0;
/** A 100 KB "nota fiscal" (random bytes behind a PDF header: incompressible, like a real scanned PDF). */
const PDF_100KB = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(100 * 1024 - 9)]).toString('base64');
const BATCH_CONCURRENCY = Number(process.env.BENCH_BATCH_CONCURRENCY ?? 2);
const LANES = Number(process.env.BENCH_CONCURRENCY ?? 4);
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const PUBLIC_URL = 'https://bench.carteiro.test';
const SECRET = 'bench-secret-bench-secret-bench-secret-0123';

/** A typical transactional message: ~2 KB of pt-BR HTML, merge data, 2 tracked links. */
const HTML = `<!doctype html><html><body style="font-family:Arial,sans-serif">
<h1>Olá, {{ contato.nome }}!</h1>
<p>Recebemos o seu pedido <strong>{{ pedido }}</strong> no valor de R$ {{ valor }}. Assim que o pagamento for
confirmado, enviaremos o código de rastreamento. Obrigado por comprar na {{ conta.nome }}.</p>
${'<p style="color:#333;line-height:1.5">Frete grátis para todo o Brasil, troca fácil em até 30 dias e atendimento em português, de segunda a sábado.</p>\n'.repeat(8)}
<p><a href="https://loja.exemplo.com.br/pedidos/{{ pedido }}">Acompanhar o pedido</a> ·
<a href="https://loja.exemplo.com.br/ajuda">Ajuda</a></p>
</body></html>`;

const messageBody = (i: number) => ({
  to: { email: `cliente${i}@exemplo${i % 97}.com.br`, name: `Cliente ${i}` },
  from: { email: 'pedidos@loja.exemplo.com.br', name: 'Loja Ação' },
  subject: 'Pedido {{ pedido }} recebido',
  html: HTML,
  data: { pedido: String(100000 + i), valor: '149,90' },
});

function senderSettings() {
  return {
    batchSize: 500,
    concurrency: LANES,
    ratePerRelay: 0,
    retryBaseSeconds: 60,
    retryMaxSeconds: 3600,
    retryWindowSeconds: 86_400,
    pauseAfterErrors: 5,
    leaseSeconds: 120,
    pollMs: 10,
    scheduleSweepSeconds: 3600,
    publicUrl: PUBLIC_URL,
    bounceDomain: 'bounces.carteiro.test',
    listIdDomain: 'carteiro.test',
  };
}

// ---------------------------------------------------------------------------------------------- children
async function workerChild(): Promise<void> {
  setTrackingSecret(SECRET);
  const database = await openDatabase({ kind: 'postgres', url: process.env.BENCH_DB as string, poolSize: LANES + 2 });
  const transport = createRelayTransport(`smtp://127.0.0.1:${process.env.BENCH_SINK_PORT}`, LANES);
  const sender = new SendingEngine({
    db: database.db,
    transports: [transport],
    mailer: null,
    logger: pino({ level: 'warn' }),
    settings: senderSettings(),
  });
  sender.start();
  process.on('message', async (msg: { type: string }) => {
    if (msg.type === 'exit') {
      await sender.stop();
      await transport.close();
      await database.close();
      process.exit(0);
    }
  });
  process.send?.({ type: 'ready' });
}

async function apiChild(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-bench-api-'));
  const config = loadConfig({
    NODE_ENV: 'production',
    DATA_DIR: tmp,
    LOG_LEVEL: 'warn',
    AUTH_SECRET: SECRET,
    PUBLIC_URL,
    DATABASE_URL: process.env.BENCH_DB as string,
    SMTP_URL: `smtp://127.0.0.1:${process.env.BENCH_SINK_PORT}`,
    API_RATE_LIMIT: '10000000',
    // Production refuses the development placeholder key.
    PIX_KEY: 'financeiro@loja.exemplo.com.br',
  });
  const database = await openDatabase({ kind: 'postgres', url: process.env.BENCH_DB as string, poolSize: 10 });
  const logger = pino({ level: 'warn' });
  const mailer = createPlatformMailer({
    config,
    db: database.db,
    smtpUrl: `smtp://127.0.0.1:${process.env.BENCH_SINK_PORT}`,
    logger,
  });
  const app = await buildApp({ config, database, mailer, logger, webDistDir: null });
  await app.listen({ host: '127.0.0.1', port: 0 });
  // Statements the API sent (one pool checkout each: its hot paths run no explicit transaction), for per-call counts.
  let statements = 0;
  database.pool?.on('acquire', () => {
    statements++;
  });
  process.on('message', async (msg: { type: string }) => {
    if (msg.type === 'statements') process.send?.({ type: 'statements', statements });
    if (msg.type === 'exit') {
      await app.close();
      await database.close();
      fs.rmSync(tmp, { recursive: true, force: true });
      process.exit(0);
    }
  });
  process.send?.({ type: 'ready', port: (app.server.address() as AddressInfo).port });
}

// ---------------------------------------------------------------------------------------------- parent
function ready(child: ChildProcess): Promise<{ port?: number }> {
  return new Promise((resolve) => child.once('message', (msg: { port?: number }) => resolve(msg)));
}

/** How many statements the API process has sent to PostgreSQL so far. */
function apiStatements(api: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    const onMessage = (msg: { type?: string; statements?: number }) => {
      if (msg.type !== 'statements') return;
      api.off('message', onMessage);
      resolve(msg.statements ?? 0);
    };
    api.on('message', onMessage);
    api.send({ type: 'statements' });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: Math.max(HTTP_CONCURRENCY, BATCH_CONCURRENCY) });

function post(port: number, url: string, secret: string, body: unknown): Promise<{ status: number; ms: number }> {
  return call(port, 'POST', url, secret, body);
}

/**
 * The HTTP client: the lean one (bench/lean-http.ts) unless BENCH_CLIENT=node — node:http, as the runs before
 * session 18 measured, whose own CPU (~146 µs a call) came off the two cores the API shares with it.
 */
const CLIENT = process.env.BENCH_CLIENT === 'node' ? 'node' : 'lean';
/** The relay's stand-in: the lean SMTP sink (bench/smtp-sink.ts) unless BENCH_SINK=smtp-server. */
const SINK = process.env.BENCH_SINK === 'smtp-server' ? 'smtp-server' : 'lean';
const leanClients = new Map<number, LeanHttpClient>();

async function call(
  port: number,
  method: 'GET' | 'POST',
  url: string,
  secret: string,
  body?: unknown,
): Promise<{ status: number; ms: number }> {
  const payload = body === undefined ? null : Buffer.from(JSON.stringify(body));
  const expected = method === 'POST' ? 201 : 200;
  if (CLIENT === 'lean') {
    let client = leanClients.get(port);
    if (!client) {
      client = new LeanHttpClient(port);
      leanClients.set(port, client);
    }
    const headers: Record<string, string> = payload
      ? { authorization: `Bearer ${secret}`, 'content-type': 'application/json' }
      : { authorization: `Bearer ${secret}` };
    const reply = await client.request(method, url, headers, payload);
    if (reply.status !== expected) {
      throw new Error(`${url}: ${reply.status} ${reply.body.toString().slice(0, 300)}`);
    }
    return { status: reply.status, ms: reply.ms };
  }
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: url,
        method,
        agent,
        headers: payload
          ? { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'content-length': payload.length }
          : { authorization: `Bearer ${secret}` },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          if (res.statusCode !== expected) {
            reject(new Error(`${url}: ${res.statusCode} ${Buffer.concat(chunks).toString().slice(0, 300)}`));
            return;
          }
          resolve({ status: res.statusCode, ms: performance.now() - t0 });
        });
      },
    );
    req.on('error', reject);
    req.end(payload ?? undefined);
  });
}

/** Runs `total` calls with `concurrency` in flight; returns each call's latency (ms) and the wall time (s). */
async function load(total: number, concurrency: number, call: (i: number) => Promise<{ ms: number }>) {
  const latencies: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        latencies.push((await call(i)).ms);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - t0) / 1000, t0 };
}

/**
 * CPU time (ms) used so far by each process of the run, from /proc (Linux): the parent (HTTP client), the API,
 * the worker, the sink, the PostgreSQL backends of the bench's database (their process title names it) and the
 * whole box (/proc/stat). A delta over a phase divided by its calls says where each call's CPU goes.
 */
interface CpuSnapshot {
  [who: string]: number;
}
const TICK_MS = 10; // USER_HZ = 100 on Linux
function procTicks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return 0;
  }
}
async function cpuSnapshot(
  pids: Record<string, number>,
  database: Database,
  dbName: string,
): Promise<CpuSnapshot | null> {
  if (!fs.existsSync('/proc/stat')) return null;
  const out: CpuSnapshot = {};
  for (const [who, pid] of Object.entries(pids)) out[who] = procTicks(pid) * TICK_MS;
  // The PostgreSQL backends of the bench's database, by the process they serve (PGAPPNAME of each child).
  const backends = await queryRows<{ pid: number; app: string }>(
    database.db,
    sql`select pid, application_name as app from pg_stat_activity where datname = ${dbName}`,
  );
  for (const backend of backends) {
    const who = `pg:${backend.app.replace(/^carteiro-bench-/, '') || 'client'}`;
    out[who] ??= 0;
    // Per backend (key `who#pid`): a backend that ends between two snapshots must not count negative.
    out[`${who}#${backend.pid}`] = procTicks(Number(backend.pid)) * TICK_MS;
  }
  const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
  const t = (cpu ?? '').trim().split(/\s+/).slice(1).map(Number);
  out['box busy'] = ((t[0] ?? 0) + (t[1] ?? 0) + (t[2] ?? 0) + (t[5] ?? 0) + (t[6] ?? 0) + (t[7] ?? 0)) * TICK_MS;
  out['box idle'] = ((t[3] ?? 0) + (t[4] ?? 0)) * TICK_MS;
  return out;
}
function cpuPerCall(before: CpuSnapshot | null, after: CpuSnapshot | null, calls: number): string {
  if (!before || !after) return 'CPU per call: n/a (no /proc)';
  const totals = new Map<string, number>();
  for (const key of Object.keys(after)) {
    const [who, pid] = key.split('#') as [string, string | undefined];
    const delta = pid === undefined && who.startsWith('pg:') ? 0 : (after[key] ?? 0) - (before[key] ?? 0);
    totals.set(who, (totals.get(who) ?? 0) + delta);
  }
  const parts = [...totals].map(([who, ms]) => `${who} ${((ms / calls) * 1000).toFixed(0)} µs`);
  return `CPU per call: ${parts.join(', ')}`;
}

const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function waitUntil(check: () => Promise<boolean>, timeoutMs = 600_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function main(): Promise<void> {
  const dbName = `carteiro_bench_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`create database ${dbName}`);
  await admin.end();
  const url = new URL(PG_URL);
  url.pathname = `/${dbName}`;
  const database: Database = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 4 });
  const sink = fork(new URL('./smtp-sink.ts', import.meta.url).pathname, ['0', SINK]);
  const children: ChildProcess[] = [sink];
  try {
    await database.migrate();
    const { port: sinkPort } = await ready(sink);
    const env = { ...process.env, BENCH_DB: url.toString(), BENCH_SINK_PORT: String(sinkPort) };
    const self = new URL(import.meta.url).pathname;
    // BENCH_PROFILE=1 → /tmp/carteiro-prof-{api,worker}; BENCH_PROFILE=/some/dir → /some/dir-{api,worker}.
    const profileDir = process.env.BENCH_PROFILE?.startsWith('/') ? process.env.BENCH_PROFILE : '/tmp/carteiro-prof';
    const execArgv = (role: string) =>
      process.env.BENCH_PROFILE
        ? [...process.execArgv, '--cpu-prof', `--cpu-prof-dir=${profileDir}-${role}`]
        : process.execArgv;
    const apiProcess = fork(self, ['api'], {
      env: { ...env, PGAPPNAME: 'carteiro-bench-api' },
      execArgv: execArgv('api'),
    });
    children.push(apiProcess);
    const { port: apiPort } = await ready(apiProcess);
    const worker = fork(self, ['worker'], {
      env: { ...env, PGAPPNAME: 'carteiro-bench-worker' },
      execArgv: execArgv('worker'),
    });
    children.push(worker);
    await ready(worker);
    const pids = {
      'client (bench)': process.pid,
      api: apiProcess.pid as number,
      worker: worker.pid as number,
      sink: sink.pid as number,
    };
    const cpu = () => cpuSnapshot(pids, database, dbName);
    console.log(
      `public API bench: ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' ',
        )}; 1 API process, 1 worker process × ${LANES} lanes, PostgreSQL, sink (${SINK}) on loopback, ${CLIENT} HTTP client; message ${Buffer.byteLength(HTML)} bytes of HTML, 2 tracked links + open pixel, DKIM off`,
    );

    const [account] = await database.db
      .insert(accounts)
      .values({
        uuid: crypto.randomUUID(),
        ownerUserId: 'bench',
        name: 'Loja Bench',
        address: 'Rua das Flores, 100',
        // The footer identity every send needs.
        legalName: 'Loja Bench Comércio Ltda.',
        taxId: '11.222.333/0001-81',
      })
      .returning();
    if (!account) throw new Error('no account');
    // Only a verified sender may send (the campaign's and the API messages' addresses).
    await trustSenderAddress(database.db, account.id, 'loja@loja.exemplo.com.br');
    await trustSenderAddress(database.db, account.id, 'pedidos@loja.exemplo.com.br');
    await creditAccount(
      database.db,
      account.id,
      5 * (CAMPAIGN_N + WARMUP_SENDS + SINGLE + HISTORY_SENDS + BATCHES * BATCH_SIZE + ATTACHMENT_SENDS) + 1000,
    );
    const key = await createApiKey(database.db, account.id, 'bench', { name: 'Bench', scope: 'full' });

    // 1. The campaign engine's rate, same worker, same sink.
    const [list] = await queryRows<{ id: string }>(
      database.db,
      sql`insert into lists (account_id, name) values (${account.id}, 'Bench') returning id`,
    );
    await database.db.execute(sql`insert into contacts (account_id, email, name)
      select ${account.id}, 'pessoa' || g || '@exemplo' || (g % 97) || '.com.br', 'Pessoa ' || g
        from generate_series(1, ${CAMPAIGN_N}) g`);
    await database.db.execute(sql`insert into list_memberships (list_id, contact_id)
      select ${list?.id}, id from contacts where account_id = ${account.id}`);
    await database.db.execute(sql`analyze`);
    const [campaign] = await database.db
      .insert(campaigns)
      .values({
        uuid: crypto.randomUUID(),
        createdBy: account.id,
        name: 'Bench',
        subject: 'Ofertas para {{ contato.nome }}',
        fromName: 'Loja Ação',
        fromEmail: 'loja@loja.exemplo.com.br',
        includeListIds: [list?.id as string],
        // The same message, its merge tags from the contact (campaign templates only know contact fields).
        template: HTML.replace(/\{\{ (pedido|valor) \}\}/g, '{{ contato.email }}').replace(
          '</body>',
          '<a href="{{ link_descadastro }}">Descadastrar</a></body>',
        ),
      })
      .returning();
    if (!campaign) throw new Error('no campaign');
    const c0 = performance.now();
    await startCampaignSend(database.db, account.id, campaign.id, null);
    await waitUntil(async () => {
      const [row] = await database.db
        .select({ status: campaigns.status })
        .from(campaigns)
        .where(eq(campaigns.id, campaign.id));
      return row?.status === 'sent';
    });
    const campaignRate = CAMPAIGN_N / ((performance.now() - c0) / 1000);
    console.log(`campaign engine: ${Math.round(campaignRate)} msg/s (${CAMPAIGN_N} recipients, send → status sent)`);

    const queuedLeft = async () => {
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from messages m join campaigns c on c.id = m.campaign_id
             where c.kind = 'transactional' and m.status = 'queued'`,
      );
      return Number(row?.n ?? 0) === 0;
    };

    // 0. The floor of an authenticated call on this box now: GET /api/v1/contacts (Bearer, rate limit, 1 query).
    const floorStatements = await apiStatements(apiProcess);
    const floorCpu = await cpu();
    const floor = await load(SINGLE, HTTP_CONCURRENCY, () =>
      call(apiPort as number, 'GET', '/api/v1/contacts?limit=1', key.secret),
    );
    const floorCpuAfter = await cpu();
    console.log(
      `floor   GET /api/v1/contacts (full key): ${Math.round(SINGLE / floor.seconds)} calls/s, p50 ${pct(floor.latencies, 50).toFixed(1)} ms, p99 ${pct(floor.latencies, 99).toFixed(1)} ms`,
    );

    console.log(`        ${cpuPerCall(floorCpu, floorCpuAfter, SINGLE)}`);
    const perCall = (from: number, to: number) => ((to - from) / SINGLE).toFixed(2);
    console.log(`        API statements per call: ${perCall(floorStatements, await apiStatements(apiProcess))}`);

    // 1b. The send path warmed up: the cold rate per step of 1,000, then the queue drained before phase 2.
    if (WARMUP_SENDS > 0) {
      const steps: string[] = [];
      const apiCpuSteps: string[] = [];
      for (let done = 0; done < WARMUP_SENDS; done += 1000) {
        const n = Math.min(1000, WARMUP_SENDS - done);
        const before = await cpu();
        if (process.env.BENCH_PROFILE)
          console.log(`warm-up step ${done} starts at ${process.hrtime.bigint() / 1000n} µs`);
        const step = await load(n, HTTP_CONCURRENCY, (i) =>
          post(apiPort as number, '/api/v1/messages', key.secret, messageBody(done + i)),
        );
        const after = await cpu();
        steps.push(String(Math.round(n / step.seconds)));
        // No /proc (cpu() null): "n/a", as cpuPerCall says.
        apiCpuSteps.push(
          before && after ? String(Math.round((((after.api ?? 0) - (before.api ?? 0)) * 1000) / n)) : 'n/a',
        );
      }
      await waitUntil(queuedLeft);
      console.log(
        `warm-up POST /api/v1/messages, untimed for the rows below: ${WARMUP_SENDS} calls from the API's start, ` +
          `accepted/s per 1,000 ${steps.join(' → ')}; API CPU µs per call ${apiCpuSteps.join(' → ')}`,
      );
    }

    // 2. Single form.
    const sendEntries = async () => {
      const [row] = await queryRows<{ n: number }>(
        database.db,
        sql`select count(*)::int as n from ledger_entries where account_id = ${account.id} and kind = 'send'`,
      );
      return Number(row?.n ?? 0);
    };
    const entriesBefore = await sendEntries();
    const singleStatements = await apiStatements(apiProcess);
    const singleCpu = await cpu();
    // Monotonic µs (the clock of --cpu-prof's samples): lets a profile be cut to the single form's phase.
    if (process.env.BENCH_PROFILE) console.log(`single phase starts at ${process.hrtime.bigint() / 1000n} µs`);
    const single = await load(SINGLE, HTTP_CONCURRENCY, (i) =>
      post(apiPort as number, '/api/v1/messages', key.secret, messageBody(i)),
    );
    const singleCpuAccepted = await cpu();
    const singleStatementsAfter = await apiStatements(apiProcess);
    if (process.env.BENCH_PROFILE) console.log(`single phase ends at ${process.hrtime.bigint() / 1000n} µs`);
    await waitUntil(queuedLeft);
    const singleCpuDelivered = await cpu();
    const singleDelivered = SINGLE / ((performance.now() - single.t0) / 1000);
    console.log(
      `single  POST /api/v1/messages: ${Math.round(SINGLE / single.seconds)} accepted/s (${SINGLE} calls, ${HTTP_CONCURRENCY} in flight), ` +
        `p50 ${pct(single.latencies, 50).toFixed(1)} ms, p99 ${pct(single.latencies, 99).toFixed(1)} ms; ` +
        `delivered ${Math.round(singleDelivered)} msg/s end to end`,
    );
    const groups = (await sendEntries()) - entriesBefore;
    console.log(
      `        group commits: ${groups} (${(SINGLE / Math.max(1, groups)).toFixed(1)} requests per commit on average)`,
    );
    console.log(`        accepting: ${cpuPerCall(singleCpu, singleCpuAccepted, SINGLE)}`);
    console.log(`        API statements per call: ${perCall(singleStatements, singleStatementsAfter)}`);
    console.log(`        until delivered: ${cpuPerCall(singleCpu, singleCpuDelivered, SINGLE)}`);

    // 2b. Single form again on a stream with a long past: batches are never deleted, and every commit looks for its
    // stream's newest one (BENCH_STREAM_HISTORY=0 leaves the row out).
    if (STREAM_HISTORY > 0) {
      const [stream] = await queryRows<{ id: string }>(
        database.db,
        sql`select id from campaigns where created_by = ${account.id} and kind = 'transactional' limit 1`,
      );
      // Done one-message batches below every real id: the newest batch stays the real one.
      await database.db.execute(
        sql`insert into message_batches (campaign_id, first_message_id, last_message_id, status, recorded_at)
            select ${stream?.id}::uuid, -g, -g, 'done', now() from generate_series(1, ${STREAM_HISTORY}::int) g`,
      );
      await database.db.execute(sql`analyze message_batches`);
      const again = await load(SINGLE, HTTP_CONCURRENCY, (i) =>
        post(apiPort as number, '/api/v1/messages', key.secret, messageBody(i)),
      );
      await waitUntil(queuedLeft);
      const againRate = SINGLE / again.seconds;
      console.log(
        `history POST /api/v1/messages on a stream with ${STREAM_HISTORY} past batches: ${Math.round(againRate)} accepted/s, ` +
          `p50 ${pct(again.latencies, 50).toFixed(1)} ms, p99 ${pct(again.latencies, 99).toFixed(1)} ms; ` +
          `${(againRate / (SINGLE / single.seconds)).toFixed(2)} × the single form's accepted/s`,
      );
    }

    // 3. Batch form.
    const batchCpu = await cpu();
    const batch = await load(BATCHES, BATCH_CONCURRENCY, (b) =>
      post(apiPort as number, '/api/v1/messages/batch', key.secret, {
        messages: Array.from({ length: BATCH_SIZE }, (_, j) => messageBody(SINGLE + b * BATCH_SIZE + j)),
      }),
    );
    const batchCpuAccepted = await cpu();
    await waitUntil(queuedLeft);
    const total = BATCHES * BATCH_SIZE;
    const batchDelivered = total / ((performance.now() - batch.t0) / 1000);
    console.log(
      `batch   POST /api/v1/messages/batch: ${Math.round(total / batch.seconds)} messages accepted/s (${BATCHES} calls × ${BATCH_SIZE}, ${BATCH_CONCURRENCY} in flight), ` +
        `p50 ${pct(batch.latencies, 50).toFixed(0)} ms, p99 ${pct(batch.latencies, 99).toFixed(0)} ms per call; ` +
        `delivered ${Math.round(batchDelivered)} msg/s end to end = ${(batchDelivered / campaignRate).toFixed(2)} × the campaign engine`,
    );
    console.log(`        accepting, per message: ${cpuPerCall(batchCpu, batchCpuAccepted, total)}`);
    // 4. Attachments (BENCH_ATTACHMENT_SENDS=0 leaves the row out).
    if (ATTACHMENT_SENDS > 0) {
      const attachmentCpu = await cpu();
      const withFile = await load(ATTACHMENT_SENDS, HTTP_CONCURRENCY, (i) =>
        post(apiPort as number, '/api/v1/messages', key.secret, {
          ...messageBody(SINGLE + total + i),
          attachments: [{ filename: `nota-${i}.pdf`, content: PDF_100KB }],
        }),
      );
      const attachmentCpuAccepted = await cpu();
      await waitUntil(queuedLeft);
      const attachmentDelivered = ATTACHMENT_SENDS / ((performance.now() - withFile.t0) / 1000);
      const attachmentAccepted = ATTACHMENT_SENDS / withFile.seconds;
      console.log(
        `attach  POST /api/v1/messages + 100 KB PDF: ${Math.round(attachmentAccepted)} accepted/s (${ATTACHMENT_SENDS} calls, ${HTTP_CONCURRENCY} in flight), ` +
          `p50 ${pct(withFile.latencies, 50).toFixed(1)} ms, p99 ${pct(withFile.latencies, 99).toFixed(1)} ms; ` +
          `delivered ${Math.round(attachmentDelivered)} msg/s end to end; ` +
          `${(attachmentAccepted / (SINGLE / single.seconds)).toFixed(2)} × the single form's accepted/s`,
      );
      console.log(`        accepting, per call: ${cpuPerCall(attachmentCpu, attachmentCpuAccepted, ATTACHMENT_SENDS)}`);
    }
    const [check] = await queryRows<{ sent: number; balance: number; expected: number }>(
      database.db,
      sql`select (select count(*)::int from messages m join campaigns c on c.id = m.campaign_id
                   where c.kind = 'transactional' and m.status = 'sent') as sent,
                 (select balance_millis from accounts where id = ${account.id}) as balance,
                 (select sum(amount_millis) from ledger_entries where account_id = ${account.id}) as expected`,
    );
    console.log(
      `check: ${check?.sent} transactional messages sent (expected ${WARMUP_SENDS + SINGLE + HISTORY_SENDS + total + ATTACHMENT_SENDS}); balance ${check?.balance} = ledger sum ${check?.expected}`,
    );
  } finally {
    for (const c of children) c.send({ type: 'exit' });
    await new Promise((r) => setTimeout(r, 500));
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    agent.destroy();
    for (const client of leanClients.values()) client.close();
    await database.close();
    const cleanup = new pg.Client({ connectionString: PG_URL });
    await cleanup.connect();
    if (process.env.BENCH_KEEP_DB) console.log(`kept database ${dbName}`);
    else await cleanup.query(`drop database if exists ${dbName} with (force)`);
    await cleanup.end();
  }
}

if (process.argv[2] === 'worker') await workerChild();
else if (process.argv[2] === 'api') await apiChild();
else await main();
