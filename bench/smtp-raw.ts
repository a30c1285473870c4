/**
 * SMTP transport benchmark (not a test):
 *
 *   npx tsx bench/smtp-raw.ts            (BENCH_MESSAGES=30000 BENCH_SENDERS=1 BENCH_CONNECTIONS=8)
 *
 * Forks the smtp sink (bench/smtp-sink.ts) as a child process on 127.0.0.1, then measures in one run:
 *  (a) the sink's raw acceptance rate with the pipelining SmtpPool sending pre-built ~6 KB messages;
 *  (b) build + sign + send of ~6 KB pt-BR messages (per-recipient subject, name and 10 tracked links) with DKIM
 *      off, RSA-2048 and Ed25519;
 *  (c) CPU µs per message (sender processes and sink, process.cpuUsage) and the senders' peak RSS;
 * plus single-thread micro-benchmarks of the MIME build and of each signature.
 * Senders are child processes (BENCH_SENDERS of them) so the sink and the senders can use both cores.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { createDkimSigner, type DkimAlgorithm, type DkimSigner } from '../server/src/modules/sending/dkim/dkim-signer';
import {
  buildMimeMessage,
  createMessageFrame,
  type MessageFrame,
} from '../server/src/modules/sending/mime/build-message';
import { createSmtpPool } from '../server/src/modules/sending/smtp/smtp-pool';
import type { WireMessage } from '../server/src/modules/sending/transport';

type Mode = 'raw' | 'off' | DkimAlgorithm;
interface SenderResult {
  sent: number;
  failed: number;
  cpuMicros: number;
  peakRss: number;
}

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 30_000);
const SENDERS = Number(process.env.BENCH_SENDERS ?? 1);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const BATCH = 500;
const IN_FLIGHT_BATCHES = 4;

// ---------------------------------------------------------------- a realistic ~6 KB pt-BR message
const FIRST_NAMES = ['Maria', 'João', 'Conceição', 'Antônio', 'Lúcia', 'Sebastião', 'Inês', 'José'];
const htmlParts: string[] = [];
{
  let html = `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Promoção</title></head>
<body style="margin:0;padding:0;background:#f4f1ea;font-family:Arial,Helvetica,sans-serif;color:#333">
<div style="display:none;max-height:0;overflow:hidden">Só até domingo: pães artesanais com 20% de desconto</div>
<table role="presentation" width="100%" cellpadding="0" cellspacing="0"><tr><td align="center">`;
  htmlParts.push(html);
  html = '';
  for (let i = 0; i < 10; i++) {
    html += `<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="background:#fff;margin:12px 0">
<tr><td style="padding:16px 24px;font-size:15px;line-height:22px">
<h2 style="margin:0 0 8px;color:#8a4b14">Oferta nº ${i + 1}: pão de queijo, broa de milho e café coado</h2>
<p style="margin:0 0 12px">Receita tradicional da família, sem conservantes. Aproveite!</p>
<a href="https://carteiro.app/l/`;
    htmlParts.push(html);
    html = `/${i}" style="display:inline-block;padding:10px 18px;background:#8a4b14;color:#fff;text-decoration:none;border-radius:4px">Quero aproveitar</a>
</td></tr></table>`;
  }
  htmlParts.push(
    `${html}<p style="font-size:12px;color:#777">Você recebeu este e-mail porque se cadastrou na Padaria São João.
<a href="https://carteiro.app/u/`,
  );
  htmlParts.push(`">Cancelar inscrição</a></p><img src="https://carteiro.app/o/`);
  htmlParts.push(`.gif" width="1" height="1" alt=""></td></tr></table></body></html>`);
}
const TEXT = `Olá, {nome}!\n\nSó até domingo: pães artesanais com 20% de desconto na Padaria São João.\n${'Pão de queijo, broa de milho, café coado e bolo de fubá — feitos hoje cedo.\n'.repeat(4)}\nPara cancelar: {u}\n`;

function render(i: number) {
  const token = `t${i.toString(36)}x${(i * 2654435761) % 1e9}`;
  const name = FIRST_NAMES[i % FIRST_NAMES.length]!;
  let html = htmlParts[0]!.replace('<body', `<body data-n="${name}"`);
  for (let k = 1; k <= 10; k++) html += htmlParts[k]! + token;
  html += htmlParts[11]! + token + htmlParts[12]! + token + htmlParts[13]!;
  return {
    messageId: token,
    to: `cliente${i}@exemplo.com.br`,
    toName: `${name} da Silva`,
    subject: `${name}, Promoção de Natal: 20% em pães e doces`,
    unsubscribeUrl: `https://carteiro.app/u/${token}`,
    text: TEXT.replace('{nome}', name).replace('{u}', `https://carteiro.app/u/${token}`),
    html,
    envelopeFrom: `b+${token}@bounces.carteiro.app`,
  };
}

function campaignFrame(): MessageFrame {
  return createMessageFrame({
    fromEmail: 'ofertas@padaria.com.br',
    fromName: 'Padaria São João',
    replyTo: 'contato@padaria.com.br',
    listId: 'c1.lists.carteiro.app',
    listName: 'Novidades da Padaria',
    feedbackId: 'c1:a1:campaign:carteiro',
    messageIdDomain: 'carteiro.app',
  });
}

function wire(frame: MessageFrame, signer: DkimSigner | null, i: number): WireMessage {
  const r = render(i);
  const raw = buildMimeMessage(frame, r);
  return { id: String(i), envelopeFrom: r.envelopeFrom, recipient: r.to, raw: signer ? signer.sign(raw) : raw };
}

// ---------------------------------------------------------------- sender child process
async function runSender(port: number, mode: Mode, from: number, count: number, keyPem: string | null) {
  let peakRss = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }, 20);
  const frame = campaignFrame();
  const signer =
    keyPem && (mode === 'rsa-sha256' || mode === 'ed25519-sha256')
      ? createDkimSigner({ domain: 'padaria.com.br', selector: 'c1', privateKeyPem: keyPem, algorithm: mode })
      : null;
  const pool = createSmtpPool({ host: '127.0.0.1', port, connections: CONNECTIONS, startTls: 'never' });
  const prebuilt = mode === 'raw' ? Array.from({ length: count }, (_, k) => wire(frame, null, from + k)) : null;
  process.send?.({ type: 'ready' });
  await new Promise<void>((resolve) => process.once('message', () => resolve()));
  const cpu0 = process.cpuUsage();
  let sent = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  for (let start = 0; start < count; start += BATCH) {
    const end = Math.min(count, start + BATCH);
    const batch = prebuilt
      ? prebuilt.slice(start, end)
      : Array.from({ length: end - start }, (_, k) => wire(frame, signer, from + start + k));
    const p = pool.deliver(batch).then((outcomes) => {
      for (const o of outcomes) o.kind === 'sent' ? sent++ : failed++;
    });
    const tracked = p.then(() => {
      inFlight.delete(tracked);
    });
    inFlight.add(tracked);
    if (inFlight.size >= IN_FLIGHT_BATCHES) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  const cpu = process.cpuUsage(cpu0);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  await pool.close();
  const result: SenderResult = { sent, failed, cpuMicros: cpu.user + cpu.system, peakRss };
  process.send?.({ type: 'done', result });
}

// ---------------------------------------------------------------- orchestration
function onceMessage<T>(child: ChildProcess, type: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (msg: { type: string }) => {
      if (msg.type === type) {
        child.off('message', listener);
        resolve(msg as T);
      }
    };
    child.on('message', listener);
  });
}

async function sinkStats(sink: ChildProcess) {
  const reply = onceMessage<{ accepted: number; cpuMicros: number }>(sink, 'stats');
  sink.send({ type: 'stats' });
  return reply;
}

async function scenario(sink: ChildProcess, port: number, mode: Mode, keyPem: string | null) {
  const per = Math.ceil(MESSAGES / SENDERS);
  const children = Array.from({ length: SENDERS }, (_, s) =>
    fork(new URL(import.meta.url).pathname, [], {
      env: {
        ...process.env,
        BENCH_ROLE: 'sender',
        BENCH_PORT: String(port),
        BENCH_MODE: mode,
        BENCH_FROM: String(s * per),
        BENCH_COUNT: String(Math.min(per, MESSAGES - s * per)),
        BENCH_KEY: keyPem ?? '',
      },
    }),
  );
  await Promise.all(children.map((c) => onceMessage(c, 'ready')));
  const before = await sinkStats(sink);
  const done = children.map((c) => onceMessage<{ result: SenderResult }>(c, 'done'));
  const t0 = performance.now();
  for (const c of children) c.send({ type: 'go' });
  const results = (await Promise.all(done)).map((d) => d.result);
  const seconds = (performance.now() - t0) / 1000;
  const after = await sinkStats(sink);
  for (const c of children) c.kill();
  const sent = results.reduce((a, r) => a + r.sent, 0);
  const failed = results.reduce((a, r) => a + r.failed, 0);
  const senderCpu = results.reduce((a, r) => a + r.cpuMicros, 0);
  return {
    mode,
    sent,
    failed,
    accepted: after.accepted - before.accepted,
    rate: sent / seconds,
    senderCpuPerMsg: senderCpu / sent,
    sinkCpuPerMsg: (after.cpuMicros - before.cpuMicros) / sent,
    peakRssMb: Math.max(...results.map((r) => r.peakRss)) / 1e6,
  };
}

function microBench(rsaPem: string, edPem: string) {
  const frame = campaignFrame();
  const rendered = Array.from({ length: 2_000 }, (_, i) => render(i));
  const time = (fn: (i: number) => unknown, n: number) => {
    for (let i = 0; i < Math.min(n, 500); i++) fn(i); // warm-up
    const t0 = performance.now();
    for (let i = 0; i < n; i++) fn(i);
    return ((performance.now() - t0) * 1000) / n;
  };
  const build = time((i) => buildMimeMessage(frame, rendered[i % rendered.length]!), 20_000);
  const sample = buildMimeMessage(frame, rendered[0]!);
  const rsa = createDkimSigner({
    domain: 'padaria.com.br',
    selector: 'c1',
    privateKeyPem: rsaPem,
    algorithm: 'rsa-sha256',
  });
  const ed = createDkimSigner({
    domain: 'padaria.com.br',
    selector: 'c1',
    privateKeyPem: edPem,
    algorithm: 'ed25519-sha256',
  });
  return {
    size: sample.length,
    build,
    rsa: time(() => rsa.sign(sample), 2_000),
    ed: time(() => ed.sign(sample), 10_000),
  };
}

async function main() {
  const rsaPem = String(
    generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  const edPem = String(generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }));

  const micro = microBench(rsaPem, edPem);
  console.log(`message size ${(micro.size / 1024).toFixed(1)} KB (QP, multipart/alternative)`);
  console.log(
    `single thread: MIME build ${micro.build.toFixed(1)} µs/msg; + RSA-2048 sign ${micro.rsa.toFixed(0)} µs; + Ed25519 sign ${micro.ed.toFixed(1)} µs`,
  );

  const sink = fork(new URL('./smtp-sink.ts', import.meta.url).pathname);
  const { port } = await onceMessage<{ port: number }>(sink, 'ready');
  console.log(
    `sink pid ${sink.pid} on 127.0.0.1:${port}; ${MESSAGES} messages, ${SENDERS} sender process(es), ${CONNECTIONS} connections each`,
  );

  const rows = [];
  for (const [mode, key] of [
    ['raw', null],
    ['off', null],
    ['rsa-sha256', rsaPem],
    ['ed25519-sha256', edPem],
  ] as const) {
    const r = await scenario(sink, port, mode, key);
    rows.push(r);
    console.log(
      `${mode.padEnd(15)} ${r.rate.toFixed(0).padStart(7)} msg/s  sent ${r.sent} failed ${r.failed} sink accepted ${r.accepted}  ` +
        `sender CPU ${r.senderCpuPerMsg.toFixed(1)} µs/msg  sink CPU ${r.sinkCpuPerMsg.toFixed(1)} µs/msg  peak RSS ${r.peakRssMb.toFixed(0)} MB`,
    );
  }
  const raw = rows[0]!.rate;
  for (const r of rows.slice(1)) console.log(`ratio ${r.mode} / raw sink rate = ${(r.rate / raw).toFixed(2)}`);
  sink.send({ type: 'exit' });
}

if (process.env.BENCH_ROLE === 'sender') {
  await runSender(
    Number(process.env.BENCH_PORT),
    process.env.BENCH_MODE as Mode,
    Number(process.env.BENCH_FROM),
    Number(process.env.BENCH_COUNT),
    process.env.BENCH_KEY || null,
  );
  process.exit(0);
} else {
  await main();
}
