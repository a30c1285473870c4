import { describe, expect, it } from 'vitest';
import { isForbiddenAddress, type UrlRefusal, vetWebhookUrl } from './ssrf-guard';

/** A stub resolver: names of the test zone and their addresses. */
const zone: Record<string, string[]> = {
  'loopback.exemplo.com.br': ['127.0.0.1'],
  'interno.exemplo.com.br': ['10.0.0.1'],
  'metadados.exemplo.com.br': ['169.254.169.254'],
  'v6.exemplo.com.br': ['::1'],
  'misto.exemplo.com.br': ['93.184.216.34', '192.168.0.10'],
  'publico.exemplo.com.br': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  // A resolver that lies about localhost must not be asked at all.
  localhost: ['93.184.216.34'],
  'painel.localhost': ['93.184.216.34'],
};
const resolver = { addresses: async (name: string) => zone[name] ?? [] };
const strict = { resolver, allowPrivate: false, requireHttps: true };

async function refusal(url: string, options = strict): Promise<UrlRefusal | null> {
  try {
    await vetWebhookUrl(url, options);
    return null;
  } catch (error) {
    return (error as { reason: UrlRefusal }).reason;
  }
}

describe('webhook SSRF guard', () => {
  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://[::ffff:a9fe:a9fe]/hook',
    'https://[fd00::1]/hook',
    'https://[fe80::1]/hook',
    'https://100.64.0.1/hook',
    'https://172.16.5.4/hook',
    'https://192.168.1.1/hook',
    'https://0.0.0.0/hook',
    'https://224.0.0.1/hook',
    'https://loopback.exemplo.com.br/hook',
    'https://interno.exemplo.com.br/hook',
    'https://metadados.exemplo.com.br/hook',
    'https://v6.exemplo.com.br/hook',
    'https://misto.exemplo.com.br/hook',
  ])('refuses %s', async (url) => {
    expect(await refusal(url)).toBe('forbidden_address');
  });

  it('accepts a public name and connects to the address it checked', async () => {
    const target = await vetWebhookUrl('https://publico.exemplo.com.br/hook', strict);
    expect(target.address).toBe('93.184.216.34');
    expect(target.family).toBe(4);
  });

  it('refuses http in production, credentials, unknown names and other schemes', async () => {
    expect(await refusal('http://publico.exemplo.com.br/hook')).toBe('scheme');
    expect(await refusal('ftp://publico.exemplo.com.br/hook')).toBe('scheme');
    expect(await refusal('https://user:pw@publico.exemplo.com.br/hook')).toBe('credentials');
    expect(await refusal('https://nao-existe.exemplo.com.br/hook')).toBe('unresolvable');
    expect(await refusal('not a url')).toBe('invalid');
  });

  it('allows loopback, private addresses and http with the development setting', async () => {
    const dev = { resolver, allowPrivate: true, requireHttps: false };
    expect(await refusal('http://127.0.0.1:8080/hook', dev)).toBeNull();
    expect(await refusal('https://interno.exemplo.com.br/hook', dev)).toBeNull();
    expect(await refusal('http://[::1]:9/hook', dev)).toBeNull();
  });

  it.each([
    // IPv4-compatible (deprecated) and IPv4-translated forms of 127.0.0.1, hex and dotted.
    'https://[::7f00:1]/hook',
    'https://[::127.0.0.1]/hook',
    'https://[::ffff:0:7f00:1]/hook',
    'https://[::ffff:0:127.0.0.1]/hook',
    'https://[0:0:0:0:0:ffff:7f00:1]/hook',
    // NAT64: the well-known prefix judged by its IPv4, the local-use /48 refused whole.
    'https://[64:ff9b::7f00:1]/hook',
    'https://[64:ff9b::a9fe:a9fe]/hook',
    'https://[64:ff9b:1::808:808]/hook',
    'https://[64:ff9b:1:ffff::7f00:1]/hook',
    // Teredo (the client IPv4 is inverted in the last 32 bits) and 6to4.
    'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/hook',
    'https://[2001::1]/hook',
    'https://[2002:7f00:1::1]/hook',
    'https://[2002:808:808::1]/hook',
    // Documentation, discard, site-local, multicast.
    'https://[3fff::1]/hook',
    'https://[100::1]/hook',
    'https://[fec0::1]/hook',
    'https://[ff02::1]/hook',
    // localhost is loopback without asking DNS (the stub resolver answers a public address for it).
    'https://localhost/hook',
    'https://LOCALHOST./hook',
    'https://painel.localhost/hook',
  ])('refuses the IPv6 and localhost form %s', async (url) => {
    expect(await refusal(url)).toBe('forbidden_address');
  });

  it('treats localhost as 127.0.0.1 with the development setting', async () => {
    const dev = { resolver, allowPrivate: true, requireHttps: false };
    expect((await vetWebhookUrl('http://localhost:8080/hook', dev)).address).toBe('127.0.0.1');
  });

  it('accepts public IPv6, and public IPv4 through the mapped and NAT64 forms', async () => {
    expect(await refusal('https://[2606:2800:220:1:248:1893:25c8:1946]/hook')).toBeNull();
    expect(await refusal('https://[64:ff9b::808:808]/hook')).toBeNull();
    expect(await refusal('https://[::ffff:808:808]/hook')).toBeNull();
    expect(isForbiddenAddress('2a00:1450:4001:81c::200e')).toBe(false);
    expect(isForbiddenAddress('2800:3f0:4001:80a::200e')).toBe(false);
  });

  it('classifies addresses', () => {
    expect(isForbiddenAddress('8.8.8.8')).toBe(false);
    expect(isForbiddenAddress('2001:4860:4860::8888')).toBe(false);
    expect(isForbiddenAddress('127.0.0.53')).toBe(true);
    expect(isForbiddenAddress('::ffff:10.1.2.3')).toBe(true);
    expect(isForbiddenAddress('2002:7f00:0001::1')).toBe(true);
    expect(isForbiddenAddress('not-an-ip')).toBe(true);
  });
});

describe('WEBHOOKS_ALLOW_PRIVATE_URLS', () => {
  it('is honoured in development and tests, and refused in production', async () => {
    const { loadConfig, ConfigError } = await import('../../config');
    expect(loadConfig({ NODE_ENV: 'test', WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }).WEBHOOKS_ALLOW_PRIVATE_URLS).toBe(
      true,
    );
    expect(loadConfig({ NODE_ENV: 'development' }).WEBHOOKS_ALLOW_PRIVATE_URLS).toBe(false);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40), WEBHOOKS_ALLOW_PRIVATE_URLS: 'true' }),
    ).toThrow(ConfigError);
  });
});
