import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * A signed, expiring token for links sent by e-mail: base64url(JSON payload) + "." + HMAC-SHA256 over it with
 * the server secret and a purpose (a subscription token cannot be used as a privacy-request token).
 */
export function signToken(
  secret: string,
  purpose: string,
  id: string,
  ttlSeconds: number,
  now: Date = new Date(),
): string {
  const body = Buffer.from(
    JSON.stringify({ p: purpose, id, exp: Math.floor(now.getTime() / 1000) + ttlSeconds }),
  ).toString('base64url');
  return `${body}.${mac(secret, body)}`;
}

/** The id of a valid, unexpired token of this purpose; null when forged, altered, expired or malformed. */
export function verifyToken(secret: string, purpose: string, token: unknown, now: Date = new Date()): string | null {
  if (typeof token !== 'string' || token.length > 2000) return null;
  const [body, sig] = token.split('.');
  if (!body || !sig) return null;
  const expected = Buffer.from(mac(secret, body));
  const given = Buffer.from(sig);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as {
      p?: string;
      id?: string;
      exp?: number;
    };
    if (payload.p !== purpose || typeof payload.id !== 'string' || typeof payload.exp !== 'number') return null;
    if (payload.exp < now.getTime() / 1000) return null;
    return payload.id;
  } catch {
    return null;
  }
}

function mac(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('base64url');
}
