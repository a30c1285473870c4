import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../test/support/test-app';
import { DATABASE_KINDS } from '../../test/support/test-database';
import { ConfigError, loadConfig } from '../config';
import { queryRows } from '../db/database';
import { PRIVACY_RATE_LIMIT } from '../modules/privacy-requests/privacy-requests.routes';
import { SUBSCRIBE_RATE_LIMIT } from '../modules/subscriptions/subscriptions.routes';

const ATTACKER = '203.0.113.5';
let rotation = 0;
/** A different X-Forwarded-For at every call, as an attacker rotating fake addresses sends it. */
function rotatingForwardedFor(): string {
  rotation += 1;
  return `192.0.2.${rotation % 250}, 198.51.100.${(rotation * 7) % 250}`;
}

/** A route that answers the client address Fastify settled on (what every per-address limit keys on). */
const echoIp = (app: FastifyInstance) => {
  app.get('/test/client-ip', async (request) => ({ ip: request.ip }));
};

describe.each(DATABASE_KINDS)('per-address limits and X-Forwarded-For on %s', (kind) => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    // Production without TRUSTED_PROXIES: no client is believed (the old default trusted everyone there).
    direct = await createTestApp(kind, { NODE_ENV: 'production', PUBLIC_URL: 'https://carteiro.example' });
    proxied = await createTestApp(kind, { TRUSTED_PROXIES: '127.0.0.1' });
  });
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  const wrongSignIn = (t: TestApp, remoteAddress: string, forwardedFor: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      remoteAddress,
      headers: { origin: t.origin, 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
      // A new e-mail each time, so only the per-address limit is at play (not the per-account delay).
      payload: { email: `alvo-${randomUUID().slice(0, 8)}@example.com`, password: 'senha-errada-123' },
    });

  const privacyRequest = (t: TestApp, remoteAddress: string, forwardedFor: string) =>
    t.app.inject({
      method: 'POST',
      url: '/privacidade/solicitar',
      remoteAddress,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': forwardedFor },
      payload: `tipo=acesso&email=${encodeURIComponent(`titular-${randomUUID().slice(0, 6)}@example.com`)}`,
    });

  async function rateLimitKeys(t: TestApp, prefix: string): Promise<string[]> {
    const rows = await queryRows<{ key: string }>(
      t.database.db,
      sql`select key from public_rate_limits where key like ${`${prefix}%`} order by key`,
    );
    return rows.map((row) => row.key);
  }

  it('without TRUSTED_PROXIES, rotating X-Forwarded-For never escapes the sign-in limit (20 wrong passwords)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await wrongSignIn(direct, ATTACKER, rotatingForwardedFor())).statusCode);
    const limit = direct.config.AUTH_RATE_LIMIT_PER_MINUTE;
    expect(statuses.slice(0, limit)).toEqual(Array(limit).fill(401));
    expect(statuses.slice(limit)).toEqual(Array(20 - limit).fill(429));
  });

  it('without TRUSTED_PROXIES, the privacy form, the subscribe form and the TLS ask count the socket address', async () => {
    const owner = await signUp(direct, { verified: true });
    const list = (
      await direct.app.inject({ method: 'POST', url: '/api/lists', headers: owner.headers, payload: { name: 'Site' } })
    ).json();
    const subscribe = () =>
      direct.app.inject({
        method: 'POST',
        url: `/s/${list.id}`,
        remoteAddress: ATTACKER,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': rotatingForwardedFor() },
        payload: `email=${encodeURIComponent(`leitor-${randomUUID().slice(0, 6)}@example.com`)}&consentimento=sim`,
      });
    const privacy: number[] = [];
    for (let i = 0; i <= PRIVACY_RATE_LIMIT.limit; i++) {
      privacy.push((await privacyRequest(direct, ATTACKER, rotatingForwardedFor())).statusCode);
    }
    expect(privacy.at(-1)).toBe(429);
    expect(privacy.slice(0, -1).every((status) => status === 200)).toBe(true);
    const subscriptions: number[] = [];
    for (let i = 0; i <= SUBSCRIBE_RATE_LIMIT.limit; i++) subscriptions.push((await subscribe()).statusCode);
    expect(subscriptions.at(-1)).toBe(429);
    expect(subscriptions.slice(0, -1).every((status) => status === 200)).toBe(true);
    await direct.app.inject({
      url: '/internal/tls-ask?domain=links.exemplo.com.br',
      remoteAddress: ATTACKER,
      headers: { 'x-forwarded-for': rotatingForwardedFor() },
    });
    expect(await rateLimitKeys(direct, 'privacy:')).toEqual([`privacy:${ATTACKER}`]);
    expect(await rateLimitKeys(direct, 'subscribe:')).toEqual([`subscribe:${ATTACKER}`]);
    expect(await rateLimitKeys(direct, 'tls-ask:')).toEqual([`tls-ask:${ATTACKER}`]);
  });

  it('behind a trusted proxy, its X-Forwarded-For names the client; anyone else’s is ignored', async () => {
    // Through the proxy, each rotated value is a different client: no per-address refusal for them…
    for (let i = 0; i < 6; i++) {
      expect((await wrongSignIn(proxied, '127.0.0.1', `192.0.2.${100 + i}`)).statusCode).toBe(401);
    }
    await privacyRequest(proxied, '127.0.0.1', '192.0.2.77');
    // …while the same header from a client that is not the proxy counts as that client's own address.
    await privacyRequest(proxied, ATTACKER, '192.0.2.78');
    expect(await rateLimitKeys(proxied, 'privacy:')).toEqual([`privacy:192.0.2.77`, `privacy:${ATTACKER}`]);
    const limit = proxied.config.AUTH_RATE_LIMIT_PER_MINUTE;
    const statuses: number[] = [];
    for (let i = 0; i < limit + 2; i++)
      statuses.push((await wrongSignIn(proxied, ATTACKER, rotatingForwardedFor())).statusCode);
    expect(statuses.slice(limit)).toEqual([429, 429]);
  });
});

