/**
 * npx tsx bench/ab-snapshot.ts — what an A/B test adds to "Enviar" and to the decision (a benchmark, not a test):
 *
 *   BENCH_RECIPIENTS=100000 npm run bench:ab
 *
 * On a throwaway PostgreSQL database (created from BENCH_DATABASE_URL, default
 * postgres://postgres@127.0.0.1:5432/test, dropped at the end), one account with N contacts in one list; BENCH_ROUNDS times each:
 * startCampaignSend of a normal campaign (snapshot + reservation, one transaction) and of an A/B campaign (the
 * same, plus the shuffled order and the variant UPDATE of the test share, 20% in 3 variants), then
 * decideAbTest of that A/B campaign (counts of the test share, winner, variant UPDATE of the held 80%).
 * Prints the median of each in ms.
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { decideAbTest } from '../server/src/modules/campaigns/ab-test';
import { startCampaignSend } from '../server/src/modules/campaigns/start-campaign-send';
import {
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
} from '../server/src/modules/sending/testing/send-fixtures';
import { createTestAccount } from '../server/test/support/test-account';

const N = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

async function main() {
  process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  // Imported after the variable is set: the helper reads it when loaded.
  const { createTestDatabase } = await import('../server/test/support/test-database');
  const database = await createTestDatabase('postgres');
  try {
    const db = database.db;
    const account = await createTestAccount(db);
    await creditAccount(db, account.id, 100_000_000);
    const emails = Array.from({ length: N }, (_, i) => `pessoa${i}@destino.com.br`);
    const { listId } = await createListWithContacts(db, account.id, emails, { cidade: 'Recife' });
    const abTest = {
      variants: [
        { subject: 'B', fromName: null, template: null },
        { subject: 'C', fromName: null, template: null },
      ],
      testPercent: 20,
      criterion: 'opens' as const,
      waitHours: 1,
    };
    const normal: number[] = [];
    const ab: number[] = [];
    const decide: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const plainId = await createReadyCampaign(db, account.id, { includeListIds: [listId] });
      let t0 = performance.now();
      await startCampaignSend(db, account.id, plainId, null);
      normal.push(performance.now() - t0);
      const abId = await createReadyCampaign(db, account.id, { includeListIds: [listId], abTest });
      t0 = performance.now();
      await startCampaignSend(db, account.id, abId, null);
      ab.push(performance.now() - t0);
      t0 = performance.now();
      const decided = await decideAbTest(db, abId, new Date(Date.now() + 2 * 3_600_000));
      decide.push(performance.now() - t0);
      if (decided?.released !== N - Math.round(N * 0.2)) throw new Error(`released ${decided?.released}`);
    }
    console.log(`recipients ${N}, rounds ${ROUNDS} (median ms), load ${os.loadavg()[0]?.toFixed(1)}`);
    console.log(`  startCampaignSend normal : ${median(normal).toFixed(0)}`);
    console.log(`  startCampaignSend A/B    : ${median(ab).toFixed(0)}`);
    console.log(`  decideAbTest (80% held)  : ${median(decide).toFixed(0)}`);
  } finally {
    await database.close();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
