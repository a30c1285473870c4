import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Opaque, unforgeable tracking tokens (standards.md "Tracking"): base64url of
 * [version 1][link id, uint32 BE][the message's random token][HMAC-SHA256 of all that, first 16 bytes].
 * Link id 0 is the open pixel. Verification needs no database round-trip; an altered byte fails the MAC.
 */
const VERSION = 1;
const MAC_BYTES = 16;
const HEX_TOKEN = /^[0-9a-f]+$/;

let key: Buffer | null = null;

/** Set once per process from AUTH_SECRET (app and worker); tokens of one deployment verify in every process. */
export function setTrackingSecret(secret: string): void {
  key = createHash('sha256').update(`carteiro-tracking:${secret}`).digest();
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
  const head = Buffer.alloc(5);
  head.writeUInt8(VERSION, 0);
  head.writeUInt32BE(linkId >>> 0, 1);
  const payload = Buffer.concat([head, encodeMessageToken(messageToken)]);
  return Buffer.concat([payload, mac(payload)]).toString('base64url');
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
