import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { createDkimSigner, DEFAULT_SIGNED_HEADERS, type DkimSigner } from '../sending/dkim/dkim-signer';
import { ed25519Selector, RETURN_PATH_LABEL, TRACKING_LABEL } from './dns-records';
import { decryptSecret } from './key-encryption';
import { senderDomains } from './sender-identities.db';

/** How a message from one From address is signed and where its bounces go. */
export interface SenderSigning {
  /** The sender domain's signers (d= the From domain) then the platform's, when configured. */
  signers: DkimSigner[];
  /** The VERP domain: `bounces.<domain>` once its CNAME is verified, else the platform's. */
  bounceDomain: string;
  /** The d= of the aligned signature, or null when only the platform signs. */
  alignedDomain: string | null;
  /**
   * The sender's own tracking host (`links.<domain>`) once its CNAME was found at the last check of the verified,
   * not suspended domain; null: the message's links use PUBLIC_URL (sending/build-message.ts linkBaseUrl).
   */
  trackingHost: string | null;
}

export type SigningResolver = (accountId: string, fromEmail: string) => Promise<SenderSigning>;

const SIGNED_HEADERS = [...DEFAULT_SIGNED_HEADERS, 'feedback-id', 'reply-to'];

/**
 * Chooses the DKIM keys per message's From domain: the account's verified, not suspended sender domain signs
 * (RSA, plus Ed25519 once its record is found) and, when the operator configured one, the platform key signs
 * too. Keys are decrypted and parsed once per (account, domain) and cached for `ttlMs`, so a campaign's
 * messages pay for one RSA signature each, not for a PEM parse; a domain broken or suspended stops being used
 * within the TTL. The same resolution gives the domain's tracking host (links.<domain>), so the engine's links
 * cost nothing more per message.
 */
export function createSigningResolver(options: {
  db: Db;
  secret: string;
  platformSigners: DkimSigner[];
  platformBounceDomain: string;
  /** TRACKING_DOMAINS: false → `trackingHost` is always null (every link on PUBLIC_URL). Default true. */
  trackingDomains?: boolean;
  ttlMs?: number;
}): SigningResolver {
  const ttl = options.ttlMs ?? 60_000;
  const cache = new Map<string, { at: number; value: Promise<SenderSigning> }>();

  async function load(accountId: string, domain: string): Promise<SenderSigning> {
    const [row] = await options.db
      .select()
      .from(senderDomains)
      .where(and(eq(senderDomains.accountId, accountId), eq(senderDomains.domain, domain)));
    if (row?.status !== 'verified' || row.suspendedAt) {
      return {
        signers: options.platformSigners,
        bounceDomain: options.platformBounceDomain,
        alignedDomain: null,
        trackingHost: null,
      };
    }
    const own: DkimSigner[] = [
      createDkimSigner({
        domain,
        selector: row.selector,
        privateKeyPem: decryptSecret(options.secret, row.dkimRsaPrivateEnc),
        algorithm: 'rsa-sha256',
        headerNames: SIGNED_HEADERS,
      }),
    ];
    if (row.ed25519Verified === 'yes') {
      own.push(
        createDkimSigner({
          domain,
          selector: ed25519Selector(row.selector),
          privateKeyPem: decryptSecret(options.secret, row.dkimEd25519PrivateEnc),
          algorithm: 'ed25519-sha256',
          headerNames: SIGNED_HEADERS,
        }),
      );
    }
    return {
      // The platform signs first, so the sender's own (aligned) signatures end up on top.
      signers: [...options.platformSigners, ...own],
      bounceDomain: row.returnPathVerified === 'yes' ? `${RETURN_PATH_LABEL}.${domain}` : options.platformBounceDomain,
      alignedDomain: domain,
      // A CNAME the periodic re-check finds gone or changed turns links back to PUBLIC_URL (within the TTL).
      trackingHost:
        options.trackingDomains !== false && row.lastCheck?.tracking?.status === 'found'
          ? `${TRACKING_LABEL}.${domain}`
          : null,
    };
  }

  return (accountId, fromEmail) => {
    const domain = fromEmail
      .slice(fromEmail.lastIndexOf('@') + 1)
      .trim()
      .toLowerCase();
    const key = `${accountId}|${domain}`;
    const hit = cache.get(key);
    if (hit && Date.now() - hit.at < ttl) return hit.value;
    const value = load(accountId, domain);
    value.catch(() => cache.delete(key));
    cache.set(key, { at: Date.now(), value });
    return value;
  };
}
