import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from 'node:crypto';

/** A new Standard Webhooks secret: `whsec_` + base64 of 24 random bytes. */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * `v1,<base64 HMAC-SHA256>` of `{id}.{timestamp}.{body}`, keyed with the base64-decoded part of the secret after
 * `whsec_` (Standard Webhooks).
 */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  const mac = createHmac('sha256', hmacKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}

/** Decoded HMAC keys by secret: a worker signs every attempt of an endpoint with the same one or two. */
const hmacKeys = new Map<string, KeyObject>();
const HMAC_KEYS_KEPT = 1024;

function hmacKey(secret: string): KeyObject {
  let key = hmacKeys.get(secret);
  if (!key) {
    if (hmacKeys.size >= HMAC_KEYS_KEPT) hmacKeys.clear();
    key = createSecretKey(Buffer.from(secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret, 'base64'));
    hmacKeys.set(secret, key);
  }
  return key;
}

/** The three headers of one attempt: one signature per active secret, space-separated. */
export function webhookHeaders(
  secrets: string[],
  id: string,
  timestamp: number,
  body: string,
): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': secrets.map((s) => signWebhook(s, id, timestamp, body)).join(' '),
  };
}

/**
 * A box that remembers what it opened (by sealed text, at most `kept` entries): the delivery lanes open an
 * endpoint's secret for every attempt, and an AES-GCM decipher per attempt cost more CPU than the HMAC itself.
 * The secrets are in this process's memory anyway while it signs; a rotation seals a new text, so it is a new entry.
 */
export function rememberingSecretBox(box: SecretBox, kept = 1024): SecretBox {
  const opened = new Map<string, string>();
  return {
    seal: (plain) => box.seal(plain),
    open(sealed) {
      let plain = opened.get(sealed);
      if (plain === undefined) {
        if (opened.size >= kept) opened.clear();
        plain = box.open(sealed);
        opened.set(sealed, plain);
      }
      return plain;
    },
  };
}

/**
 * Encrypts endpoint secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from AUTH_SECRET, stored
 * as `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(authSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', authSecret, 'carteiro', 'webhook-endpoint-secrets', 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), data]
        .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown sealed secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
