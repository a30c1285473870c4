/**
 * npm run bench:send — the sending engine end to end (a benchmark, not a test):
 *
 *   BENCH_RECIPIENTS=100000 npm run bench:send
 *
 * Creates a throwaway PostgreSQL database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test),
 * an account with N contacts in one list, and for each scenario (BENCH_SCENARIOS, below: a DKIM mode, sender
 * processes, signing threads per process) a campaign with a ~6 KB pt-BR template (merge tags in subject and body,
 * 10 links). The smtp sink (bench/smtp-sink.ts, counts and discards) runs as a child process on 127.0.0.1; the
 * scenario's sender processes each run the real SendingEngine against the database, with a DKIM signing pool of
 * the scenario's threads (0 = signing on the engine's thread). Mode `dual` signs with Ed25519 and RSA-2048.
 * Prints messages/s from "send" (startCampaignSend: snapshot + reservation) to "last message accepted and
 * recorded" (campaign status sent, settled), CPU µs per message of the senders (and of the sink), the senders'
 * peak RSS (RSS once ready, and the main thread's heap and buffers at the peak; the bar: ≤ 400 MB per sender
 * process, its signing threads included), and the sink's raw acceptance rate with the pipelining SmtpPool
 * measured in the same run. The sender processes run as production runs the worker: bundled with esbuild like
 * server/build.mjs (the signing threads as their own compiled entry) and started with plain node;
 * BENCH_SENDER=source runs them from source under tsx instead (tsx's loader then weighs on the main thread and
 * again on every signing thread: ~170 MB more at two threads). BENCH_PROGRESS_SECONDS=30 prints every 30 s the
 * messages sent so far and the senders' peak RSS so far (a long run stopped early still tells how memory went).
 * First it prints the single-thread CPU cost of each stage of building a message (BENCH_STAGES_ONLY=1: only that).
 * Mode `domain`: no platform key; the From's verified sender domain signs with its own RSA-2048 key,
 * chosen per message's From domain by the engine (sender-identities/sender-signing.ts, decrypted once and cached
 * per domain) — compare it with `rsa-sha256`, the single platform key.
 * BENCH_TRACKING_DOMAIN=on (mode `domain`): the domain's tracking CNAME is found, so the links of every message are
 * on links.<domain> instead of PUBLIC_URL (resolved with the signing, once per campaign).
 * BENCH_WEBHOOK=off,on runs each mode without and with one webhook endpoint subscribed to message.delivered (the
 * engine then writes one coalesced outbox row per delivered batch, in its outcome statement); BENCH_WEBHOOK_DRAIN=1
 * also runs the webhook worker (dispatcher + delivery lanes, ADR 0026) in every sender process, POSTing every event
 * to a receiver on 127.0.0.1 — the whole webhook machinery competing with the engine for the same CPUs — and prints
 * how long after the last message delivered the last event arrived, and the events' rate against the engine's;
 * with BENCH_WEBHOOK=off,on it also prints the webhook path's CPU and database work (statements, rows, buffers from
 * pg_stat_database) per event, each the webhook run minus the engine-alone run.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os, { availableParallelism } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import pino from 'pino';
import { loadConfig } from '../server/src/config';
import { type Database, openDatabase } from '../server/src/db/database';
import { startPeriodicJobs } from '../server/src/jobs/periodic-jobs';
import { accounts } from '../server/src/modules/accounts/accounts.db';
import { campaigns } from '../server/src/modules/campaigns/campaigns.db';
import { startCampaignSend } from '../server/src/modules/campaigns/start-campaign-send';
import { addSenderDomain } from '../server/src/modules/sender-identities/sender-domains';
import { senderDomains } from '../server/src/modules/sender-identities/sender-identities.db';
import { createSigningResolver } from '../server/src/modules/sender-identities/sender-signing';
import { trustSenderAddress } from '../server/src/modules/sender-identities/testing/trust-sender';
import { BodyProgram } from '../server/src/modules/sending/body-program';
import { messageLinks } from '../server/src/modules/sending/build-message';
import {
  createDkimSigner,
  DEFAULT_SIGNED_HEADERS,
  type DkimAlgorithm,
  type DkimSigner,
  signChain,
} from '../server/src/modules/sending/dkim/dkim-signer';
import { createDkimSigningPool } from '../server/src/modules/sending/dkim/signing-pool';
import {
  buildMimeMessage,
  buildMimeMessageFromParts,
  createMessageFrame,
} from '../server/src/modules/sending/mime/build-message';
import { createSmtpPool } from '../server/src/modules/sending/smtp/smtp-pool';
import { creditAccount } from '../server/src/modules/sending/testing/send-fixtures';
import { htmlLiquid, textLiquid } from '../server/src/modules/templates/liquid-engine';
import { buildScope, compileCampaign, renderMessage } from '../server/src/modules/templates/render-message';
import { finishTrackedHtml, planTrackedHtml } from '../server/src/modules/tracking/rewrite-links';
import {
  setTrackingSecret,
  signTrackingTokens,
  trackingTokenSigner,
} from '../server/src/modules/tracking/tracking-token';
import { createSecretBox, generateWebhookSecret } from '../server/src/modules/webhooks/signing';
import { webhookEndpoints } from '../server/src/modules/webhooks/webhooks.db';
import { startWebhookWorker } from '../server/src/modules/webhooks/webhooks-runtime';
import { SendingEngine } from '../server/src/worker/sending-engine';
import { createRelayTransport } from '../server/src/worker/sending-runtime';

const N = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const CORES = availableParallelism();
type Mode = 'off' | 'domain' | 'dual' | DkimAlgorithm;
/** One run: a DKIM mode, how many sender processes, how many signing threads each (0 = on its main thread). */
interface Scenario {
  mode: Mode;
  processes: number;
  threads: number;
  /**
   * The signing pool's room per signer in front of each message (signing-pool.ts `signatureRoom`); unset = its
   * default. 0 = the lines prepended on the main thread, a copy of every message (the pool before it signed in
   * place): `rsa-sha256:1:auto:0` next to `rsa-sha256:1:auto` compares the two in one run.
   */
  signatureRoom?: number;
}
const parseCount = (value: string | undefined, fallback: number) =>
  value === undefined || value === 'auto' || value === 'cores' ? fallback : Number(value);
