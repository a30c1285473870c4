import crypto, { type Cipher, createCipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque, unforgeable tracking tokens (standards.md "Tracking"). Link id 0 is the open pixel. Verification
 * needs no database round-trip; an altered byte fails the MAC. Two layouts, both verified:
 *
 * - version 2 (the engine's 40-hex message tokens): base64url of [2][link id, uint32 BE][the 20 token bytes]
 *   [tag, 16 bytes], where tag = AES-128 CBC-MAC of the fixed 32 bytes B1 = token[0..16],
 *   B2 = token[16..20] ‖ 2 ‖ link id ‖ 7 zero bytes. CBC-MAC is a secure MAC for messages of one fixed length,
 *   which the verifier enforces (exactly 41 bytes). Why not HMAC: a message carries ~11 tokens, and E(B1) is
 *   shared by all of them, so a message costs one AES block per link on a long-lived ECB cipher (~0.6 µs a
 *   call) instead of two SHA-256 compressions per link (~20 µs a message, the engine's biggest CPU item).
 * - version 1 (any other message token, and tokens already sent before version 2): base64url of
 *   [1][link id, uint32 BE][marker 0 + hex bytes | marker 1 + UTF-8][HMAC-SHA256 of all that, first 16 bytes].
 */
const VERSION = 1;
const VERSION_AES = 2;
const MAC_BYTES = 16;
const HEX_TOKEN = /^[0-9a-f]+$/;
/** An engine message token (start-campaign-send.ts): 40 lowercase hex characters, 20 bytes. */
const ENGINE_TOKEN = /^[0-9a-f]{40}$/;
const AES_TOKEN_BYTES = 1 + 4 + 20 + MAC_BYTES;

let key: Buffer | null = null;
/** The HMAC key XOR ipad / opad (RFC 2104), cached for the one-shot signer below; reset with the key. */
let pads: { inner: Buffer; outer: Buffer } | null = null;
/** AES-128-ECB under the CBC-MAC key (derived from the HMAC key), padding off: one block in, one block out. */
let blockCipher: Cipher | null = null;

/** Set once per process from AUTH_SECRET (app and worker); tokens of one deployment verify in every process. */
export function setTrackingSecret(secret: string): void {
  key = createHash('sha256').update(`carteiro-tracking:${secret}`).digest();
  pads = null;
  blockCipher = null;
}

function encryptBlocks(blocks: Buffer): Buffer {
  if (!blockCipher) {
    const macKey = createHmac('sha256', trackingKey()).update('aes-128-cbc-mac').digest().subarray(0, 16);
    blockCipher = createCipheriv('aes-128-ecb', macKey, null);
    blockCipher.setAutoPadding(false);
  }
  // ECB keeps no state between calls and the input is whole blocks: the output is exactly E(each block).
  return blockCipher.update(blocks);
}

/**
 * The tokens of several link ids of one message in one go (the engine's fast path signs every link of a
 * message): with an engine token, one AES call for E(B1) and one for all the second blocks.
 */
export function signTrackingTokens(messageToken: string, linkIds: readonly number[]): string[] {
  if (!ENGINE_TOKEN.test(messageToken)) return linkIds.map(trackingTokenSigner(messageToken));
  const tokenBytes = Buffer.from(messageToken, 'hex');
  const first = encryptBlocks(tokenBytes.subarray(0, 16));
  const blocks = Buffer.alloc(16 * linkIds.length);
  for (let k = 0; k < linkIds.length; k++) {
    const at = 16 * k;
    tokenBytes.copy(blocks, at, 16, 20);
    blocks[at + 4] = VERSION_AES;
    blocks.writeUInt32BE((linkIds[k] as number) >>> 0, at + 5);
    for (let i = 0; i < 16; i++) blocks[at + i] = (blocks[at + i] as number) ^ (first[i] as number);
  }
  const tags = encryptBlocks(blocks);
  const out = Buffer.allocUnsafe(AES_TOKEN_BYTES);
  out[0] = VERSION_AES;
  tokenBytes.copy(out, 5);
  return linkIds.map((linkId, k) => {
    out.writeUInt32BE(linkId >>> 0, 1);
    tags.copy(out, 25, 16 * k, 16 * k + 16);
    return out.toString('base64url');
  });
}

/**
 * A version-2 signer for one engine token: E(B1) once, then one AES block per link id. Its tokens are laid
 * out in `out` ([2][link id][token bytes][tag]) and base64url-encoded.
 */
function aesSigner(messageToken: string): (linkId: number) => string {
  const tokenBytes = Buffer.from(messageToken, 'hex');
  const first = encryptBlocks(tokenBytes.subarray(0, 16));
  const second = Buffer.alloc(16);
  const out = Buffer.allocUnsafe(AES_TOKEN_BYTES);
  out[0] = VERSION_AES;
  tokenBytes.copy(out, 5);
  return (linkId) => {
    // B2 = token[16..20] ‖ version ‖ link id ‖ zeros, XOR E(B1): the second CBC step.
    tokenBytes.copy(second, 0, 16, 20);
    second[4] = VERSION_AES;
    second.writeUInt32BE(linkId >>> 0, 5);
    second.fill(0, 9);
    for (let i = 0; i < 16; i++) second[i] = (second[i] as number) ^ (first[i] as number);
    out.writeUInt32BE(linkId >>> 0, 1);
    encryptBlocks(second).copy(out, 25);
    return out.toString('base64url');
  };
}

function trackingKey(): Buffer {
  // Unset only in a process that never built the app: tokens then verify in this process only.
  if (!key) key = randomBytes(32);
  return key;
}

function mac(payload: Buffer): Buffer {
  return createHmac('sha256', trackingKey()).update(payload).digest().subarray(0, MAC_BYTES);
}

function encodeMessageToken(token: string): Buffer {
  // The engine's tokens are hex; anything else is carried as UTF-8 behind a marker byte.
  if (token.length % 2 === 0 && HEX_TOKEN.test(token)) return Buffer.concat([Buffer.of(0), Buffer.from(token, 'hex')]);
  return Buffer.concat([Buffer.of(1), Buffer.from(token, 'utf8')]);
}

export function signTrackingToken(messageToken: string, linkId: number): string {
  if (ENGINE_TOKEN.test(messageToken)) return aesSigner(messageToken)(linkId);
  const head = Buffer.alloc(5);
  head.writeUInt8(VERSION, 0);
  head.writeUInt32BE(linkId >>> 0, 1);
  const payload = Buffer.concat([head, encodeMessageToken(messageToken)]);
  return Buffer.concat([payload, mac(payload)]).toString('base64url');
}

/** Node ≥ 20.12 one-shot hash (no Hash object per call); older runtimes use createHmac. */
const oneShotHash = (crypto as unknown as { hash?: (alg: string, data: Buffer, enc: 'buffer') => Buffer }).hash;

/**
 * The sending engine's fast path: a signer bound to one message that returns exactly what
 * `signTrackingToken(messageToken, linkId)` returns, for each link id — the engine signs ~11 tokens per message.
 * Engine tokens get version 2 (one AES block per link). Others keep version 1: the payload is laid out once per
 * message and the HMAC is computed with two one-shot SHA-256 calls over pre-padded keys (RFC 2104).
 */
export function trackingTokenSigner(messageToken: string): (linkId: number) => string {
  if (ENGINE_TOKEN.test(messageToken)) return aesSigner(messageToken);
  const tokenBytes = encodeMessageToken(messageToken);
  const payloadLength = 5 + tokenBytes.length;
  if (!oneShotHash) return (linkId) => signTrackingToken(messageToken, linkId);
  if (!pads) {
    const k = trackingKey();
    const inner = Buffer.alloc(64);
    const outer = Buffer.alloc(64);
    for (let i = 0; i < 64; i++) {
      inner[i] = 0x36 ^ (k[i] ?? 0);
      outer[i] = 0x5c ^ (k[i] ?? 0);
    }
    pads = { inner, outer };
  }
  // [ipad | payload] and [opad | inner digest]; the token is [payload | first MAC_BYTES of the outer digest].
  const inner = Buffer.allocUnsafe(64 + payloadLength);
  pads.inner.copy(inner, 0);
  inner.writeUInt8(VERSION, 64);
  tokenBytes.copy(inner, 69);
  const outer = Buffer.allocUnsafe(64 + 32);
  pads.outer.copy(outer, 0);
  const out = Buffer.allocUnsafe(payloadLength + MAC_BYTES);
  const hash = oneShotHash;
  return (linkId) => {
    inner.writeUInt32BE(linkId >>> 0, 65);
    hash('sha256', inner, 'buffer').copy(outer, 64);
    const digest = hash('sha256', outer, 'buffer');
    inner.copy(out, 0, 64);
    digest.copy(out, payloadLength, 0, MAC_BYTES);
    return out.toString('base64url');
  };
}

export interface TrackingToken {
  messageToken: string;
  linkId: number;
}

/** The message token and link id of a genuine token, or null (constant-time MAC comparison). */
export function verifyTrackingToken(token: string): TrackingToken | null {
  if (token.length < 30 || token.length > 200 || !/^[A-Za-z0-9_-]+$/.test(token)) return null;
  const bytes = Buffer.from(token, 'base64url');
  if (bytes.length < 5 + 2 + MAC_BYTES || bytes.toString('base64url') !== token) return null;
  if (bytes[0] === VERSION_AES) return verifyAesToken(bytes);
  const payload = bytes.subarray(0, bytes.length - MAC_BYTES);
  const given = bytes.subarray(bytes.length - MAC_BYTES);
  if (!timingSafeEqual(given, mac(payload))) return null;
  if (payload.readUInt8(0) !== VERSION) return null;
  const linkId = payload.readUInt32BE(1);
  const marker = payload.readUInt8(5);
  const body = payload.subarray(6);
  const messageToken = marker === 0 ? body.toString('hex') : body.toString('utf8');
  return { messageToken, linkId };
}

/** Version 2: exactly 41 bytes, tag recomputed from the token bytes and the link id (constant-time compare). */
function verifyAesToken(bytes: Buffer): TrackingToken | null {
  if (bytes.length !== AES_TOKEN_BYTES) return null;
  const linkId = bytes.readUInt32BE(1);
  const messageToken = bytes.subarray(5, 25).toString('hex');
  const expected = Buffer.from(aesSigner(messageToken)(linkId), 'base64url').subarray(25);
  if (!timingSafeEqual(bytes.subarray(25), expected)) return null;
  return { messageToken, linkId };
}
