import { createHash, generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildMimeMessage, createMessageFrame } from '../mime/build-message';
import { type DkimResult, verifyDkim } from '../testing/dkim-check';
import {
  canonicalizeBodyRelaxed,
  canonicalizeHeaderRelaxed,
  createDkimSigner,
  dkimDnsRecord,
  relaxedBodyHash,
} from './dkim-signer';

const frame = createMessageFrame({
  fromEmail: 'loja@padaria.com.br',
  fromName: 'Padaria São João',
  listId: 'c42.lists.carteiro.app',
  feedbackId: 'c42:a7:campaign:carteiro',
  messageIdDomain: 'carteiro.app',
});

const message = buildMimeMessage(frame, {
  messageId: 'tok_1',
  to: 'maria@example.com',
  toName: 'Maria',
  subject: 'Promoção de Natal',
  unsubscribeUrl: 'https://carteiro.app/u/tok_1',
  text: 'Olá, Maria!\n.ponto no início\nAté  logo   ',
  html: '<p>Olá, <b>Maria</b>!</p>\n<p>Promoção de Natal</p>',
});

const keys = {
  'rsa-sha256': generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }),
  'ed25519-sha256': generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }),
} as const;

async function verify(raw: Buffer, record: string): Promise<DkimResult> {
  const asked: string[] = [];
  const results = await verifyDkim(raw, async (name, type) => {
    asked.push(`${type} ${name}`);
    return [[record]];
  });
  // Only the test's record is ever consulted (a body-hash mismatch fails before any lookup).
  for (const query of asked) expect(query).toBe('TXT sel1._domainkey.padaria.com.br');
  expect(results).toHaveLength(1);
  return results[0]!;
}

describe.each(['rsa-sha256', 'ed25519-sha256'] as const)('DKIM %s', (algorithm) => {
  const pem = String(keys[algorithm]);
  const signer = createDkimSigner({ domain: 'padaria.com.br', selector: 'sel1', privateKeyPem: pem, algorithm });
  const record = dkimDnsRecord(pem);

  it('signs a built message that mailauth verifies, h= covering the RFC 8058 headers', async () => {
    expect(record).toContain(algorithm === 'rsa-sha256' ? 'k=rsa' : 'k=ed25519');
    const signed = signer.sign(message);
    const header = signer.signatureHeader(message);
    const h = /h=([^;]+);/.exec(header.replace(/\r\n\s*/g, ''))?.[1]?.split(':');
    expect(h).toEqual([
      'from',
      'to',
      'subject',
      'date',
      'message-id',
      'list-unsubscribe',
      'list-unsubscribe-post',
      'list-id',
      'mime-version',
      'content-type',
    ]);
    expect(header.replace(/\r\n /g, ' ')).toContain(`a=${algorithm}; c=relaxed/relaxed; d=padaria.com.br; s=sel1;`);
    for (const line of header.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    const result = await verify(signed, record);
    expect(result.status.result).toBe('pass');
    expect(result.signingHeaders?.keys).toContain('List-Unsubscribe: List-Unsubscribe-Post');
  });

  it('fails when the body is altered', async () => {
    const signed = signer.sign(message).toString('latin1').replace('Maria!', 'Mario!');
    // mailauth reports a body-hash mismatch as 'neutral' with this comment (never 'pass').
    expect((await verify(Buffer.from(signed, 'latin1'), record)).status).toMatchObject({
      result: 'neutral',
      comment: 'body hash did not verify',
    });
  });

  it('fails when List-Unsubscribe is altered', async () => {
    const signed = signer
      .sign(message)
      .toString('latin1')
      .replace('List-Unsubscribe: <https://carteiro.app/u/tok_1>', 'List-Unsubscribe: <https://evil.example/u/tok_1>');
    expect((await verify(Buffer.from(signed, 'latin1'), record)).status.result).toBe('fail');
  });

  it('still passes after relaxed-equivalent whitespace changes in transit', async () => {
    const signed = signer.sign(message).toString('latin1').replace('Subject: ', 'Subject:    ');
    expect((await verify(Buffer.from(signed, 'latin1'), record)).status.result).toBe('pass');
  });
});

describe('DKIM signer setup and canonicalisation', () => {
  it('refuses a key that does not match the algorithm', () => {
    expect(() =>
      createDkimSigner({
        domain: 'x.example',
        selector: 's',
        privateKeyPem: String(keys['ed25519-sha256']),
        algorithm: 'rsa-sha256',
      }),
    ).toThrow(/needs rsa/);
  });

  it('signs only the headers present', () => {
    const signer = createDkimSigner({
      domain: 'x.example',
      selector: 's',
      privateKeyPem: String(keys['ed25519-sha256']),
      algorithm: 'ed25519-sha256',
    });
    const header = signer.signatureHeader(Buffer.from('From: a@x.example\r\nSubject: oi\r\n\r\ncorpo\r\n'));
    expect(header).toContain(' h=from:subject;');
  });

  it('canonicalises relaxed per RFC 6376 §3.4', () => {
    expect(canonicalizeHeaderRelaxed('SubJect :  Olá \t mundo \r\n  de novo  ')).toBe('subject:Olá mundo de novo');
    expect(canonicalizeBodyRelaxed(' C \r\nD \t E\r\n\r\n\r\n')).toBe(' C\r\nD E\r\n');
    expect(canonicalizeBodyRelaxed('\r\n\r\n')).toBe('');
    expect(canonicalizeBodyRelaxed('abc')).toBe('abc\r\n');
  });

  it('hashes the body on the buffer fast path exactly as the canonicalised string', () => {
    const bodies = ['a\r\nb\r\n', 'a\r\nb\r\n\r\n\r\n', 'x  y\r\n', 'x \r\n', 'x\ty\r\n', 'abc', '', '\r\n', 'end '];
    for (const body of bodies) {
      const raw = Buffer.from(`Subject: x\r\n\r\n${body}`, 'latin1');
      const expected = createHash('sha256').update(canonicalizeBodyRelaxed(body), 'latin1').digest('base64');
      expect(relaxedBodyHash(raw, raw.indexOf('\r\n\r\n') + 4), JSON.stringify(body)).toBe(expected);
    }
  });
});
