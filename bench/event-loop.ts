/**
 * npm run bench:event-loop — what a hostile template does to the server's event loop (a benchmark, not a test):
 *
 *   BENCH_HOSTILE_REQUESTS=6 npm run bench:event-loop
 *
 * The real app (buildApp, embedded PGlite, listening on 127.0.0.1) serves the public viewer of a sent campaign
 * whose template is hostile; a client process fires BENCH_HOSTILE_REQUESTS of them at once while it probes
 * `/healthz` every 20 ms over HTTP, and perf_hooks.monitorEventLoopDelay samples the server's loop. Rounds back to back in one process,
 * after a baseline round with an ordinary template (what the loaded box itself adds):
 *
 * 1. before — the viewer as it was: liquidjs on the event loop, limited only by its 1 s render limit (no loop
 *    budget), for the nested loop the issue reported (a million iterations);
 * 2. after — the same request through today's route: the loop budget stops that template after 10,000 iterations,
 *    in a render thread;
 * 3. after, slow template — within the loop and memory budgets but a second of sorting per render: liquidjs's 1 s
 *    render limit stops it inside the render thread (the thread's deadline, TEMPLATE_RENDER_DEADLINE_MS = 2 s, is
 *    the backstop for whatever the render limit cannot interrupt).
 *
 * Then the engine's own path: BENCH_RENDERS renders of an ordinary newsletter in-process vs through the render
 * pool, the reason the sending engine keeps rendering in-process.
 */

import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { Liquid } from 'liquidjs';
import pino from 'pino';
import { buildApp } from '../server/src/app';
import { loadConfig } from '../server/src/config';
import { openDatabase } from '../server/src/db/database';
import { campaigns } from '../server/src/modules/campaigns/campaigns.db';
import { buildScope, compileCampaign, renderMessage } from '../server/src/modules/templates/render-message';
import { STARTER_TEMPLATES } from '../server/src/modules/templates/starter-templates';
import { closeUntrustedRendering, renderUntrusted } from '../server/src/modules/templates/untrusted-render';
import { createPlatformMailer } from '../server/src/worker/sending-runtime';
import { createTestAccount } from '../server/test/support/test-account';

const HOSTILE_REQUESTS = Number(process.env.BENCH_HOSTILE_REQUESTS ?? 6);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 2000);

const NESTED =
  '<p>Oi</p>{% for i in (1..1000) %}{% for j in (1..1000) %}{{ j }}{% endfor %}{% endfor %}<a href="{{ link_descadastro }}">Sair</a>';
const SLOW = `{% assign a = "${'jihgfedcba'.repeat(50)}" | split: "" %}{% for i in (1..9900) %}{% assign b = a | sort | reverse %}{% endfor %}{{ b | first }}`;

const ms = (n: number) => n.toFixed(0);

interface Round {
  label: string;
  wallMs: number;
  loopMaxMs: number;
  loopP99Ms: number;
  healthMaxMs: number;
  healthAnswered: number;
}

/**
 * The client side, in its own process (so its clock is not the server's blocked loop): fires the hostile
 * requests at once while probing `/healthz` every 20 ms, and reports the timings.
 */
