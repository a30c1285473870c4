import { createVerify, X509Certificate } from 'node:crypto';

/** An Amazon SNS HTTP(S) message (Notification, SubscriptionConfirmation, UnsubscribeConfirmation). */
export interface SnsMessage {
  Type: string;
  MessageId: string;
  TopicArn: string;
  Message: string;
  Timestamp: string;
  SignatureVersion: string;
  Signature: string;
  SigningCertURL: string;
  Subject?: string;
  SubscribeURL?: string;
  Token?: string;
  UnsubscribeURL?: string;
}

/** Fetches a PEM certificate over HTTPS (injected: tests return a local self-signed one, never the network). */
export type CertificateFetcher = (url: string) => Promise<string>;

export const httpsCertificateFetcher: CertificateFetcher = async (url) => {
  const response = await fetch(url, { redirect: 'error', signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`certificate fetch failed: ${response.status}`);
  return response.text();
};

/** The region of an SNS topic ARN (arn:aws:sns:<region>:<account>:<name>), or null. */
export function topicRegion(topicArn: string): string | null {
  return /^arn:aws(?:-[a-z]+)*:sns:([a-z0-9-]+):\d{12}:[\w-]+$/.exec(topicArn)?.[1] ?? null;
}

/**
 * An AWS SNS URL we may talk to: https, the host exactly sns.<region of the topic>.amazonaws.com (or .com.cn),
 * no credentials, no port. Anything else is never fetched.
 */
export function isSnsUrl(raw: string, region: string, pathPattern?: RegExp): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.port) return false;
  const host = url.hostname.toLowerCase();
  if (host !== `sns.${region}.amazonaws.com` && host !== `sns.${region}.amazonaws.com.cn`) return false;
  return pathPattern ? pathPattern.test(url.pathname) : true;
}

/** The string SNS signs (AWS docs "Verifying the signatures of Amazon SNS messages"). */
export function canonicalSnsString(message: SnsMessage): string {
  const keys =
    message.Type === 'Notification'
      ? ['Message', 'MessageId', 'Subject', 'Timestamp', 'TopicArn', 'Type']
      : ['Message', 'MessageId', 'SubscribeURL', 'Timestamp', 'Token', 'TopicArn', 'Type'];
  let out = '';
  for (const key of keys) {
    const value = (message as unknown as Record<string, unknown>)[key];
    if (value === undefined || value === null) continue;
    out += `${key}\n${String(value)}\n`;
  }
  return out;
}

export function isSnsMessage(value: unknown): value is SnsMessage {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return [
    'Type',
    'MessageId',
    'TopicArn',
    'Message',
    'Timestamp',
    'SignatureVersion',
    'Signature',
    'SigningCertURL',
  ].every((k) => typeof v[k] === 'string');
}

/**
 * Verifies an SNS message: SignatureVersion 1 (SHA1withRSA) or 2 (SHA256withRSA) over the canonical string,
 * with the certificate at SigningCertURL — fetched only when that URL is https://sns.<topic region>.amazonaws.com/….pem
 * — currently valid. Certificates are cached per URL.
 */
export class SnsVerifier {
  private readonly cache = new Map<string, Promise<string>>();
  constructor(private readonly fetchCertificate: CertificateFetcher) {}

  async verify(message: SnsMessage): Promise<{ ok: true } | { ok: false; reason: string }> {
    const region = topicRegion(message.TopicArn);
    if (!region) return { ok: false, reason: 'bad topic arn' };
    if (!isSnsUrl(message.SigningCertURL, region, /^\/[\w./-]+\.pem$/))
      return { ok: false, reason: 'foreign certificate url' };
    const algorithm =
      message.SignatureVersion === '1' ? 'RSA-SHA1' : message.SignatureVersion === '2' ? 'RSA-SHA256' : null;
    if (!algorithm) return { ok: false, reason: 'unknown signature version' };
    let pem: string;
    try {
      pem = await this.certificate(message.SigningCertURL);
    } catch {
      return { ok: false, reason: 'certificate unavailable' };
    }
    try {
      const cert = new X509Certificate(pem);
      const now = Date.now();
      if (Date.parse(cert.validFrom) > now || Date.parse(cert.validTo) < now)
        return { ok: false, reason: 'certificate expired' };
      const verifier = createVerify(algorithm);
      verifier.update(canonicalSnsString(message), 'utf8');
      if (!verifier.verify(cert.publicKey, Buffer.from(message.Signature, 'base64')))
        return { ok: false, reason: 'bad signature' };
    } catch {
      return { ok: false, reason: 'bad certificate' };
    }
    return { ok: true };
  }

  private certificate(url: string): Promise<string> {
    let entry = this.cache.get(url);
    if (!entry) {
      entry = this.fetchCertificate(url);
      entry.catch(() => this.cache.delete(url));
      if (this.cache.size > 50) this.cache.clear();
      this.cache.set(url, entry);
    }
    return entry;
  }
}
