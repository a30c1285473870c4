import { createHash, createHmac } from 'node:crypto';
import type { S3Config } from '../../config';
import { type FileStorage, isStorageKey } from './file-storage';

/**
 * S3-compatible object storage (AWS S3, MinIO, Cloudflare R2, Backblaze B2, DigitalOcean Spaces…) with
 * path-style URLs (`<endpoint>/<bucket>/<key>`) and AWS Signature Version 4 written with node:crypto, so no SDK
 * is needed. The bucket (or the CDN in S3_PUBLIC_URL) must be publicly readable: the URLs go into e-mails.
 */
export function createS3Storage(config: S3Config, fetchImpl: typeof fetch = fetch): FileStorage {
  const objectUrl = (key: string): URL => {
    if (!isStorageKey(key)) throw new Error(`invalid storage key: ${key}`);
    return new URL(`${config.endpoint}/${encodeURIComponent(config.bucket)}/${key}`);
  };
  async function send(method: 'PUT' | 'DELETE', key: string, body: Buffer | null, headers: Record<string, string>) {
    const url = objectUrl(key);
    const signed = signV4({
      method,
      url,
      headers,
      body: body ?? Buffer.alloc(0),
      region: config.region,
      service: 's3',
      accessKeyId: config.accessKeyId,
      secretAccessKey: config.secretAccessKey,
    });
    // fetch sets Host itself (the same url.host that was signed).
    const { host: _host, ...sendHeaders } = signed;
    const res = await fetchImpl(url, {
      method,
      headers: sendHeaders,
      body: body ? new Uint8Array(body) : undefined,
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok && !(method === 'DELETE' && res.status === 404)) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      throw new Error(`S3 ${method} ${url.pathname} failed: ${res.status} ${text}`);
    }
    await res.body?.cancel().catch(() => {});
  }
  return {
    kind: 's3',
    async put(key, body, contentType) {
      await send('PUT', key, body, {
        'content-type': contentType,
        'cache-control': 'public, max-age=31536000, immutable',
        'content-disposition': 'inline',
      });
    },
    async delete(key) {
      await send('DELETE', key, null, {});
    },
    publicUrl(key) {
      return `${config.publicUrl}/${key}`;
    },
  };
}

export interface SignV4Input {
  method: string;
  url: URL;
  /** Headers to send and sign (lower-case names). host, x-amz-date and x-amz-content-sha256 are added. */
  headers: Record<string, string>;
  body: Buffer;
  region: string;
  service: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** For tests; default now. */
  now?: Date;
}

const sha256Hex = (data: string | Buffer): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * AWS Signature Version 4 (header form): returns the request headers with `authorization`, `x-amz-date`,
 * `x-amz-content-sha256` and `host` set. https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 */
export function signV4(input: SignV4Input): Record<string, string> {
  const now = input.now ?? new Date();
  const amzDate = now.toISOString().replace(/[:-]|\.\d{3}/g, ''); // YYYYMMDDTHHMMSSZ
  const date = amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(input.headers)) headers[name.toLowerCase()] = value;
  headers.host = input.url.host;
  headers['x-amz-date'] = amzDate;
  headers['x-amz-content-sha256'] = sha256Hex(input.body);

  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${String(headers[n]).trim().replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  // S3 paths are encoded once, segment by segment.
  const canonicalPath = input.url.pathname
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join('/');
  const canonicalQuery = [...input.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    input.method,
    canonicalPath,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    headers['x-amz-content-sha256'],
  ].join('\n');
  const scope = `${date}/${input.region}/${input.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const kDate = hmac(`AWS4${input.secretAccessKey}`, date);
  const kRegion = hmac(kDate, input.region);
  const kService = hmac(kRegion, input.service);
  const kSigning = hmac(kService, 'aws4_request');
  const signature = createHmac('sha256', kSigning).update(stringToSign).digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${input.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