/**
 * BENCH_SCENARIOS=mode:processes:threads,… (processes/threads a number, `cores` or `auto` = this machine's cores).
 * Default: the issue's comparisons — DKIM off in one process (the reference), RSA-2048 in one process signing on
 * every core, RSA-2048 in as many processes as cores each signing on its own thread (the old way to use the
 * cores), and Ed25519 + RSA-2048 in one process. The legacy BENCH_DKIM / BENCH_WORKERS / BENCH_SIGNING_THREADS
 * give every mode listed the same processes and threads.
 */
const SCENARIOS: Scenario[] = process.env.BENCH_DKIM
  ? process.env.BENCH_DKIM.split(',').map((mode) => ({
      mode: mode as Mode,
      processes: parseCount(process.env.BENCH_WORKERS, 2),
      threads: parseCount(process.env.BENCH_SIGNING_THREADS, CORES),
    }))
  : (process.env.BENCH_SCENARIOS ?? 'off:1:auto,rsa-sha256:1:auto,rsa-sha256:cores:0,dual:1:auto')
      .split(',')
      .map((spec) => {
        const [mode, processes, threads, room] = spec.split(':');
        return {
          mode: mode as Mode,
          processes: parseCount(processes, CORES),
          threads: parseCount(threads, CORES),
          ...(room === undefined ? {} : { signatureRoom: Number(room) }),
        };
      });
const MODES = [...new Set(SCENARIOS.map((s) => s.mode))];
const scenarioName = (x: Scenario) =>
  `${x.mode}:${x.processes}:${x.threads}${x.signatureRoom === undefined ? '' : `:${x.signatureRoom}`}`;
const BENCH_SECRET = 'bench-secret-bench-secret-bench-secret-0123';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BATCH = Number(process.env.BENCH_BATCH ?? 500);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 4);
const PUBLIC_URL = 'https://bench.carteiro.test';
const WEBHOOK_VARIANTS = (process.env.BENCH_WEBHOOK ?? 'off').split(',') as Array<'off' | 'on'>;
const WEBHOOK_DRAIN = Boolean(process.env.BENCH_WEBHOOK_DRAIN);
/** BENCH_SENDER=source: the sender processes run this file under tsx, as before (their RSS then includes tsx's). */
const SENDER_FROM_SOURCE = process.env.BENCH_SENDER === 'source';
const PROGRESS_MS = Number(process.env.BENCH_PROGRESS_SECONDS ?? 0) * 1000;

const LINKS = Array.from(
  { length: 10 },
  (_, i) =>
    `<p><a href="https://loja.exemplo.com.br/produtos/${i}?utm_source=carteiro">Oferta ${i + 1}: promoção de verão</a></p>`,
).join('\n');
const FILLER = Array.from(
  { length: 14 },
  () =>
    '<p style="font-family:Arial,sans-serif;font-size:14px;color:#333333;line-height:1.5">Aproveite as condições especiais desta semana: frete grátis para todo o Brasil, parcelamento em até 10 vezes sem juros e atendimento em português. Não perca — é só até domingo!</p>',
).join('\n');
export const BENCH_TEMPLATE = `<!doctype html><html><head><meta charset="utf-8"><title>{{ campanha.nome }}</title></head>
<body style="margin:0;padding:0;background:#f4f4f4">
<table width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">
<h1 style="font-family:Arial,sans-serif">Olá, {{ contato.nome | default: "cliente" }}!</h1>
<p>Separamos ofertas para quem mora em {{ contato.cidade | default: "sua cidade" }}.</p>
${LINKS}
${FILLER}
<p style="font-size:12px;color:#777777">{{ conta.nome }} — {{ conta.endereco }}<br>
Você recebeu este e-mail porque se cadastrou em nossa loja. <a href="{{ link_descadastro }}">Descadastrar</a></p>
</td></tr></table></body></html>`;

const MB = 1048576;

/** A sender process's memory: its RSS once ready (before the campaign), and process.memoryUsage() at its RSS peak. */
interface SenderMemory {
  startRss: number;
  peak: NodeJS.MemoryUsage;
}

/** Where the peak was: what the process held before sending, and the main thread's heap and buffers then. */
function describeMemory(memory: SenderMemory): string {
  const mb = (n: number) => Math.round(n / MB);
  const { peak } = memory;
  return (
    `${mb(memory.startRss)} MB once ready; at the peak the main thread's heap ${mb(peak.heapUsed)} MB used of ` +
    `${mb(peak.heapTotal)}, buffers ${mb(peak.arrayBuffers)} MB, the rest code, the signing threads and the allocator`
  );
}

type ChildMessage =
  | { type: 'ready' }
  | { type: 'engine-stopped' }
  | { type: 'stats'; cpuMicros: number; memory: SenderMemory }
  | { type: 'ready-sink'; port: number };

