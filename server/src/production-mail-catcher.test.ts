import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, listeningUrl, startCarteiroProcess } from '../test/support/carteiro-process';
import { signUp } from '../test/support/sign-in';
import { createTestApp, type TestApp } from '../test/support/test-app';
import { DATABASE_KINDS } from '../test/support/test-database';
import { ConfigError, loadConfig } from './config';
import { type SmtpSink, startSmtpSink } from './modules/sending/testing/smtp-sink';

const SECRET = 'production-secret-production-secret-0123';
/** Production refuses the development Pix key placeholder (config.ts). */
const PIX = 'financeiro@carteiro.example';

describe('production refuses the development mail catcher (config)', () => {
  it('names SMTP_URL when no relay is set (the catcher would be on implicitly)', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET })).toThrow(
      /- SMTP_URL: obrigatório em produção — sem um relay, o Carteiro ligaria o coletor de e-mails de desenvolvimento/,
    );
    // Turning the catcher off by hand does not make a relay appear.
    expect(() => loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET, MAIL_CATCHER: 'off' })).toThrow(/SMTP_URL/);
  });

  it('names MAIL_CATCHER when it is forced on, even with a relay', () => {
    expect(() =>
      loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET, SMTP_URL: 'smtp://relay:587', MAIL_CATCHER: 'on' }),
    ).toThrow(/- MAIL_CATCHER: o coletor de e-mails de desenvolvimento \(\/dev\/mailbox\) é proibido em produção/);
  });

  it('with a relay the catcher is off; outside production MAIL_CATCHER=on still works', () => {
    expect(
      loadConfig({ NODE_ENV: 'production', AUTH_SECRET: SECRET, SMTP_URL: 'smtp://relay:587', PIX_KEY: PIX })
        .mailCatcherEnabled,
    ).toBe(false);
    expect(loadConfig({ SMTP_URL: 'smtp://relay:587', MAIL_CATCHER: 'on' }).mailCatcherEnabled).toBe(true);
  });
});

describe.each(DATABASE_KINDS)('the production app on %s has no dev mailbox', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { NODE_ENV: 'production', PUBLIC_URL: 'https://carteiro.example' });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 404 on every /dev/mailbox route while real mail (a verification) goes to the relay', async () => {
    const user = await signUp(t);
    for (let i = 0; i < 100 && !(await t.sentMail()).some((m) => m.to.includes(user.email)); i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    const [mail] = await t.sentMail();
    expect(mail?.to).toContain(user.email);
    for (const url of ['/dev/mailbox', `/dev/mailbox/${mail?.id}`, `/dev/mailbox/${mail?.id}/raw`]) {
      expect((await t.app.inject({ url })).statusCode, url).toBe(404);
    }
    for (const url of ['/api/dev/mailbox', `/api/dev/mailbox/${mail?.id}`]) {
      const res = await t.app.inject({ url, headers: user.headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain(user.email);
    }
  });
});

// Real processes start from the bundle and migrate a fresh database: slow on a loaded box (two starts took 117 s on a
// shared 2-core box), hence the long timeouts.
describe('a real production process', () => {
  let sink: SmtpSink;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-production-'));
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const base = {
    NODE_ENV: 'production',
    AUTH_SECRET: SECRET,
    PIX_KEY: PIX,
    DATA_DIR: dataDir,
    HOST: '127.0.0.1',
    PORT: '0',
    PUBLIC_URL: 'https://carteiro.example',
    BOUNCE_SMTP_PORT: '0',
    LOG_LEVEL: 'info',
  };

  it('refuses to start without SMTP_URL, or with MAIL_CATCHER=on, saying which variable', async () => {
    const withoutRelay = startCarteiroProcess('all', base);
    expect((await withoutRelay.exited).code).toBe(1);
    expect(withoutRelay.output()).toMatch(/SMTP_URL: obrigatório em produção/);

    const forced = startCarteiroProcess('all', { ...base, SMTP_URL: sink.url, MAIL_CATCHER: 'on' });
    expect((await forced.exited).code).toBe(1);
    expect(forced.output()).toMatch(
      /MAIL_CATCHER: o coletor de e-mails de desenvolvimento \(\/dev\/mailbox\) é proibido/,
    );
  }, 240_000);

  it('starts with a relay, serves no mailbox, and opens no catcher port', async () => {
    const catcherPort = await freePort();
    const server = startCarteiroProcess('all', { ...base, SMTP_URL: sink.url, MAIL_CATCHER_PORT: String(catcherPort) });
    try {
      const url = await listeningUrl(server);
      expect((await fetch(`${url}/healthz`)).status).toBe(200);
      for (const route of ['/dev/mailbox', '/api/dev/mailbox']) {
        expect((await fetch(`${url}${route}`)).status, route).toBe(404);
      }
      const refused = await new Promise<boolean>((resolve) => {
        const socket = net.connect(catcherPort, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(false);
        });
        socket.once('error', () => resolve(true));
      });
      expect(refused).toBe(true);
    } finally {
      await server.stop('SIGTERM');
    }
  }, 240_000);
});
