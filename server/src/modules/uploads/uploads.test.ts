import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { JPEG_HEADER, makePng } from './test-images';

const MAX = 8192;

function upload(t: TestApp, headers: Record<string, string>, body: Buffer | string, contentType = 'image/png') {
  return t.app.inject({
    method: 'POST',
    url: '/api/uploads/images',
    headers: { ...headers, 'content-type': contentType },
    payload: body,
  });
}

describe.each(DATABASE_KINDS)('image uploads (local storage) on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { UPLOAD_MAX_BYTES: String(MAX), PUBLIC_URL: 'https://mail.example.com.br' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts a PNG and serves it back byte-identical from a public URL', async () => {
    const { headers } = await signUp(t, { verified: true });
    const png = makePng(12, 8);
    const res = await upload(t, { ...headers, 'x-file-name': encodeURIComponent('logo ação.png') }, png);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({
      width: 12,
      height: 8,
      bytes: png.length,
      contentType: 'image/png',
      name: 'logo ação.png',
    });
    expect(body.url).toMatch(/^https:\/\/mail\.example\.com\.br\/uploads\/[0-9a-f]{32}\.png$/);

    const served = await t.app.inject(new URL(body.url).pathname);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(png)).toBe(true);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['content-disposition']).toBe('inline');
    expect(served.headers['cache-control']).toContain('immutable');
    expect(served.headers['content-security-policy']).toContain("default-src 'none'");

    const list = await t.app.inject({ url: '/api/uploads/images', headers });
    expect(list.json().items.map((i: { id: string }) => i.id)).toEqual([body.id]);

    // The same bytes again: the existing file, not a copy.
    const again = await upload(t, headers, png);
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(body.id);
  });

  it('stores the sniffed type, not the declared one', async () => {
    const { headers } = await signUp(t, { verified: true });
    const res = await upload(t, headers, JPEG_HEADER, 'image/png');
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ contentType: 'image/jpeg', width: 3, height: 2 });
    expect(res.json().url).toMatch(/\.jpg$/);
  });

  it('refuses a .png that is really HTML, and SVG, with a pt-BR 415', async () => {
    const { headers } = await signUp(t, { verified: true });
    const html = await upload(t, headers, '<!doctype html><script>alert(document.cookie)</script>');
    expect(html.statusCode).toBe(415);
    expect(html.json().error).toEqual({
      code: 'unsupported_image',
      message: 'O arquivo não é uma imagem PNG, JPEG, GIF ou WebP válida.',
    });
    const svg = await upload(
      t,
      headers,
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="1" height="1"/></svg>',
      'image/svg+xml',
    );
    expect(svg.statusCode).toBe(415);
    expect(svg.json().error.message).toContain('SVG não são aceitas');
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/images',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: { url: 'https://example.com/a.png' },
    });
    expect(json.statusCode).toBe(415);
    const empty = await upload(t, headers, Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect((await t.app.inject({ url: '/api/uploads/images', headers })).json().items).toEqual([]);
  });

  it('answers 413 over UPLOAD_MAX_BYTES', async () => {
    const { headers } = await signUp(t, { verified: true });
    const big = Buffer.concat([makePng(1, 1), Buffer.alloc(MAX)]);
    const res = await upload(t, headers, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({ code: 'image_too_large', message: 'A imagem passa do limite de 8 KB.' });
  });

  it('answers 413 while reading a body that has no Content-Length (streamed)', async () => {
    const { headers } = await signUp(t, { verified: true });
    const chunks = [makePng(1, 1), Buffer.alloc(MAX / 2), Buffer.alloc(MAX / 2), Buffer.alloc(MAX / 2)];
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/uploads/images',
      headers: { ...headers, 'content-type': 'image/png', 'transfer-encoding': 'chunked' },
      payload: Readable.from(chunks),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('image_too_large');
  });

  it('answers HEAD on an uploaded image with its headers', async () => {
    const { headers } = await signUp(t, { verified: true });
    const png = makePng(2, 3, [9, 9, 9]);
    const { url } = (await upload(t, headers, png)).json();
    const head = await t.app.inject({ method: 'HEAD', url: new URL(url).pathname });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-type']).toBe('image/png');
    expect(Number(head.headers['content-length'])).toBe(png.length);
    expect(head.body).toBe('');
  });

  it('requires a session and keeps accounts apart: another account cannot list or delete', async () => {
    const anonymous = await upload(t, { origin: t.origin }, makePng(1, 1));
    expect(anonymous.statusCode).toBe(401);
    const alice = await signUp(t, { verified: true });
    const bob = await signUp(t, { verified: true });
    const image = (await upload(t, alice.headers, makePng(3, 3, [1, 2, 3]))).json();
    expect((await t.app.inject({ url: '/api/uploads/images', headers: bob.headers })).json().items).toEqual([]);
    const stolen = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/images/${image.id}`,
      headers: bob.headers,
    });
    expect(stolen.statusCode).toBe(404);
    expect((await t.app.inject(new URL(image.url).pathname)).statusCode).toBe(200);

    const own = await t.app.inject({
      method: 'DELETE',
      url: `/api/uploads/images/${image.id}`,
      headers: alice.headers,
    });
    expect(own.statusCode).toBe(204);
    const gone = await t.app.inject(new URL(image.url).pathname);
    expect(gone.statusCode).toBe(404);
    expect(gone.headers['content-type']).toContain('application/json');
  });

  it('serves only keys it generated (no directory traversal)', async () => {
    for (const url of [
      '/uploads/..%2F..%2Fetc%2Fpasswd',
      '/uploads/%2e%2e%2fauth-secret',
      '/uploads/auth-secret',
      '/uploads/0123456789abcdef0123456789abcdef.svg',
      '/uploads/0123456789abcdef0123456789abcdef.png',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('test-secret');
    }
    // A path normalised out of /uploads/ is not ours to serve (the SPA fallback answers it).
    const outside = await t.app.inject('/uploads/../auth-secret');
    expect(outside.statusCode).not.toBe(200);
    expect(outside.body).not.toContain('test-secret');
  });
});

interface StoredObject {
  body: Buffer;
  headers: http.IncomingHttpHeaders;
}

/** A tiny fake S3 on 127.0.0.1: checks the SigV4 headers are present and keeps PUT objects in memory. */
async function startFakeS3() {
  const objects = new Map<string, StoredObject>();
  const requests: Array<{ method: string; url: string; headers: http.IncomingHttpHeaders }> = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
      const auth = String(req.headers.authorization ?? '');
      const sha = createHash('sha256').update(body).digest('hex');
      if (
        !/^AWS4-HMAC-SHA256 Credential=AKIDTEST\/\d{8}\/sa-east-1\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/.test(
          auth,
        ) ||
        !/^\d{8}T\d{6}Z$/.test(String(req.headers['x-amz-date'])) ||
        req.headers['x-amz-content-sha256'] !== sha
      ) {
        res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>');
        return;
      }
      if (req.method === 'PUT') {
        objects.set(req.url ?? '', { body, headers: req.headers });
        res.writeHead(200, { etag: `"${sha.slice(0, 32)}"` }).end();
      } else if (req.method === 'DELETE') {
        objects.delete(req.url ?? '');
        res.writeHead(204).end();
      } else {
        res.writeHead(405).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.each(DATABASE_KINDS)('image uploads (S3-compatible storage) on %s', (kind) => {
  let t: TestApp;
  let s3: Awaited<ReturnType<typeof startFakeS3>>;
  beforeAll(async () => {
    s3 = await startFakeS3();
    t = await createTestApp(kind, {
      S3_BUCKET: 'carteiro-imagens',
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: 'sa-east-1',
      S3_ACCESS_KEY_ID: 'AKIDTEST',
      S3_SECRET_ACCESS_KEY: 'segredo-de-teste',
      S3_PUBLIC_URL: 'https://cdn.example.com.br/imagens/',
    });
  });
  afterAll(async () => {
    await t.close();
    await s3.close();
  });

  it('PUTs the image to the bucket with an AWS4-HMAC-SHA256 signature and answers the public URL', async () => {
    const { headers } = await signUp(t, { verified: true });
    const png = makePng(4, 4);
    const res = await upload(t, headers, png);
    expect(res.statusCode).toBe(201);
    const { url, id } = res.json();
    const key = url.slice('https://cdn.example.com.br/imagens/'.length);
    expect(key).toMatch(/^[0-9a-f]{32}\.png$/);
    const put = s3.requests.find((r) => r.method === 'PUT');
    expect(put?.url).toBe(`/carteiro-imagens/${key}`);
    expect(put?.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDTEST\//);
    expect(put?.headers.authorization).toContain('SignedHeaders=cache-control;content-disposition;content-type;host;');
    const stored = s3.objects.get(`/carteiro-imagens/${key}`);
    expect(stored?.body.equals(png)).toBe(true);
    expect(stored?.headers['content-type']).toBe('image/png');

    // No local route in S3 mode; DELETE removes the object.
    expect((await t.app.inject(`/uploads/${key}`)).statusCode).toBe(404);
    const del = await t.app.inject({ method: 'DELETE', url: `/api/uploads/images/${id}`, headers });
    expect(del.statusCode).toBe(204);
    expect(s3.objects.has(`/carteiro-imagens/${key}`)).toBe(false);
  });
});