// ---------------------------------------------------------------------------------------------- sender child
async function senderChild(): Promise<void> {
  const env = process.env;
  // As the worker role does: tracking tokens signed with AUTH_SECRET.
  setTrackingSecret(BENCH_SECRET);
  const database = await openDatabase({ kind: 'postgres', url: env.BENCH_DB as string, poolSize: CONCURRENCY + 2 });
  const signerFor = (algorithm: DkimAlgorithm, keyFile: string, selector: string) =>
    createDkimSigner({
      domain: 'loja.exemplo.com.br',
      selector,
      privateKeyPem: fs.readFileSync(keyFile, 'utf8'),
      algorithm,
      headerNames: [...DEFAULT_SIGNED_HEADERS, 'feedback-id'],
    });
  const mode = env.BENCH_MODE as Mode;
  const signers =
    mode === 'dual'
      ? [
          signerFor('ed25519-sha256', `${env.BENCH_KEY}.ed25519`, 'bench-ed'),
          signerFor('rsa-sha256', `${env.BENCH_KEY}.rsa`, 'bench'),
        ]
      : mode !== 'off' && mode !== 'domain'
        ? [signerFor(mode, env.BENCH_KEY as string, 'bench')]
        : [];
  const threads = Number(env.BENCH_SIGNING_THREADS ?? 0);
  const signatureRoom = env.BENCH_SIGNATURE_ROOM ? Number(env.BENCH_SIGNATURE_ROOM) : undefined;
  const signingPool = threads > 0 ? createDkimSigningPool({ threads, signatureRoom }) : undefined;
  const transport = createRelayTransport(`smtp://127.0.0.1:${env.BENCH_SINK_PORT}`, CONCURRENCY);
  const sender = new SendingEngine({
    db: database.db,
    transports: [transport],
    signers,
    signingPool,
    signingFor:
      env.BENCH_MODE === 'domain'
        ? createSigningResolver({
            db: database.db,
            secret: BENCH_SECRET,
            platformSigners: [],
            platformBounceDomain: 'bounces.carteiro.test',
          })
        : undefined,
    mailer: null,
    logger: pino({ level: 'warn' }),
    settings: {
      batchSize: BATCH,
      concurrency: CONCURRENCY,
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
    },
  });
  // BENCH_WEBHOOK_DRAIN: this process also runs the webhook worker, as `carteiro worker` does.
  const webhooks = env.BENCH_WEBHOOK_DRAIN
    ? await startWebhookWorker({
        config: loadConfig({
          NODE_ENV: 'test',
          WEBHOOKS_ALLOW_PRIVATE_URLS: 'true',
          LOG_LEVEL: 'silent',
          // The engine's batch size, as the worker's config carries it (the dispatcher expands whole batches).
          SENDING_BATCH_SIZE: String(BATCH),
          // The lanes' two capacities, as an operator sets them (defaults otherwise).
          ...(env.WEBHOOKS_CONCURRENCY ? { WEBHOOKS_CONCURRENCY: env.WEBHOOKS_CONCURRENCY } : {}),
          ...(env.WEBHOOKS_ENDPOINT_CONCURRENCY
            ? { WEBHOOKS_ENDPOINT_CONCURRENCY: env.WEBHOOKS_ENDPOINT_CONCURRENCY }
            : {}),
        }),
        db: database.db,
        mailer: null,
        logger: pino({ level: 'warn' }),
        resolver: { addresses: async () => [] },
        box: createSecretBox(BENCH_SECRET),
      })
    : null;
  // The dispatcher (engine batches → events and deliveries) is a periodic job: registered as runtime.ts does.
  const periodic = startPeriodicJobs(pino({ level: 'warn' }));
  for (const job of webhooks?.jobs ?? []) if (job.name === 'webhooks.dispatch') periodic.add(job);
  // Sampled every 50 ms: the process's RSS (every thread: the main one and the signing threads) and, at its peak,
  // where the main thread's memory was.
  const memory: SenderMemory = { startRss: process.memoryUsage().rss, peak: process.memoryUsage() };
  setInterval(() => {
    const now = process.memoryUsage();
    if (now.rss > memory.peak.rss) memory.peak = now;
  }, 50).unref();
  let cpu0 = process.cpuUsage();
  process.on('message', async (msg: { type: string }) => {
    if (msg.type === 'go') {
      cpu0 = process.cpuUsage();
      sender.start();
    }
    if (msg.type === 'stats') {
      const cpu = process.cpuUsage(cpu0);
      process.send?.({ type: 'stats', cpuMicros: cpu.user + cpu.system, memory } satisfies ChildMessage);
    }
    // The campaign is sent: the engine stops polling, so the CPU measured until the last event is the webhooks'.
    if (msg.type === 'engine-stop') {
      await sender.stop();
      process.send?.({ type: 'engine-stopped' } satisfies ChildMessage);
    }
    if (msg.type === 'exit') {
      await periodic.stop();
      await webhooks?.stop();
      await sender.stop();
      await signingPool?.close();
      await transport.close();
      await database.close();
      process.exit(0);
    }
  });
  process.send?.({ type: 'ready' } satisfies ChildMessage);
}

// ---------------------------------------------------------------------------------------------- parent
function once<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve) => {
    const listener = (msg: ChildMessage) => {
      if (msg.type === type) {
        child.off('message', listener);
        resolve(msg as Extract<ChildMessage, { type: T }>);
      }
    };
    child.on('message', listener);
  });
}

async function sinkStats(sink: ChildProcess): Promise<{ accepted: number; cpuMicros: number }> {
  const reply = new Promise<{ accepted: number; cpuMicros: number }>((resolve) => {
    const listener = (msg: { type: string; accepted: number; cpuMicros: number }) => {
      if (msg.type === 'stats') {
        sink.off('message', listener);
        resolve(msg);
      }
    };
    sink.on('message', listener);
  });
  sink.send({ type: 'stats' });
  return reply;
}

const SUBJECT = '{{ contato.nome }}, ofertas para {{ contato.cidade }} — até 60% off';
const PREHEADER = 'Só até domingo';

/**
 * Single-thread CPU cost of each stage of building one message (µs, process.cpuUsage over `n` messages), with
 * the bench's template and tracking on: what the sender spends per message before SMTP and the database.
 */
