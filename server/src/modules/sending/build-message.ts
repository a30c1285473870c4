/** What every message of one campaign shares: addresses and the domains its headers name. */
export interface MessageEnvelope {
  campaignId: string;
  accountId: string;
  fromName: string;
  fromEmail: string;
  replyTo: string | null;
  publicUrl: string;
  /** Domain of the VERP return path. */
  bounceDomain: string;
  /** Domain of List-Id (Message-ID: the From domain, else this one; messageIdDomainFor). */
  listIdDomain: string;
}

/**
 * Where a message's click, open, unsubscribe and "ver no navegador" links point: PUBLIC_URL, or the sender's own
 * verified tracking host (`links.<domain>`, sender-identities SenderSigning.trackingHost) with PUBLIC_URL's
 * scheme and port. The routes those links reach answer on any host (http/tracking-host.ts lets only them through
 * on a tracking host).
 */
export function linkBaseUrl(publicUrl: string, trackingHost: string | null | undefined): string {
  if (!trackingHost) return publicUrl;
  const url = new URL(publicUrl);
  return `${url.protocol}//${trackingHost}${url.port ? `:${url.port}` : ''}`;
}

/** The per-recipient URLs, all keyed by the message's opaque token (never by the contact's id or address). */
export function messageLinks(publicUrl: string, campaignId: string, token: string) {
  return {
    unsubscribeUrl: `${publicUrl}/u/${token}`,
    browserUrl: `${publicUrl}/campaign/${campaignId}/template-viewer?t=${token}`,
  };
}

/** VERP return path: a bounce that does not name the recipient still names its message (standards.md "Bounces"). */
export function verpAddress(token: string, bounceDomain: string): string {
  return `b+${token}@${bounceDomain}`;
}

/**
 * The right-hand side of a campaign message's Message-ID: the sending domain (the From address's), else
 * `fallbackHost` (LIST_ID_DOMAIN or PUBLIC_URL's host). Never a name without a dot (`localhost`) or an IP
 * literal when a better one exists; `localhost` only remains in development, where PUBLIC_URL is localhost.
 */
export function messageIdDomainFor(fromEmail: string, fallbackHost: string): string {
  const domain = fromEmail
    .slice(fromEmail.lastIndexOf('@') + 1)
    .trim()
    .toLowerCase();
  return isPublicDomain(domain) ? domain : fallbackHost.toLowerCase();
}

function isPublicDomain(domain: string): boolean {
  return (
    /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/.test(domain) &&
    !/^[\d.]+$/.test(domain) &&
    !/(^|\.)localhost$/.test(domain)
  );
}
