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

  it('requires AUTH_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET/);
  });

  it('parses ADMIN_EMAILS as a list', () => {
    expect(loadConfig({ ADMIN_EMAILS: 'A@x.com, b@y.com' }).ADMIN_EMAILS).toEqual(['a@x.com', 'b@y.com']);
    expect(() => loadConfig({ ADMIN_EMAILS: 'nope' })).toThrow(/ADMIN_EMAILS/);
  });
});
