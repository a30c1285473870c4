import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { DATABASE_KINDS } from '../test/support/test-database';
import { queryRows } from './db/database';

describe.each(DATABASE_KINDS)('app foundation on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {}, (app) => {
      app.post('/api/test/echo', async (request) => ({ echoed: request.body }));
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers /healthz and /readyz with the database kind', async () => {
    expect((await t.app.inject('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject('/readyz')).json()).toEqual({ status: 'ok', database: kind });
  });

  it('returns a request id and security headers', async () => {
    const res = await t.app.inject('/healthz');
    expect(res.headers['x-request-id']).toMatch(/^[\w-]{8,}$/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
  });

  it('answers unknown API routes with a pt-BR JSON 404', async () => {
    const res = await t.app.inject('/api/does-not-exist');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('not_found');
  });

  it('answers bad JSON with 400 and a pt-BR message, not 500', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json', origin: t.origin },
      payload: '{"broken":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({ code: 'invalid_json', message: 'O corpo da requisição não é um JSON válido.' });
  });

  it('answers an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'content-type': 'application/json', origin: t.origin },
      payload: JSON.stringify({ big: 'x'.repeat(t.config.BODY_LIMIT_BYTES + 10) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.code).toBe('payload_too_large');
  });

  it('refuses a state-changing request from a foreign Origin (CSRF)', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('csrf_rejected');
  });

  it('refuses a cookie-carrying request without Origin or a trusted Referer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { cookie: 'session=x', 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(res.statusCode).toBe(403);
    const ok = await t.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { cookie: 'session=x', referer: `${t.origin}/dashboard`, 'content-type': 'application/json' },
      payload: '{"a":1}',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ echoed: { a: 1 } });
  });

  it('exposes only the public configuration', async () => {
    const body = (await t.app.inject('/api/public-config')).json();
    expect(body).toMatchObject({
      contactEmail: 'contato@carteiro.local',
      minPasswordLength: 8,
      priceMillis: 5,
      topupMinMillis: 10_000,
      // Unset controller fields stay empty; the encarregado's address falls back to the contact one.
      operatorLegalName: '',
      operatorTaxId: '',
      dpoName: '',
      dpoEmail: 'contato@carteiro.local',
    });
    expect(JSON.stringify(body)).not.toContain(t.config.AUTH_SECRET as string);
  });

  it('delivers mail over SMTP to the catcher and shows it at /dev/mailbox', async () => {
    await t.mailer.send({
      to: 'joao@example.com',
      subject: 'Olá, João — confirmação',
      html: '<p>Conceição <b>ação</b></p><script>alert(1)</script>',
      text: 'Conceição ação',
    });
    const [mail] = await t.sentMail();
    expect(mail?.subject).toBe('Olá, João — confirmação');
    expect(mail?.to).toEqual(['joao@example.com']);
    expect(mail?.text.trim()).toBe('Conceição ação');

    const list = await t.app.inject('/dev/mailbox');
    expect(list.statusCode).toBe(200);
    expect(list.body).toContain('Olá, João — confirmação');
    const page = await t.app.inject(`/dev/mailbox/${mail?.id}`);
    // Sandboxed without scripts or our origin; links open in a new tab (popups) instead of blanking the frame.
    expect(page.body).toContain('<iframe sandbox="allow-popups allow-popups-to-escape-sandbox"');
    expect(page.body).not.toMatch(/allow-scripts|allow-same-origin/);
    // The sender HTML sits escaped inside srcdoc, never as live markup of our page.
    expect(page.body).not.toContain('<script>alert(1)</script>');
    const raw = await t.app.inject(`/dev/mailbox/${mail?.id}/raw`);
    expect(raw.headers['content-type']).toContain('text/plain');
    expect(raw.body).toMatch(/^Content-Type: multipart\/alternative/m);
  });

  it('has applied every migration', async () => {
    const rows = await queryRows<{ count: number }>(
      t.database.db,
      sql`select count(*)::int as count from information_schema.tables where table_name in ('dev_mail_messages', 'accounts')`,
    );
    expect(rows[0]?.count).toBe(2);
  });
});

describe('app with a real relay configured', () => {
  it('does not expose /dev/mailbox', async () => {
    const t = await createTestApp('pglite', { SMTP_URL: 'smtp://127.0.0.1:1', MAIL_CATCHER: 'auto' });
    try {
      expect((await t.app.inject('/dev/mailbox')).statusCode).toBe(404);
      expect((await t.app.inject('/api/dev/mailbox')).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