// One app per setting (a fresh PGlite each): slow to start on a loaded box.
describe('TRUSTED_PROXIES forms', { timeout: 120_000 }, () => {
  const apps = new Map<string, TestApp>();
  afterAll(async () => {
    for (const app of apps.values()) await app.close();
  });
  /** The client address an app with this TRUSTED_PROXIES (null = unset) settles on, one app per setting. */
  async function clientIp(trustedProxies: string | null, remoteAddress: string, forwardedFor?: string) {
    const setting = trustedProxies ?? '';
    let t = apps.get(setting);
    if (!t) {
      t = await createTestApp('pglite', trustedProxies === null ? {} : { TRUSTED_PROXIES: trustedProxies }, echoIp);
      apps.set(setting, t);
    }
    const res = await t.app.inject({
      url: '/test/client-ip',
      remoteAddress,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
    });
    return res.json().ip as string;
  }

  it('none by default: the socket address, whatever the header says', async () => {
    expect(await clientIp(null, ATTACKER, '192.0.2.1')).toBe(ATTACKER);
  });

  it('addresses and CIDRs: only the listed proxies are believed, one hop at a time', async () => {
    expect(await clientIp('127.0.0.1,10.0.0.0/8', '10.1.2.3', '192.0.2.9')).toBe('192.0.2.9');
    expect(await clientIp('127.0.0.1,10.0.0.0/8', ATTACKER, '192.0.2.9')).toBe(ATTACKER);
    // A forged entry to the left of the client the proxy saw is never reached.
    expect(await clientIp('127.0.0.1,10.0.0.0/8', '127.0.0.1', '6.6.6.6, 192.0.2.9')).toBe('192.0.2.9');
  });

  it('a hop count: the socket peer and the hops after it are the proxies; the next entry is the client', async () => {
    expect(await clientIp('2', '10.0.0.1', '6.6.6.6, 192.0.2.9, 10.0.0.2')).toBe('192.0.2.9');
    expect(await clientIp('2', '10.0.0.1', `${rotatingForwardedFor()}, 192.0.2.9, 10.0.0.2`)).toBe('192.0.2.9');
    expect(await clientIp('1', '10.0.0.1', '6.6.6.6, 192.0.2.9')).toBe('192.0.2.9');
  });

  it('refuses a value that is neither an address, a CIDR nor a hop count, naming the variable', () => {
    for (const bad of ['proxy.example', '10.0.0.0/33', '1.2.3.4/8/2', 'loopback,256.1.1.1']) {
      expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ TRUSTED_PROXIES: bad })).toThrow(/TRUSTED_PROXIES: ".+" não é um endereço, CIDR/);
    }
    expect(loadConfig({ TRUSTED_PROXIES: 'loopback, fd00::/8' }).trustProxy).toEqual(['loopback', 'fd00::/8']);
  });
});
