import type { DnsResolver } from '../../net/dns';

/** SPF allows at most 10 DNS-querying terms per evaluation (RFC 7208 §4.6.4). */
export const SPF_LOOKUP_LIMIT = 10;

/** The sub-domain labels of the optional CNAMEs (custom return path and tracking domain). */
export const RETURN_PATH_LABEL = 'bounces';
export const TRACKING_LABEL = 'links';

export interface PlatformTargets {
  /** `include:` of the platform's SPF record (SENDER_SPF_INCLUDE). */
  spfInclude: string;
  /** Where the return-path CNAME points: the platform's bounce domain. */
  bounceDomain: string;
  /** Where the tracking CNAME points: PUBLIC_URL's host. */
  trackingHost: string;
}

export const dkimName = (selector: string, domain: string) => `${selector}._domainkey.${domain}`;
/** The stored selector of a new domain names its RSA key; the Ed25519 key's name says "ed25519" in its place. */
export const RSA_SELECTOR_PREFIX = 'carteiro-rsa-';
export const newSelector = (random: string) => `${RSA_SELECTOR_PREFIX}${random}`;
/**
 * The Ed25519 key's selector. Domains added before the names said the algorithm keep theirs (`c1a2b3c4d` /
 * `c1a2b3c4de`, one letter apart): their records are published under those names.
 */
export const ed25519Selector = (selector: string) =>
  selector.startsWith(RSA_SELECTOR_PREFIX)
    ? `carteiro-ed25519-${selector.slice(RSA_SELECTOR_PREFIX.length)}`
    : `${selector}e`;

/** The `p=` of a DKIM record, whitespace removed ('' when absent). */
export function dkimPublicKey(record: string): string {
  const match = /(?:^|;)\s*p=([^;]*)/i.exec(record);
  return (match?.[1] ?? '').replace(/\s+/g, '');
}

export function isSpf(record: string): boolean {
  return /^v=spf1(\s|$)/i.test(record.trim());
}

/** `record` with `include:<include>` added before its `all` / `redirect=` (or at the end). */
export function mergeSpf(record: string, include: string): string {
  const terms = record.trim().split(/\s+/);
  if (terms.some((t) => t.toLowerCase() === `include:${include}`.toLowerCase())) return terms.join(' ');
  const at = terms.findIndex((t, i) => i > 0 && (/^[-~?+]?all$/i.test(t) || /^redirect=/i.test(t)));
  if (at < 0) return [...terms, `include:${include}`].join(' ');
  return [...terms.slice(0, at), `include:${include}`, ...terms.slice(at)].join(' ');
}

/**
 * How many DNS look-ups evaluating `record` costs (include, a, mx, ptr, exists, redirect — each include and
 * redirect also costs what its own record costs). Stops counting past the limit; unknown includes count 1.
 */
export async function countSpfLookups(dns: DnsResolver, record: string, seen = new Set<string>()): Promise<number> {
  let count = 0;
  for (const term of record.trim().split(/\s+/).slice(1)) {
    const bare = term.replace(/^[-~?+]/, '').toLowerCase();
    const target = /^include:(.+)$/.exec(bare)?.[1] ?? /^redirect=(.+)$/.exec(bare)?.[1];
    if (target) {
      count += 1;
      if (count > SPF_LOOKUP_LIMIT || seen.has(target)) continue;
      seen.add(target);
      const nested = (await dns.txt(target)).find(isSpf);
      if (nested) count += await countSpfLookups(dns, nested, seen);
    } else if (/^(a|mx|ptr|exists)([:/]|$)/.test(bare)) {
      count += 1;
    }
    if (count > SPF_LOOKUP_LIMIT) break;
  }
  return count;
}