async function clientProcess(): Promise<void> {
  const { base, url } = JSON.parse(process.env.BENCH_CLIENT as string) as { base: string; url: string };
  // Started (tsx compiled this file): wait for the server's go, so our start-up is not in its measurement.
  await new Promise((resolve) => {
    process.once('message', resolve);
    process.send?.('ready');
  });
  const healthTimes: number[] = [];
  let running = true;
  const probe = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${base}/healthz`);
      healthTimes.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  await new Promise((resolve) => setTimeout(resolve, 100));
  const started = performance.now();
  await Promise.all(Array.from({ length: HOSTILE_REQUESTS }, () => fetch(`${base}${url}`).then((r) => r.text())));
  const wallMs = performance.now() - started;
  running = false;
  await probe;
  process.send?.({ wallMs, healthMaxMs: Math.max(...healthTimes), healthAnswered: healthTimes.length });
}

async function round(label: string, base: string, url: string): Promise<Round> {
  const histogram = monitorEventLoopDelay({ resolution: 10 });
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_CLIENT: JSON.stringify({ base, url }) },
  });
  const result = await new Promise<{ wallMs: number; healthMaxMs: number; healthAnswered: number }>(
    (resolve, reject) => {
      child.on('message', (message) => {
        if (message !== 'ready') return resolve(message as never);
        histogram.enable();
        child.send('go');
      });
      child.once('exit', (code) => reject(new Error(`client exited with ${code}`)));
    },
  );
  child.kill();
  // Let the loop take its next samples (the last block is recorded when the loop turns again).
  await new Promise((resolve) => setTimeout(resolve, 100));
  histogram.disable();
  return {
    label,
    ...result,
    loopMaxMs: histogram.max / 1e6,
    loopP99Ms: histogram.percentile(99) / 1e6,
  };
}

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-bench-loop-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    MAIL_CATCHER: 'off',
    SMTP_URL: 'smtp://127.0.0.1:9',
    AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-01',
  });
  const logger = pino({ level: 'silent' });
  const database = await openDatabase({ kind: 'pglite', dataDir: null });
  await database.migrate();
  const mailer = createPlatformMailer({ config, db: database.db, smtpUrl: config.SMTP_URL as string, logger });
  const app = await buildApp({ config, database, mailer, logger, webDistDir: null });

  // "before": the viewer's old body — liquidjs on the event loop with its 1 s render limit and no loop budget.
  const oldEngine = new Liquid({ renderLimit: 1_000, memoryLimit: 20_000_000, outputEscape: 'escape' });
  app.get('/bench/inline-viewer/:id', async (request) => {
    const [campaign] = await database.db
      .select()
      .from(campaigns)
      .where(eq(campaigns.id, (request.params as { id: string }).id));
    try {
      return { html: await oldEngine.parseAndRenderSync(campaign?.template ?? '', {}) };
    } catch {
      return { html: '' };
    }
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });

  const account = await createTestAccount(database.db);
  const campaignWith = async (template: string) => {
    const [row] = await database.db
      .insert(campaigns)
      .values({
        uuid: randomUUID(),
        createdBy: account.id,
        name: 'Hostil',
        subject: 'Oi',
        template,
        status: 'sent',
        startedAt: new Date(),
      })
      .returning({ id: campaigns.id });
    return row?.id as string;
  };
  const nested = await campaignWith(NESTED);
  const slow = await campaignWith(SLOW);
  const ordinary = await campaignWith('<p>Olá, {{ contato.nome | default: "cliente" }}</p>');
  // Warm the render threads (their start-up is not what is measured).
  await fetch(`${base}/api/public/campaigns/${ordinary}/html`);

  console.info(
    `node ${process.version}, ${os.cpus().length} cores; ${HOSTILE_REQUESTS} hostile viewer requests at once`,
  );
  const rounds = [
    await round("baseline: an ordinary template (the box's own noise)", base, `/api/public/campaigns/${ordinary}/html`),
    await round('before: nested loop on the event loop (1 s render limit)', base, `/bench/inline-viewer/${nested}`),
    await round('after: nested loop, loop budget + render thread', base, `/api/public/campaigns/${nested}/html`),
    await round('after: a second of sorting within budget, render thread', base, `/api/public/campaigns/${slow}/html`),
  ];
  for (const r of rounds) {
    console.info(
      `${r.label}\n  all answered in ${ms(r.wallMs)} ms; event-loop delay max ${ms(r.loopMaxMs)} ms, p99 ${ms(r.loopP99Ms)} ms; /healthz slowest ${ms(r.healthMaxMs)} ms (${r.healthAnswered} answered)`,
    );
  }

  // The engine's path: an ordinary newsletter, in-process vs through the pool.
  const starter = STARTER_TEMPLATES[0] as { subject: string; html: string };
  const source = { subject: starter.subject, html: starter.html };
  const scope = buildScope(
    { email: 'maria@exemplo.com.br', name: 'Maria', fields: { cidade: 'Recife' } },
    { name: 'Padaria' },
    { unsubscribeUrl: 'https://x.test/u/1', browserUrl: 'https://x.test/v/1' },
  );
  const compiled = compileCampaign(source);
  let started = performance.now();
  for (let i = 0; i < RENDERS; i++) renderMessage(compiled, scope);
  const inProcessMs = performance.now() - started;
  started = performance.now();
  for (let i = 0; i < RENDERS; i += 8) {
    await Promise.all(Array.from({ length: Math.min(8, RENDERS - i) }, () => renderUntrusted(source, scope)));
  }
  const pooledMs = performance.now() - started;
  console.info(
    `engine path, ${RENDERS} renders of the newsletter starter: in-process ${ms(inProcessMs)} ms (${ms((RENDERS / inProcessMs) * 1000)}/s), through the pool ${ms(pooledMs)} ms (${ms((RENDERS / pooledMs) * 1000)}/s): ${(pooledMs / inProcessMs).toFixed(1)}× slower`,
  );

  await app.close();
  await closeUntrustedRendering();
  mailer.close();
  await database.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

if (process.env.BENCH_CLIENT) await clientProcess();
else await main();