function stageCosts(n = 3000): string {
  const plan = planTrackedHtml(BENCH_TEMPLATE, {
    publicUrl: PUBLIC_URL,
    trackClicks: true,
    trackOpens: true,
    nonce: 'bench0',
  });
  const plain = compileCampaign({ subject: SUBJECT, preheader: PREHEADER, html: BENCH_TEMPLATE });
  const compiled = {
    ...plain,
    html: compileCampaign({ subject: '', preheader: PREHEADER, html: plan.source, text: '-' }).html,
  };
  const programs = {
    html: new BodyProgram(compiled.html, htmlLiquid, { marker: plan.marker }),
    text: new BodyProgram(compiled.text, textLiquid, { trim: true }),
    subject: new BodyProgram(compiled.subject, textLiquid),
  };
  const frame = createMessageFrame({
    fromEmail: 'loja@loja.exemplo.com.br',
    fromName: 'Loja Ação',
    listId: 'bench.carteiro.test',
    feedbackId: 'bench:bench:campaign:carteiro',
    messageIdDomain: 'carteiro.test',
    extraHeaders: { Precedence: 'bulk' },
  });
  const account = { name: 'Loja Bench', address: 'Rua das Flores, 100 — Recife/PE' };
  const tokens = Array.from({ length: 256 }, () => randomBytes(20).toString('hex'));
  const staticIds = plan.staticUrls.map((_, i) => 1000 + i);
  const scopeOf = (i: number) =>
    buildScope(
      { email: `pessoa${i}@exemplo.com.br`, name: `Pessoa ${i}`, fields: { cidade: 'Conceição do Araguaia' } },
      account,
      messageLinks(PUBLIC_URL, 'c', tokens[i % 256] as string),
      'Bench',
    );
  const cpu = (f: (i: number) => unknown) => {
    for (let i = 0; i < 300; i++) f(i);
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i++) f(i);
    const c = process.cpuUsage(c0);
    return ((c.user + c.system) / n).toFixed(1);
  };
  // As messageTrackingHooks does: every static link and the pixel signed in one go.
  const hooks = (i: number) => {
    const signed = signTrackingTokens(tokens[i % 256] as string, [...staticIds, 0]);
    return {
      click: (k: number) => `${PUBLIC_URL}/c/${signed[k]}`,
      pixel: () => `${PUBLIC_URL}/o/${signed[signed.length - 1]}.gif`,
      finish: (html: string) => html,
    };
  };
  const fields = (i: number, subject: string) => ({
    messageId: tokens[i % 256] as string,
    to: `pessoa${i}@exemplo.com.br`,
    toName: `Pessoa ${i}`,
    subject,
    unsubscribeUrl: `${PUBLIC_URL}/u/${tokens[i % 256]}`,
  });
  const liquid = cpu((i) => renderMessage(compiled, scopeOf(i)));
  const stringPath = cpu((i) => {
    const r = renderMessage(compiled, scopeOf(i));
    const html = finishTrackedHtml(r.html, plan, {
      publicUrl: PUBLIC_URL,
      sign: trackingTokenSigner(tokens[i % 256] as string),
      staticIds,
      linkIdOf: () => undefined,
    });
    return buildMimeMessage(frame, { ...fields(i, r.subject), text: r.text, html });
  });
  const signatures = cpu((i) => signTrackingTokens(tokens[i % 256] as string, [...staticIds, 0]));
  const build = (i: number) => {
    const scope = scopeOf(i);
    const subject = programs.subject.renderString(scope).replace(/\s+/g, ' ').trim();
    const html = programs.html.prepare(scope, hooks(i), plan.marker);
    return buildMimeMessageFromParts(frame, fields(i, subject), programs.text.prepare(scope, null), html);
  };
  const fast = cpu(build);
  const raw = build(1);
  const signers = (['rsa-sha256', 'ed25519-sha256'] as const).map((algorithm) =>
    createDkimSigner({
      domain: 'loja.exemplo.com.br',
      selector: 'bench',
      privateKeyPem: String(
        (algorithm === 'rsa-sha256'
          ? generateKeyPairSync('rsa', { modulusLength: 2048 })
          : generateKeyPairSync('ed25519')
        ).privateKey.export({ type: 'pkcs8', format: 'pem' }),
      ),
      algorithm,
      headerNames: [...DEFAULT_SIGNED_HEADERS, 'feedback-id'],
    }),
  );
  const rsa = cpu(() => signers[0]?.sign(raw));
  const ed = cpu(() => signers[1]?.sign(raw));
  const dual = cpu(() => signChain([signers[1] as DkimSigner, signers[0] as DkimSigner], raw));
  return (
    `stage CPU µs/msg, one thread (${raw.length} bytes on the wire): full liquidjs render ${liquid}; string path ` +
    `(render + tracking + MIME) ${stringPath}; fast path (body programs: render + tracking + MIME) ${fast}, of which ` +
    `${staticIds.length + 1} tracking signatures ${signatures}; DKIM RSA-2048 ${rsa}, Ed25519 ${ed}, both (one parse and body hash) ${dual}`
  );
}

