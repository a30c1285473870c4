import { createCipheriv, createHash, createHmac } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  setTrackingSecret,
  signTrackingToken,
  signTrackingTokens,
  trackingTokenSigner,
  verifyTrackingToken,
} from './tracking-token';

const SECRET = 'segredo-de-teste-com-mais-de-32-caracteres';
const TOKEN = '0123456789abcdef0123456789abcdef01234567';

/** CBC-MAC of 32 bytes computed independently: the last block of AES-128-CBC with a zero IV. */
function referenceTag(messageToken: string, linkId: number): Buffer {
  const hmacKey = createHash('sha256').update(`carteiro-tracking:${SECRET}`).digest();
  const macKey = createHmac('sha256', hmacKey).update('aes-128-cbc-mac').digest().subarray(0, 16);
  const input = Buffer.alloc(32);
  Buffer.from(messageToken, 'hex').copy(input, 0);
  input[20] = 2;
  input.writeUInt32BE(linkId, 21);
  const cbc = createCipheriv('aes-128-cbc', macKey, Buffer.alloc(16));
  cbc.setAutoPadding(false);
  return cbc.update(input).subarray(16, 32);
}

/** A version-1 token as the engine wrote them before version 2 (HMAC-SHA256), for tokens already sent. */
function versionOneToken(messageToken: string, linkId: number): string {
  const hmacKey = createHash('sha256').update(`carteiro-tracking:${SECRET}`).digest();
  const payload = Buffer.alloc(6 + 20);
  payload[0] = 1;
  payload.writeUInt32BE(linkId, 1);
  payload[5] = 0;
  Buffer.from(messageToken, 'hex').copy(payload, 6);
  const mac = createHmac('sha256', hmacKey).update(payload).digest().subarray(0, 16);
  return Buffer.concat([payload, mac]).toString('base64url');
}

describe('tracking tokens', () => {
  beforeAll(() => setTrackingSecret(SECRET));

  it('signs engine tokens with an AES-128 CBC-MAC over the fixed 32-byte layout (version 2)', () => {
    for (const linkId of [0, 1, 7, 123_456, 0xffffffff]) {
      const bytes = Buffer.from(signTrackingToken(TOKEN, linkId), 'base64url');
      expect(bytes).toHaveLength(41);
      expect(bytes[0]).toBe(2);
      expect(bytes.readUInt32BE(1)).toBe(linkId);
      expect(bytes.subarray(5, 25).toString('hex')).toBe(TOKEN);
      expect(bytes.subarray(25).equals(referenceTag(TOKEN, linkId))).toBe(true);
      expect(verifyTrackingToken(bytes.toString('base64url'))).toEqual({ messageToken: TOKEN, linkId });
    }
  });

  it('gives the same tokens through the per-message signer, link after link', () => {
    const sign = trackingTokenSigner(TOKEN);
    for (const linkId of [3, 0, 3, 99, 1]) expect(sign(linkId)).toBe(signTrackingToken(TOKEN, linkId));
    const other = trackingTokenSigner('ab'.repeat(20));
    expect(other(3)).not.toBe(sign(3));
  });

  it('refuses a token with any byte changed, a truncated or extended one, or another secret', () => {
    const good = Buffer.from(signTrackingToken(TOKEN, 42), 'base64url');
    for (let i = 0; i < good.length; i++) {
      const altered = Buffer.from(good);
      altered[i] = (altered[i] as number) ^ 0x01;
      expect(verifyTrackingToken(altered.toString('base64url'))).toBeNull();
    }
    expect(verifyTrackingToken(good.subarray(0, 40).toString('base64url'))).toBeNull();
    expect(verifyTrackingToken(Buffer.concat([good, Buffer.of(0)]).toString('base64url'))).toBeNull();
    setTrackingSecret('outro-segredo-com-mais-de-32-caracteres!!');
    expect(verifyTrackingToken(good.toString('base64url'))).toBeNull();
    setTrackingSecret(SECRET);
    expect(verifyTrackingToken(good.toString('base64url'))).toEqual({ messageToken: TOKEN, linkId: 42 });
  });

  it('still verifies version-1 tokens already in sent mail, and signs non-hex tokens with version 1', () => {
    expect(verifyTrackingToken(versionOneToken(TOKEN, 5))).toEqual({ messageToken: TOKEN, linkId: 5 });
    const forged = Buffer.from(versionOneToken(TOKEN, 5), 'base64url');
    forged.writeUInt32BE(6, 1);
    expect(verifyTrackingToken(forged.toString('base64url'))).toBeNull();
    const legacy = signTrackingToken('mensagem-api-7', 9);
    expect(Buffer.from(legacy, 'base64url')[0]).toBe(1);
    expect(trackingTokenSigner('mensagem-api-7')(9)).toBe(legacy);
    expect(verifyTrackingToken(legacy)).toEqual({ messageToken: 'mensagem-api-7', linkId: 9 });
  });
});

describe('signTrackingTokens', () => {
  beforeAll(() => setTrackingSecret(SECRET));

  it('signs a message’s links in one go, exactly as one by one (both versions)', () => {
    const ids = [17, 18, 17, 4_000_000, 0];
    expect(signTrackingTokens(TOKEN, ids)).toEqual(ids.map((id) => signTrackingToken(TOKEN, id)));
    expect(signTrackingTokens('mensagem-api-7', ids)).toEqual(ids.map((id) => signTrackingToken('mensagem-api-7', id)));
    expect(signTrackingTokens(TOKEN, [])).toEqual([]);
  });
});
