import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Private DKIM keys at rest: AES-256-GCM with a key derived (HKDF-SHA256) from the server secret (AUTH_SECRET,
 * or the development secret kept in DATA_DIR). Stored as `v1.<iv>.<tag>.<ciphertext>` (base64url). Changing
 * the secret makes the stored keys unreadable: the domains then have to be added again.
 */
const INFO = 'carteiro sender-domain dkim keys v1';

function derivedKey(secret: string): Buffer {
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.from('carteiro'), INFO, 32));
}

export function encryptSecret(secret: string, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', derivedKey(secret), iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(
    '.',
  );
}

export function decryptSecret(secret: string, stored: string): string {
  const [version, iv, tag, data] = stored.split('.');
  if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('unknown encrypted key format');
  const decipher = createDecipheriv('aes-256-gcm', derivedKey(secret), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
