import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMimeMessage, createMessageFrame } from '../mime/build-message';
import { DKIM_DOMAIN, dkimProblems } from '../wire/wire-check';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, type DkimSigner, dkimDnsRecord } from './dkim-signer';
import { createDkimSigningPool, type DkimSigningPool } from './signing-pool';

/** A fixed signing time, so `t=` is the same on the threads and on this thread. */
const NOW = Date.parse('2026-11-25T12:00:00Z');

function signer(algorithm: 'rsa-sha256' | 'ed25519-sha256', selector: string): { signer: DkimSigner; record: string } {
  const pem = String(
    (algorithm === 'rsa-sha256'
      ? generateKeyPairSync('rsa', { modulusLength: 2048 })
      : generateKeyPairSync('ed25519')
    ).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  );
  return {
    signer: createDkimSigner({
      domain: DKIM_DOMAIN,
      selector,
      privateKeyPem: pem,
      algorithm,
      headerNames: [...DEFAULT_SIGNED_HEADERS, 'feedback-id'],
      now: () => NOW,
    }),
    record: dkimDnsRecord(pem),
  };
}

/** Messages as the engine builds them, of many sizes and shapes, and a few hand-written ones. */
function messages(count: number): Buffer[] {
  const frame = createMessageFrame({
    fromEmail: `loja@${DKIM_DOMAIN}`,
    fromName: 'Padaria São João',
    listId: 'ofertas.carteiro.test',
    feedbackId: 'c1:a1:campaign:carteiro',
    messageIdDomain: DKIM_DOMAIN,
  });
  const built = Array.from({ length: count }, (_, i) =>
    buildMimeMessage(frame, {
      messageId: `m${i}`,
      to: `pessoa${i}@exemplo.com.br`,
      toName: i % 3 === 0 ? `José da Silva ${i}` : undefined,
      subject: `Ofertas de verão nº ${i} — até ${i % 90}% off ${'pão de queijo '.repeat(i % 7)}`,
      unsubscribeUrl: `https://carteiro.test/u/${i.toString(16).padStart(40, '0')}`,
      text: `Olá!\n${'Promoção imperdível. '.repeat(1 + (i % 40))}\n\n`,
      html: `<p>Olá, <b>cliente</b>!</p>${'<p>Ação válida até domingo.</p>'.repeat(1 + ((i * 7) % 60))}`,
    }),
  );
  // Bodies that relaxed canonicalisation changes (tabs, runs of spaces, trailing spaces and empty lines).
  const handWritten = [
    'From: loja@padaria.com.br\r\nTo: a@exemplo.com.br\r\nSubject: Tabs\r\nList-Unsubscribe: <https://carteiro.test/u/x>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n\r\na\tb  c \r\n\r\n\r\n',
    'From: loja@padaria.com.br\r\nTo: a@exemplo.com.br\r\nSubject:   Espaços   no   assunto\r\nList-Unsubscribe: <https://carteiro.test/u/y>\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n\r\nfim sem quebra  ',
  ].map((text) => Buffer.from(text, 'latin1'));
  return [...built, ...handWritten];
}

