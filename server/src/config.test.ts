import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('has working defaults for a fresh machine', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(10100);
    expect(config.PUBLIC_URL).toBe('http://localhost:10100');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.mailCatcherEnabled).toBe(true);
    expect(config.MIN_PASSWORD_LENGTH).toBe(8);
    expect(config.MAX_PASSWORD_LENGTH).toBe(128);
    expect(() => loadConfig({ MIN_PASSWORD_LENGTH: '6' })).toThrow(/MIN_PASSWORD_LENGTH/);
    expect(config.trustedOrigins).toEqual(['http://localhost:10100']);
  });

  it('names the bad variable in the error', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'abc' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
  });

  it('turns the mail catcher off when a relay is configured, unless explicitly on', () => {
    expect(loadConfig({ SMTP_URL: 'smtp://relay:587' }).mailCatcherEnabled).toBe(false);
    expect(loadConfig({ SMTP_URL: 'smtp://relay:587', MAIL_CATCHER: 'on' }).mailCatcherEnabled).toBe(true);
  });

  it("reads the privacy policy's controller and encarregado, refusing an invalid CNPJ", () => {
    const config = loadConfig({
      OPERATOR_LEGAL_NAME: 'Carteiro Tecnologia Ltda.',
      OPERATOR_TAX_ID: '11.222.333/0001-81',
      DPO_NAME: 'Joana Prado',
      DPO_EMAIL: 'privacidade@carteiro.example',
    });
    expect(config.OPERATOR_LEGAL_NAME).toBe('Carteiro Tecnologia Ltda.');
    expect(config.DPO_EMAIL).toBe('privacidade@carteiro.example');
    expect(() => loadConfig({ OPERATOR_TAX_ID: '11.222.333/0001-82' })).toThrow(/OPERATOR_TAX_ID/);
    expect(() => loadConfig({ DPO_EMAIL: 'joana' })).toThrow(/DPO_EMAIL/);
    expect(loadConfig({}).OPERATOR_TAX_ID).toBe('');
  });

  it('requires AUTH_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET/);
  });

  it('refuses the placeholder PIX_KEY in production when top-ups use the static BR Code, naming the variable', () => {
    const production = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40), SMTP_URL: 'smtp://relay:587' };
    expect(() => loadConfig(production)).toThrow(/- PIX_KEY: defina a chave Pix que recebe as recargas/);
    expect(loadConfig({ ...production, PIX_KEY: 'financeiro@padaria.com.br' }).PIX_KEY).toBe(
      'financeiro@padaria.com.br',
    );
    // Development keeps the placeholder, so a fresh clone starts.
    expect(loadConfig({}).PIX_KEY).toBe('pix@carteiro.local');
  });

  it('parses ADMIN_EMAILS as a list', () => {
    expect(loadConfig({ ADMIN_EMAILS: 'A@x.com, b@y.com' }).ADMIN_EMAILS).toEqual(['a@x.com', 'b@y.com']);
    expect(() => loadConfig({ ADMIN_EMAILS: 'nope' })).toThrow(/ADMIN_EMAILS/);
  });

  it('payment providers: static by default; pix-api and mercadopago demand their settings; secrets from files', () => {
    expect(loadConfig({}).PAYMENT_PROVIDER).toBe('static');
    expect(loadConfig({}).pixApi).toBeNull();
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'pix-api' })).toThrow(/PIX_API_CLIENT_ID: obrigatório/);
    expect(() => loadConfig({ PAYMENT_PROVIDER: 'mercadopago' })).toThrow(/MERCADO_PAGO_ACCESS_TOKEN/);
    expect(() => loadConfig({ PIX_API_BASE_URL: 'http://banco.example/v2' })).toThrow(/PIX_API_BASE_URL/);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'carteiro-config-'));
    try {
      for (const [name, text] of [
        ['secret', 'segredo-do-cliente\n'],
        ['cert.pem', 'CERT'],
        ['key.pem', 'KEY'],
      ]) {
        fs.writeFileSync(path.join(dir, name as string), text as string);
      }
      const config = loadConfig({
        PAYMENT_PROVIDER: 'pix-api',
        PIX_API_BASE_URL: 'https://pix.banco.example/api/v2/',
        PIX_API_CLIENT_ID: 'cliente',
        PIX_API_CLIENT_SECRET_FILE: path.join(dir, 'secret'),
        PIX_API_CERT_FILE: path.join(dir, 'cert.pem'),
        PIX_API_KEY_FILE: path.join(dir, 'key.pem'),
        PIX_API_WEBHOOK_TOKEN: 'a'.repeat(24),
      });
      expect(config.pixApi).toMatchObject({
        baseUrl: 'https://pix.banco.example/api/v2',
        tokenUrl: 'https://pix.banco.example/oauth/token',
        clientSecret: 'segredo-do-cliente',
        certPem: 'CERT',
        keyPem: 'KEY',
        caPem: null,
      });
      expect(() => loadConfig({ PIX_API_CLIENT_SECRET_FILE: path.join(dir, 'missing') })).toThrow(
        /PIX_API_CLIENT_SECRET_FILE: arquivo ilegível/,
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
