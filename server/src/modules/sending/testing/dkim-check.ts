import { generateKeyPairSync } from 'node:crypto';
import { createRequire } from 'node:module';
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import type { SendingEngine } from '../../../worker/sending-engine';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, dkimDnsRecord } from '../dkim/dkim-signer';
import { messages } from '../messages.db';
import { runEngineUntil } from './engine-harness';

/** How mailauth finds a selector's key: TXT records by name, as arrays of strings. */
export type DkimResolver = (name: string, type: string) => Promise<string[][]>;

/** One DKIM signature's verdict, and the headers it covers. */
export interface DkimResult {
  status: { result: string; comment?: string };
  signingDomain?: string;
  selector?: string;
  signingHeaders?: { keys: string };
}

const { dkimVerify } = createRequire(import.meta.url)('mailauth/lib/dkim/verify') as {
  dkimVerify: (input: Buffer, options: { resolver: DkimResolver }) => Promise<{ results: DkimResult[] }>;
};

/** A resolver that answers these TXT records by name, and ENOTFOUND for anything else: a test never asks DNS. */
export function recordsResolver(records: Record<string, string> | ReadonlyMap<string, string>): DkimResolver {
  const byName = records instanceof Map ? records : new Map(Object.entries(records));
  return async (name, type) => {
    const record = type === 'TXT' ? byName.get(name) : undefined;
    if (record === undefined) throw Object.assign(new Error(`no ${type} ${name}`), { code: 'ENOTFOUND' });
    return [[record]];
  };
}

const pem = generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

/** A DKIM signer for loja.com.br (selector tx, a fresh ed25519 key): give it to `newSender({ signers })`. */
export const lojaSigner = createDkimSigner({
  domain: 'loja.com.br',
  selector: 'tx',
  privateKeyPem: pem,
  algorithm: 'ed25519-sha256',
  headerNames: DEFAULT_SIGNED_HEADERS,
});

const lojaResolver = recordsResolver({ 'tx._domainkey.loja.com.br': dkimDnsRecord(pem) });

/** mailauth's results on a raw message, its keys from `resolver` (by default lojaSigner's key). */
export async function verifyDkim(raw: Buffer, resolver: DkimResolver = lojaResolver): Promise<DkimResult[]> {
  return (await dkimVerify(raw, { resolver })).results;
}

/** mailauth's verdicts on a raw message (`pass`…), its keys from `resolver` (by default lojaSigner's key). */
export const dkimResults = async (raw: Buffer, resolver?: DkimResolver) =>
  (await verifyDkim(raw, resolver)).map((r) => r.status.result);

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
