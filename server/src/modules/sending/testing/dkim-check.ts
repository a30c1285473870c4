import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import type { SendingEngine } from '../../../worker/sending-engine';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, dkimDnsRecord } from '../dkim/dkim-signer';
import { messages } from '../messages.db';
import { runEngineUntil } from './engine-harness';

const { dkimVerify } = createRequire(import.meta.url)('mailauth/lib/dkim/verify') as {
  dkimVerify: (
    input: Buffer,
    options: { resolver: (name: string, type: string) => Promise<string[][]> },
  ) => Promise<{ results: Array<{ status: { result: string } }> }>;
};

const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A DKIM signer for loja.com.br (selector tx, a fresh ed25519 key): give it to `newSender({ signers })`. */
export const lojaSigner = createDkimSigner({
  domain: 'loja.com.br',
  selector: 'tx',
  privateKeyPem: pem,
  algorithm: 'ed25519-sha256',
  headerNames: DEFAULT_SIGNED_HEADERS,
});

/** mailauth's verdicts on a raw message signed by lojaSigner (its key answered by a resolver, no DNS). */
export const dkimResults = async (raw: Buffer) =>
  (
    await dkimVerify(raw, {
      resolver: async (name) => {
        if (name !== 'tx._domainkey.loja.com.br') throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
        return [[dkimDnsRecord(pem)]];
      },
    })
  ).results.map((r) => r.status.result);

/** Ticks the engine until none of these messages is queued. */
export async function drainMessages(db: Db, sender: SendingEngine, ids: number[]): Promise<void> {
  await runEngineUntil(
    sender,
    async () => {
      const rows = await db
        .select({ status: messages.status })
        .from(messages)
        .where(sql`${messages.id} = any(${`{${ids.join(',')}}`}::bigint[])`);
      return rows.every((r) => r.status !== 'queued');
    },
    'no message queued',
    { pauseMs: 0 },
  );
}