/** The sink's raw acceptance rate: pre-built ~6 KB messages through the pipelining SmtpPool, nothing else. */
async function rawRate(port: number, sink: ChildProcess): Promise<number> {
  const frame = createMessageFrame({
    fromEmail: 'loja@exemplo.com.br',
    fromName: 'Loja',
    listId: 'bench.carteiro.test',
    feedbackId: 'bench:bench:campaign:carteiro',
    messageIdDomain: 'carteiro.test',
  });
  const raw = buildMimeMessage(frame, {
    messageId: 'raw',
    to: 'x@destino.com.br',
    subject: 'Raw',
    unsubscribeUrl: `${PUBLIC_URL}/u/raw`,
    text: 'x'.repeat(1500),
    html: BENCH_TEMPLATE,
  });
  const pool = createSmtpPool({ host: '127.0.0.1', port, startTls: 'never', connections: 8 });
  const total = 30_000;
  const before = (await sinkStats(sink)).accepted;
  const t0 = performance.now();
  for (let i = 0; i < total; i += 1000) {
    await pool.deliver(
      Array.from({ length: 1000 }, (_, j) => ({
        id: String(i + j),
        envelopeFrom: 'b@x.test',
        recipient: `r${j}@destino.com.br`,
        raw,
      })),
    );
  }
  const seconds = (performance.now() - t0) / 1000;
  await pool.close();
  const accepted = (await sinkStats(sink)).accepted - before;
  return accepted / seconds;
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
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-bench-send-'));
  const sink = fork(new URL('./smtp-sink.ts', import.meta.url).pathname);
  const senderScript = SENDER_FROM_SOURCE ? fileURLToPath(import.meta.url) : await bundleSender();
  const children: ChildProcess[] = [];
  try {
    await database.migrate();
    const { port } = await new Promise<{ port: number }>((resolve) =>
      sink.once('message', (msg: { port: number }) => resolve(msg)),
    );
    console.log(
      `sending engine bench: ${N} recipients, scenarios ${SCENARIOS.map(scenarioName).join(' ')} (mode:processes:signing threads[:signature room]), ${CONCURRENCY} lanes per process, batch ${BATCH}, ${os.cpus().length} CPUs, load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(
          ' ',
        )}; template ${Buffer.byteLength(BENCH_TEMPLATE)} bytes, 10 links + unsubscribe, click and open tracking on`,
    );
    console.log(stageCosts());
    const raw = await rawRate(port, sink);
    console.log(`sink raw acceptance (pipelining SmtpPool, 8 connections, pre-built ~6 KB): ${Math.round(raw)} msg/s`);

    const [account] = await database.db
      .insert(accounts)
      .values({
        uuid: crypto.randomUUID(),
        ownerUserId: 'bench',
        name: 'Loja Bench',
        address: 'Rua das Flores, 100 — Recife/PE',
        // The footer identity is required before any campaign.
        legalName: 'Loja Bench Comércio Ltda.',
        taxId: '11.222.333/0001-81',
      })
      .returning();
    if (!account) throw new Error('no account');
    await creditAccount(database.db, account.id, 5 * N * SCENARIOS.length * WEBHOOK_VARIANTS.length + 1000);
    const hooks = WEBHOOK_VARIANTS.includes('on') ? await startWebhookBench(database) : null;
    const pgCpu = await pgBackendCpu(url.toString());
    const pgWork = await pgActivity(url.toString());
    // Only a verified sender may send. The address is confirmed; mode `domain` also verifies its domain.
    await trustSenderAddress(database.db, account.id, 'loja@loja.exemplo.com.br');
    if (MODES.includes('domain')) {
      await addSenderDomain(
        database.db,
        {
          secret: BENCH_SECRET,
          publicUrl: PUBLIC_URL,
          confirmHours: 48,
          spfInclude: '_spf.bounces.carteiro.test',
          bounceDomain: 'bounces.carteiro.test',
          trackingHost: 'bench.carteiro.test',
        },
        account.id,
        'loja.exemplo.com.br',
      );
      // BENCH_TRACKING_DOMAIN=on: its tracking CNAME found too, so every link is on links.loja.exemplo.com.br
      // (ADR 0012 "Tracking domains") — compare back to back with the default (off).
      const found = { status: 'found' as const, found: [] as string[] };
      const missing = { status: 'missing' as const, found: [] as string[] };
      await database.db
        .update(senderDomains)
        .set({
          status: 'verified',
          lastCheck: {
            checkedAt: new Date().toISOString(),
            dkim: found,
            dkimEd25519: missing,
            spf: { ...missing, lookups: null },
            dmarc: missing,
            returnPath: missing,
            tracking: process.env.BENCH_TRACKING_DOMAIN === 'on' ? found : missing,
          },
        })
        .where(eq(senderDomains.accountId, account.id));
    }
    const t0 = performance.now();
    const [list] = await database.db
      .execute<{ id: string }>(sql`insert into lists (account_id, name) values (${account.id}, 'Bench') returning id`)
      .then((r) => (r as unknown as { rows: { id: string }[] }).rows);
    await database.db.execute(sql`insert into contacts (account_id, email, name, fields)
      select ${account.id}, 'pessoa' || g || '@exemplo' || (g % 97) || '.com.br', 'Pessoa ' || g,
             jsonb_build_object('cidade', (array['São Paulo','Maceió','Conceição do Araguaia','Recife'])[1 + g % 4])
        from generate_series(1, ${N}) g`);
    await database.db.execute(sql`insert into list_memberships (list_id, contact_id)
      select ${list?.id}, id from contacts where account_id = ${account.id}`);
    await database.db.execute(sql`analyze`);
    console.log(`setup: ${N} contacts in ${Math.round(performance.now() - t0)} ms`);

    const rows: string[] = [];
    const rates: BenchRun[] = [];
    const pem = (algorithm: DkimAlgorithm) =>
      (algorithm === 'rsa-sha256'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 })
        : generateKeyPairSync('ed25519')
      ).privateKey.export({ type: 'pkcs8', format: 'pem' });
    for (const scenario of SCENARIOS)
      for (const hook of WEBHOOK_VARIANTS) {
        const { mode } = scenario;
        await hooks?.subscribe(account.id, hook === 'on');
        const keyFile = path.join(tmp, `${mode}.pem`);
        if (mode === 'dual') {
          fs.writeFileSync(`${keyFile}.rsa`, pem('rsa-sha256'));
          fs.writeFileSync(`${keyFile}.ed25519`, pem('ed25519-sha256'));
        } else if (mode !== 'off' && mode !== 'domain') fs.writeFileSync(keyFile, pem(mode));
        const [campaign] = await database.db
          .insert(campaigns)
          .values({
            uuid: crypto.randomUUID(),
            createdBy: account.id,
            name: `Bench ${mode}`,
            subject: SUBJECT,
            preheader: PREHEADER,
            fromName: 'Loja Ação',
            fromEmail: 'loja@loja.exemplo.com.br',
            includeListIds: [list?.id as string],
            template: BENCH_TEMPLATE,
          })
          .returning();
        if (!campaign) throw new Error('no campaign');
        const senders = Array.from({ length: scenario.processes }, () =>
          fork(senderScript, ['sender'], {
            execArgv: [
              // From source the child runs under tsx like this bench; bundled, under plain node.
              ...(SENDER_FROM_SOURCE ? process.execArgv : []),
              ...(process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir=/tmp/carteiro-prof'] : []),
            ],
            env: {
              ...process.env,
              BENCH_DB: url.toString(),
              BENCH_SINK_PORT: String(port),
              BENCH_MODE: mode,
              BENCH_KEY: keyFile,
              BENCH_SIGNING_THREADS: String(scenario.threads),
              ...(scenario.signatureRoom === undefined ? {} : { BENCH_SIGNATURE_ROOM: String(scenario.signatureRoom) }),
            },
          }),
        );
        children.push(...senders);
        await Promise.all(senders.map((c) => once(c, 'ready')));
        const sink0 = await sinkStats(sink);
        const pg0 = await pgCpu.total();
        const work0 = await pgWork.read();
        const start = performance.now();
        const started = await startCampaignSend(database.db, account.id, campaign.id, null);
        const snapshotMs = performance.now() - start;
        for (const c of senders) c.send({ type: 'go' });
        let progressAt = performance.now();
        for (;;) {
          const [row] = await database.db
            .select({ status: campaigns.status, sent: campaigns.sentCount })
            .from(campaigns)
            .where(eq(campaigns.id, campaign.id));
          if (row?.status === 'sent') break;
          // BENCH_PROGRESS_SECONDS: a line every so often on a long run — messages sent and the senders' peak RSS
          // so far, so a run stopped early still tells how its memory went.
          if (PROGRESS_MS > 0 && performance.now() - progressAt >= PROGRESS_MS) {
            progressAt = performance.now();
            const so = await Promise.all(
              senders.map(async (c) => {
                const reply = once(c, 'stats');
                c.send({ type: 'stats' });
                return reply;
              }),
            );
            const peak = Math.max(...so.map((x) => x.memory.peak.rss)) / MB;
            console.log(
              `[${new Date().toISOString().slice(11, 19)} load ${os.loadavg()[0]?.toFixed(1)}] ${row?.sent}/${started.recipients} sent, peak RSS per sender so far ${Math.round(peak)} MB`,
            );
          }
          await new Promise((r) => setTimeout(r, 25));
        }
        const seconds = (performance.now() - start) / 1000;
        const stats = await Promise.all(
          senders.map(async (c) => {
            const reply = once(c, 'stats');
            c.send({ type: 'stats' });
            return reply;
          }),
        );
        const sink1 = await sinkStats(sink);
        const pgAtSent = (await pgCpu.total()) - pg0;
        const [sent] = await database.db
          .select({ n: campaigns.sentCount })
          .from(campaigns)
          .where(eq(campaigns.id, campaign.id));
        const cpu = stats.reduce((a, s) => a + s.cpuMicros, 0) / started.recipients;
        const sinkCpu = (sink1.cpuMicros - sink0.cpuMicros) / started.recipients;
        const peakOf = stats.reduce((a, s) => (s.memory.peak.rss > a.memory.peak.rss ? s : a)).memory;
        const rss = peakOf.peak.rss / MB;
        const rate = started.recipients / seconds;
        const hookStats = hooks ? await hooks.stats() : '';
        let drained = '';
        // CPU from "send" to the last event at the receiver: engine + dispatcher + lanes (senders) and PostgreSQL.
        let cpuDrained: { sender: number; pg: number } | undefined;
        if (hooks && hook === 'on' && WEBHOOK_DRAIN) {
          await Promise.all(
            senders.map(async (c) => {
              const reply = once(c, 'engine-stopped');
              c.send({ type: 'engine-stop' });
              return reply;
            }),
          );
          drained = `; ${await hooks.drained(campaign.id, Number(sent?.n), rate)}`;
          const after = await Promise.all(
            senders.map(async (c) => {
              const reply = once(c, 'stats');
              c.send({ type: 'stats' });
              return reply;
            }),
          );
          cpuDrained = {
            sender: after.reduce((a, s) => a + s.cpuMicros, 0) / started.recipients,
            pg: ((await pgCpu.total()) - pg0) / started.recipients,
          };
          drained += `; CPU until the last event: senders ${Math.round(cpuDrained.sender)} µs/msg, PostgreSQL ${Math.round(cpuDrained.pg)} µs/msg`;
        }
        const pgCpuPerMsg = pgAtSent / started.recipients;
        const run: BenchRun = { scenario, hook, rate, rss, cpu, pgCpu: pgCpuPerMsg, cpuDrained };
        rates.push(run);
        const line = `[load ${os.loadavg()[0]?.toFixed(1)}] DKIM ${mode.padEnd(14)} ${scenario.processes} process(es) × ${scenario.threads} signing threads${scenario.signatureRoom === undefined ? '' : ` (signature room ${scenario.signatureRoom})`}, webhook ${hook.padEnd(3)} ${hookStats} ${Math.round(rate)} msg/s (${started.recipients} in ${seconds.toFixed(1)} s, snapshot+reservation ${Math.round(snapshotMs)} ms), sender CPU ${Math.round(cpu)} µs/msg, PostgreSQL CPU ${Math.round(pgCpuPerMsg)} µs/msg, sink CPU ${Math.round(sinkCpu)} µs/msg, peak RSS per sender ${Math.round(rss)} MB (${describeMemory(peakOf)}), sent ${sent?.n}, sink accepted ${sink1.accepted - sink0.accepted}, ratio to raw ${(rate / raw).toFixed(2)}${drained}`;
        console.log(line);
        rows.push(line);
        for (const c of senders) c.send({ type: 'exit' });
        await Promise.all(senders.map((c) => new Promise((r) => c.once('exit', r))));
        // Read once the senders' backends have exited: a backend reports its counters at exit at the latest.
        await new Promise((r) => setTimeout(r, 500));
        run.work = pgWork.per(work0, await pgWork.read(), started.recipients);
      }
    await hooks?.stop();
    await pgCpu.stop();
    await pgWork.stop();
    printRatios(rates);
    printSignatureRoom(rates);
    printWebhookCpu(rates);
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    sink.send({ type: 'exit' });
    await database.close();
    const cleanup = new pg.Client({ connectionString: PG_URL });
    await cleanup.connect();
    if (process.env.BENCH_KEEP_DB) console.log(`kept database ${dbName}`);
    else await cleanup.query(`drop database if exists ${dbName} with (force)`);
    await cleanup.end();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

interface BenchRun {
  scenario: Scenario;
  hook: string;
  rate: number;
  rss: number;
  /** Sender CPU µs per message until the campaign is sent; PostgreSQL backends' likewise. */
  cpu: number;
  pgCpu: number;
  /** With the webhook worker draining: CPU µs per message until the last event reached the receiver. */
  cpuDrained?: { sender: number; pg: number };
  /** This database's statements (transactions) and rows per message, from the run's start to its senders' exit. */
  work?: PgWork;
}

/**
 * BENCH_WEBHOOK=off,on with BENCH_WEBHOOK_DRAIN: the webhook path's CPU per event (expansion, claim, attempt,
 * record; senders and PostgreSQL) = CPU until the last event of the `on` run − CPU of the same mode's `off` run
 * (the engine alone), against the engine's CPU per message — webhooks keep pace on the same cores only if an
 * event costs less than a message.
 */
function printWebhookCpu(rates: BenchRun[]): void {
  for (const on of rates) {
    if (on.hook !== 'on' || !on.cpuDrained) continue;
    const off = rates.find((r) => r.hook === 'off' && r.scenario === on.scenario);
    if (!off) continue;
    const sender = on.cpuDrained.sender - off.cpu;
    const pgSide = on.cpuDrained.pg - off.pgCpu;
    const engine = off.cpu + off.pgCpu;
    console.log(
      `webhook CPU per event (DKIM ${on.scenario.mode}): senders ${Math.round(sender)} µs + PostgreSQL ${Math.round(pgSide)} µs = ${Math.round(sender + pgSide)} µs; engine per message ${Math.round(off.cpu)} + ${Math.round(off.pgCpu)} = ${Math.round(engine)} µs; event/message ${((sender + pgSide) / engine).toFixed(2)}`,
    );
    if (on.work && off.work) {
      const d = (k: keyof PgWork) => ((on.work?.[k] ?? 0) - (off.work?.[k] ?? 0)).toFixed(3);
      console.log(
        `webhook database work per event (DKIM ${on.scenario.mode}): statements ${d('statements')}, rows inserted ${d('inserted')}, updated ${d('updated')}, deleted ${d('deleted')}, buffers ${d('buffers')}; engine per message: statements ${off.work.statements.toFixed(3)}, rows inserted ${off.work.inserted.toFixed(3)}, updated ${off.work.updated.toFixed(3)}, buffers ${off.work.buffers.toFixed(1)}`,
      );
    }
  }
}

/**
 * Scenarios run with `:0` (the signature lines prepended on the main thread, a copy of every message) against the
 * same mode, processes and threads with the default room (signed in place): rate, CPU and peak RSS, means of runs.
 */
function printSignatureRoom(rates: BenchRun[]): void {
  for (const copied of rates) {
    if (copied.scenario.signatureRoom !== 0) continue;
    const same = (r: BenchRun) =>
      r.scenario.mode === copied.scenario.mode &&
      r.scenario.processes === copied.scenario.processes &&
      r.scenario.threads === copied.scenario.threads;
    const before = rates.filter((r) => same(r) && r.scenario.signatureRoom === 0);
    const after = rates.filter((r) => same(r) && r.scenario.signatureRoom === undefined);
    if (after.length === 0 || before[0] !== copied) continue;
    const mean = (runs: BenchRun[], f: (r: BenchRun) => number) => runs.reduce((a, r) => a + f(r), 0) / runs.length;
    console.log(
      `signed in place / prepended on the main thread (${scenarioName(copied.scenario)}, means of ${after.length} and ${before.length} runs): ` +
        `rate ${(mean(after, (r) => r.rate) / mean(before, (r) => r.rate)).toFixed(2)}, sender CPU ` +
        `${Math.round(mean(after, (r) => r.cpu))} / ${Math.round(mean(before, (r) => r.cpu))} µs/msg, peak RSS ` +
        `${Math.round(mean(after, (r) => r.rss))} / ${Math.round(mean(before, (r) => r.rss))} MB`,
    );
  }
}

/**
 * The issue's ratios, from runs of the same bench (same sink, same database, same minute): one process signing
 * RSA-2048 on every core against as many processes as cores (≥ 0.9), RSA-2048 against DKIM off (≥ 0.45), and the
 * cost of adding Ed25519 to RSA-2048 (< 15 %). Printed when the runs they need are in the scenarios; a scenario
 * listed several times counts with the mean of its runs.
 */
function printRatios(rates: BenchRun[]): void {
  // The mean of every run of a scenario: list scenarios twice in mirrored order (A B B A) so that load drifting
  // during the run weighs the same on both sides of each ratio.
  const find = (mode: Mode, one: boolean) => {
    const of = (hook: string | null) =>
      rates.filter(
        (r) =>
          (hook === null || r.hook === hook) &&
          r.scenario.mode === mode &&
          (r.scenario.processes === 1) === one &&
          r.scenario.signatureRoom === undefined,
      );
    const runs = of('off').length > 0 ? of('off') : of(null);
    return runs.length > 0
      ? {
          rate: runs.reduce((a, r) => a + r.rate, 0) / runs.length,
          cpu: runs.reduce((a, r) => a + r.cpu, 0) / runs.length,
        }
      : undefined;
  };
  const rsaOne = find('rsa-sha256', true)?.rate;
  const rsaMany = find('rsa-sha256', false)?.rate;
  const off = find('off', true)?.rate;
  const dual = find('dual', true)?.rate;
  // CPU per message moves far less than the rate when other processes share the cores: printed beside.
  const cpuOf = (mode: Mode, one: boolean) => {
    const cpu = find(mode, one)?.cpu;
    return cpu === undefined ? 'n/a' : `${Math.round(cpu)} µs`;
  };
  console.log(
    `sender CPU per message (mean of runs): DKIM off ${cpuOf('off', true)}, RSA-2048 one process ${cpuOf('rsa-sha256', true)}, ` +
      `RSA-2048 ${CORES} processes ${cpuOf('rsa-sha256', false)}, Ed25519 + RSA-2048 ${cpuOf('dual', true)}`,
  );
  const ratio = (a: number | undefined, b: number | undefined) => (a && b ? (a / b).toFixed(2) : 'n/a');
  // The bar: every sender process, its signing threads included, within 400 MB.
  const peakRss = Math.max(...rates.map((r) => r.rss));
  console.log(
    `ratios: RSA-2048 one process / ${CORES} processes ${ratio(rsaOne, rsaMany)} (≥ 0.9); ` +
      `RSA-2048 / DKIM off ${ratio(rsaOne, off)} (≥ 0.45); ` +
      `Ed25519 + RSA-2048 costs ${rsaOne && dual ? `${Math.round((1 - dual / rsaOne) * 100)} %` : 'n/a'} over RSA-2048 alone (< 15 %); ` +
      `peak RSS per sender ${Math.round(peakRss)} MB (≤ 400 MB: ${peakRss <= 400 ? 'met' : 'MISSED'}; ${SENDER_FROM_SOURCE ? 'senders from source under tsx' : 'senders bundled, plain node, as production'})`,
  );
}

/**
 * CPU (µs) of this bench database's PostgreSQL backends, read from /proc/<pid>/stat (the server runs on this
 * machine): every 100 ms the backends connected to the database are listed and each one's utime + stime kept, so
 * `total()` is the CPU they used so far — a backend that exits between two samples loses its last ≤ 100 ms. Other
 * databases' backends (the shared box) are not counted.
 */
async function pgBackendCpu(url: string) {
  const seen = new Map<number, number>();
  const microsPerTick = 1_000_000 / Number(process.env.BENCH_CLK_TCK ?? 100);
  // Its own connection, left out of the sum: the sampling is not the product's work.
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const sample = async () => {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
    );
    for (const { pid } of rows) {
      let stat: string;
      try {
        stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch (error) {
        // Gone since the listing: its CPU up to the previous sample is kept.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        throw error;
      }
      // Fields 14 and 15 (utime, stime), counted after the command name's closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      seen.set(pid, (Number(fields[11]) + Number(fields[12])) * microsPerTick);
    }
  };
  let running = sample();
  const timer = setInterval(() => {
    running = running.then(sample);
  }, 100);
  return {
    async total(): Promise<number> {
      running = running.then(sample);
      await running;
      let sum = 0;
      for (const v of seen.values()) sum += v;
      return sum;
    },
    async stop() {
      clearInterval(timer);
      await running;
      await client.end();
    },
  };
}

type PgWork = Record<'statements' | 'inserted' | 'updated' | 'deleted' | 'buffers', number>;

/**
 * This bench database's work from pg_stat_database: transactions (each of the product's statements runs in its
 * own), rows inserted / updated / deleted, buffers hit or read. Other databases on the shared box are not counted;
 * the sampling connection's own few transactions are.
 */
async function pgActivity(url: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return {
    async read(): Promise<PgWork> {
      await client.query('select pg_stat_clear_snapshot()');
      const { rows } = await client.query<Record<keyof PgWork, string>>(
        `select xact_commit + xact_rollback as statements, tup_inserted as inserted, tup_updated as updated,
                tup_deleted as deleted, blks_hit + blks_read as buffers
           from pg_stat_database where datname = current_database()`,
      );
      const r = rows[0] as Record<keyof PgWork, string>;
      return {
        statements: Number(r.statements),
        inserted: Number(r.inserted),
        updated: Number(r.updated),
        deleted: Number(r.deleted),
        buffers: Number(r.buffers),
      };
    },
    per(a: PgWork, b: PgWork, n: number): PgWork {
      const k = (key: keyof PgWork) => (b[key] - a[key]) / n;
      return {
        statements: k('statements'),
        inserted: k('inserted'),
        updated: k('updated'),
        deleted: k('deleted'),
        buffers: k('buffers'),
      };
    },
    async stop() {
      await client.end();
    },
  };
}

/**
 * One webhook endpoint of the bench account (enabled or not per run), subscribed to message.delivered, POSTing to
 * a counting receiver on 127.0.0.1 that notes when the first and the last event arrived. With BENCH_WEBHOOK_DRAIN
 * the sender processes run the webhook worker too (dispatcher + delivery lanes), as `carteiro worker` does.
 */
async function startWebhookBench(database: Database) {
  let received = 0;
  let firstAt = 0;
  let lastAt = 0;
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received++;
      lastAt = Date.now();
      if (received === 1) firstAt = lastAt;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const box = createSecretBox(BENCH_SECRET);
  const endpointUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook`;
  let endpointId: string | null = null;
  return {
    async subscribe(accountId: string, on: boolean) {
      received = 0;
      firstAt = 0;
      lastAt = 0;
      if (!endpointId) {
        const [row] = await database.db
          .insert(webhookEndpoints)
          .values({
            accountId,
            url: endpointUrl,
            eventTypes: ['message.delivered'],
            secretCiphertext: box.seal(generateWebhookSecret()),
          })
          .returning();
        endpointId = row?.id ?? null;
      }
      await database.db
        .update(webhookEndpoints)
        .set({ enabled: on })
        .where(eq(webhookEndpoints.id, endpointId as string));
    },
    /**
     * After the campaign is sent: waits (≤ 5 min) for every delivered message's event at the receiver, then
     * the lag of the last event behind the last message delivered (messages.sent_at) and the events' rate.
     */
    async drained(campaignId: string, sent: number, engineRate: number): Promise<string> {
      const deadline = Date.now() + 300_000;
      while (received < sent && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      const [row] = await database.db
        .execute<{ last: string }>(
          sql`select (extract(epoch from max(sent_at)) * 1000)::float8 as last from messages
               where campaign_id = ${campaignId}`,
        )
        .then((r) => (r as unknown as { rows: { last: string }[] }).rows);
      const lastDelivered = Number(row?.last);
      const rate = received / Math.max(0.001, (lastAt - firstAt) / 1000);
      const lag = (lastAt - lastDelivered) / 1000;
      // The keep-pace bar: every event at the receiver, the last ≤ 10 s after the last message, events/s ≥ msg/s.
      const met = received >= sent && lag <= 10 && rate >= engineRate;
      return (
        `webhook events ${received}/${sent} at the receiver, the last ${lag.toFixed(1)} s ` +
        `after the last message delivered, ${Math.round(rate)} events/s (engine ${Math.round(engineRate)} msg/s, ` +
        `events/engine ${(rate / engineRate).toFixed(2)}) — keeps pace (all, ≤ 10 s, ≥ 1.00): ${met ? 'met' : 'MISSED'}`
      );
    },
    async stats() {
      const [row] = await database.db
        .execute<{ batches: number; events: number }>(
          sql`select (select count(*)::int from webhook_event_batches) as batches,
                     (select count(*)::int from webhook_events) as events`,
        )
        .then((r) => (r as unknown as { rows: { batches: number; events: number }[] }).rows);
      return `(outbox so far: ${row?.batches ?? 0} engine batches, ${row?.events ?? 0} events)`;
    },
    async stop() {
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    },
  };
}

/**
 * The sender child as production runs the worker: this file bundled with esbuild the way server/build.mjs bundles
 * the server — the signing and render threads as their own compiled entries beside it (threads/worker-entry.ts
 * finds them there) — and started with plain node, so its RSS is the worker's and not tsx's loader's (which
 * every thread started from source loads again). Next to the built server, so node_modules resolve.
 */
async function bundleSender(): Promise<string> {
  const { build } = await import('esbuild');
  const here = path.dirname(fileURLToPath(import.meta.url));
  const outdir = path.resolve(here, '../server/dist/bench-send');
  await build({
    entryPoints: {
      'bench-send': fileURLToPath(import.meta.url),
      'dkim-sign-worker': path.resolve(here, '../server/src/modules/sending/dkim/dkim-sign-worker.ts'),
      'render-worker': path.resolve(here, '../server/src/modules/templates/render-worker.ts'),
    },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    alias: { '@carteiro/shared': path.resolve(here, '../shared/src/index.ts') },
    logLevel: 'warning',
  });
  return path.join(outdir, 'bench-send.js');
}

if (process.argv[2] === 'sender') await senderChild();
else if (process.env.BENCH_STAGES_ONLY) console.log(stageCosts());
else await main();