describe('the DKIM signing pool', () => {
  const rsa = signer('rsa-sha256', 'carteiro');
  const ed = signer('ed25519-sha256', 'carteiro-ed');
  const records = new Map([
    [`carteiro._domainkey.${DKIM_DOMAIN}`, rsa.record],
    [`carteiro-ed._domainkey.${DKIM_DOMAIN}`, ed.record],
  ]);
  const batch = messages(120);
  let pool: DkimSigningPool;

  beforeAll(() => {
    // Small chunks so a batch is spread over both threads and several chunks each.
    pool = createDkimSigningPool({ threads: 2, chunkSize: 7 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it.each([
    ['RSA-2048', [rsa.signer]],
    ['Ed25519', [ed.signer]],
    ['Ed25519 + RSA-2048 (dual)', [ed.signer, rsa.signer]],
  ] as const)(
    '%s: byte for byte what the single-thread signer gives, and mailauth verifies every message',
    async (_name, signers) => {
      const pooled = await pool.signAll(signers, batch);
      const single = batch.map((raw) => signers.reduce((out, s) => s.sign(out), raw));
      expect(pooled).toHaveLength(batch.length);
      for (let i = 0; i < batch.length; i++) {
        expect(pooled[i]?.equals(single[i] as Buffer), `message ${i}`).toBe(true);
        // The message itself is untouched after the signature headers.
        const out = pooled[i] as Buffer;
        expect(out.subarray(out.length - (batch[i] as Buffer).length).equals(batch[i] as Buffer)).toBe(true);
      }
      for (const raw of pooled) expect(await dkimProblems(raw, records, signers.length)).toEqual([]);
    },
  );

  it('hands back views of the chunk a thread signed in place: the batch is not copied again', async () => {
    const pooled = await pool.signAll([rsa.signer], batch.slice(0, 7));
    // One chunk (chunkSize 7): every signed message lies in the one buffer the thread handed back, in order.
    const shared = pooled[0]?.buffer;
    expect(pooled.every((m) => m.buffer === shared)).toBe(true);
    expect(batch.slice(0, 7).some((m) => m.buffer === shared)).toBe(false);
    for (let i = 1; i < pooled.length; i++) {
      expect((pooled[i] as Buffer).byteOffset).toBeGreaterThan((pooled[i - 1] as Buffer).byteOffset);
    }
    expect(pooled.map((m, i) => m.equals(rsa.signer.sign(batch[i] as Buffer)))).not.toContain(false);
  });

  it('prepends on this thread the signature lines longer than the room left for them', async () => {
    // 400 bytes per signer: the Ed25519 lines (~380) fit in front of one, Ed25519 + RSA-2048 (~1,020) in 800 do not.
    const tight = createDkimSigningPool({ threads: 1, chunkSize: 7, signatureRoom: 400 });
    try {
      // A few built messages and the hand-written ones (shorter header lists).
      const some = [...batch.slice(0, 12), ...batch.slice(-2)];
      for (const signers of [[ed.signer], [ed.signer, rsa.signer]]) {
        const pooled = await tight.signAll(signers, some);
        for (let i = 0; i < some.length; i++) {
          const single = signers.reduce((out, s) => s.sign(out), some[i] as Buffer);
          expect(pooled[i]?.equals(single), `message ${i}`).toBe(true);
        }
        for (const raw of pooled) expect(await dkimProblems(raw, records, signers.length)).toEqual([]);
      }
      // What fitted is a view of the chunk handed back, the room of the messages around it included.
      const fitted = await tight.signAll([ed.signer], batch.slice(0, 2));
      expect(fitted[0]?.buffer).toBe(fitted[1]?.buffer);
      expect(fitted[0]?.buffer.byteLength).toBe(2 * 400 + (batch[0]?.length ?? 0) + (batch[1]?.length ?? 0));
    } finally {
      await tight.close();
    }
  });

  it('keeps the order of concurrent batches and of a signer first seen later', async () => {
    const other = signer('rsa-sha256', 'outra');
    const [a, b, c] = await Promise.all([
      pool.signAll([rsa.signer], batch.slice(0, 40)),
      pool.signAll([other.signer], batch.slice(40, 80)),
      pool.signAll([ed.signer, other.signer], batch.slice(80)),
    ]);
    expect(a?.map((m, i) => m.equals(rsa.signer.sign(batch[i] as Buffer)))).not.toContain(false);
    expect(b?.map((m, i) => m.equals(other.signer.sign(batch[40 + i] as Buffer)))).not.toContain(false);
    expect(c?.map((m, i) => m.equals(other.signer.sign(ed.signer.sign(batch[80 + i] as Buffer))))).not.toContain(false);
  });

  it('signs on its threads, not on the calling one', async () => {
    const { signer: onThreads } = signer('rsa-sha256', 'carteiro');
    const expected = batch.slice(0, 10).map((raw) => onThreads.sign(raw));
    // The calling thread's copy of the signer can no longer sign: the threads' copies still do.
    const broken = onThreads as { sign: DkimSigner['sign']; signatureHeader: DkimSigner['signatureHeader'] };
    broken.sign = () => {
      throw new Error('signed on the calling thread');
    };
    broken.signatureHeader = broken.sign as never;
    const out = await pool.signAll([onThreads], batch.slice(0, 10));
    expect(out.map((m, i) => m.equals(expected[i] as Buffer))).not.toContain(false);
  });

  it('signs on the calling thread with a signer it cannot rebuild on a thread', async () => {
    const calls: number[] = [];
    const custom: DkimSigner = {
      algorithm: 'rsa-sha256',
      signatureHeader: (raw) => {
        calls.push(raw.length);
        return rsa.signer.signatureHeader(raw);
      },
      sign: (raw) => rsa.signer.sign(raw),
    };
    const out = await pool.signAll([custom], batch.slice(0, 5));
    expect(calls).toHaveLength(5);
    expect(out.map((m, i) => m.equals(rsa.signer.sign(batch[i] as Buffer)))).not.toContain(false);
  });

  it('passes messages through without signers, and refuses work once closed', async () => {
    expect(await pool.signAll([], batch.slice(0, 3))).toEqual(batch.slice(0, 3));
    const closing = createDkimSigningPool({ threads: 1 });
    expect(closing.threads).toBe(1);
    await closing.close();
    await expect(closing.signAll([rsa.signer], batch.slice(0, 1))).rejects.toThrow('closed');
  });
});
