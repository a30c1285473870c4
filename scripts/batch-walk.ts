/**
 * "A batch's walk through the code", measured (ADR 0036): one campaign batch of 50 messages through the real engine
 * (PGlite, loopback relay), with V8's precise coverage counting every function entry of server/src between the
 * claim and the recorded outcome. Prints the files whose code ran for the batch and the function entries per file.
 * The campaign's one-time preparation (template compile, tracking plan) is done by a first batch, not counted.
 *
 *   node --import tsx scripts/batch-walk.ts
 */
import { Session } from 'node:inspector/promises';
import path from 'node:path';
import pino from 'pino';

const ROOT = path.resolve(import.meta.dirname, '..');
const BATCH = 50;

async function importFirst<T>(...candidates: string[]): Promise<T> {
  for (const candidate of candidates) {
    try {
      return (await import(candidate)) as T;
    } catch {}
  }
  throw new Error(`none of ${candidates.join(', ')}`);
}

// Coverage runs from before the server's code is loaded: V8 then counts every call, also in functions it would
// otherwise have optimised (and inlined) before the measured batch.
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const { signUp } = await import('../server/test/support/sign-in');
const { createTestApp } = await import('../server/test/support/test-app');
const t = await createTestApp('pglite');
const { SendingEngine } = await import('../server/src/worker/sending-engine');
const { createRelayTransport } = await import('../server/src/worker/sending-runtime');
const fixtures = await import('../server/src/modules/sending/testing/send-fixtures');
const { startSmtpSink } = await import('../server/src/modules/sending/testing/smtp-sink');
const { startCampaignSend } = await importFirst<typeof import('../server/src/modules/campaigns/start-campaign-send')>(
  '../server/src/modules/campaigns/start-campaign-send',
  '../server/src/modules/sending/start-campaign-send',
);

const db = t.database.db;
const sink = await startSmtpSink();
const user = await signUp(t);
await fixtures.creditAccount(db, user.accountId, 10_000_000);
const emails = Array.from({ length: BATCH * 2 }, (_, i) => `pessoa-${i}@destino.com.br`);
const { listId } = await fixtures.createListWithContacts(db, user.accountId, emails, { cidade: 'Recife' });
const id = await fixtures.createReadyCampaign(db, user.accountId, { includeListIds: [listId] });
await startCampaignSend(db, user.accountId, id, { emailVerified: true });
const transport = createRelayTransport(sink.url, 1);
const sender = new SendingEngine({
  db,
  transports: [transport],
  settings: fixtures.testSenderSettings({ batchSize: BATCH }),
  logger: pino({ level: 'silent' }),
  mailer: null,
});
if ((await sender.campaigns.sendCampaignBatch(id)) !== BATCH) throw new Error('warm-up batch not sent');

await session.post('Profiler.takePreciseCoverage'); // resets the counters
if ((await sender.campaigns.sendCampaignBatch(id)) !== BATCH) throw new Error('measured batch not sent');
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');

const perFile = new Map<string, number>();
for (const script of result) {
  // ES modules report a file:// URL, CommonJS ones (tsx loads some files that way) a plain path.
  const file = path.relative(ROOT, script.url.startsWith('file://') ? new URL(script.url).pathname : script.url);
  // The loopback relay runs in this process too: its code is not the batch's walk.
  if ((!file.startsWith('server/src/') && !file.startsWith('shared/src/')) || file.includes('/testing/')) continue;
  // Each function's first range counts its entries; the range starting at offset 0 is the module's own body.
  const entries = script.functions
    .filter((f) => f.ranges[0]?.startOffset !== 0)
    .reduce((sum, f) => sum + (f.ranges[0]?.count ?? 0), 0);
  if (entries > 0) perFile.set(file, entries);
}
const rows = [...perFile].sort((a, b) => b[1] - a[1]);
for (const [file, entries] of rows) console.info(`${String(entries).padStart(7)}  ${file}`);
console.info(
  `files: ${rows.length}, function entries: ${rows.reduce((s, [, n]) => s + n, 0)} (one batch of ${BATCH} messages)`,
);
await transport.close();
await sink.close();
await t.close();
