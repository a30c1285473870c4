import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAccount } from '../../../test/support/test-account';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { campaigns } from '../campaigns/campaigns.db';

/** `name{labels} value` lines of an exposition, as a map from the series to its value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const i = line.lastIndexOf(' ');
    out.set(line.slice(0, i), Number(line.slice(i + 1)));
  }
  return out;
}

/** Every line is a comment or a valid sample (the 0.0.4 grammar, simplified), and each family is typed once. */
function expectWellFormed(text: string): void {
  expect(text.endsWith('\n')).toBe(true);
  const types = new Set<string>();
  for (const line of text.trimEnd().split('\n')) {
    if (line.startsWith('# TYPE ')) {
      const name = line.split(' ')[2] as string;
      expect(types.has(name), name).toBe(false);
      types.add(name);
      continue;
    }
    if (line.startsWith('# HELP ')) continue;
    expect(line).toMatch(
      /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="([^"\\\n]|\\.)*",?)*\})? (-?[0-9.e+-]+|NaN|[+-]Inf)$/,
    );
  }
}

describe.each(DATABASE_KINDS)('GET /metrics on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
    // Before the first scrape: the database gauges are then cached for 5 s.
    const account = await createTestAccount(t.database.db);
    const row = (status: 'draft' | 'sending' | 'sent', recipients: number, sent: number) => ({
      uuid: randomUUID(),
      createdBy: account.id,
      name: `c-${status}`,
      status,
      recipientsCount: recipients,
      sentCount: sent,
    });
    await t.database.db
      .insert(campaigns)
      .values([row('draft', 0, 0), row('draft', 0, 0), row('sending', 100, 40), row('sent', 10, 10)]);
  });
  afterAll(async () => {
    await t.close();
  });

  it('serves the text format 0.0.4 with process metrics', async () => {
    const res = await t.app.inject('/metrics');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expectWellFormed(res.body);
    const s = samples(res.body);
    expect(s.get('process_resident_memory_bytes')).toBeGreaterThan(1_000_000);
    expect(s.get('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    expect(s.get('process_uptime_seconds')).toBeGreaterThan(0);
    expect(s.has('nodejs_eventloop_lag_seconds')).toBe(true);
    expect(s.get('carteiro_database_up')).toBe(1);
  });

  it('counts requests by route pattern (never the raw URL) and status, with a latency histogram', async () => {
    const id = randomUUID();
    for (let i = 0; i < 3; i++) await t.app.inject('/healthz');
    await t.app.inject(`/api/templates/${id}`); // 401 without a session
    await t.app.inject(`/api/nada/${id}`); // no route
    const res = await t.app.inject('/metrics');
    expectWellFormed(res.body);
    const s = samples(res.body);
    expect(s.get('carteiro_http_requests_total{method="GET",route="/healthz",status="200"}')).toBe(3);
    expect(s.get('carteiro_http_requests_total{method="GET",route="/api/templates/:id",status="401"}')).toBe(1);
    expect(s.get('carteiro_http_requests_total{method="GET",route="unmatched",status="404"}')).toBeGreaterThanOrEqual(
      1,
    );
    expect(res.body).not.toContain(id);
    expect(s.get('carteiro_http_request_duration_seconds_count{method="GET",route="/healthz"}')).toBe(3);
    expect(s.get('carteiro_http_request_duration_seconds_bucket{method="GET",route="/healthz",le="+Inf"}')).toBe(3);
    const sum = s.get('carteiro_http_request_duration_seconds_sum{method="GET",route="/healthz"}') ?? -1;
    expect(sum).toBeGreaterThanOrEqual(0);
    expect(sum).toBeLessThan(10);
  });

  it('reads campaigns by status and pending messages from the database', async () => {
    const s = samples((await t.app.inject('/metrics')).body);
    expect(s.get('carteiro_campaigns{status="draft"}')).toBe(2);
    expect(s.get('carteiro_campaigns{status="sending"}')).toBe(1);
    expect(s.get('carteiro_campaigns{status="sent"}')).toBe(1);
    expect(s.get('carteiro_campaigns{status="cancelled"}')).toBe(0);
    expect(s.get('carteiro_messages_pending')).toBe(60);
    expect(s.get('carteiro_messages_in_flight')).toBe(0);
  });

  it('refuses non-loopback and proxied clients by default, with a 404', async () => {
    const remote = await t.app.inject({ url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(remote.statusCode).toBe(404);
    const proxied = await t.app.inject({ url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect(proxied.statusCode).toBe(404);
  });
});

describe('GET /metrics access settings', () => {
  it('is off with METRICS_ENABLED=false, and opens to a bearer token from anywhere', async () => {
    const off = await createTestApp('pglite', { METRICS_ENABLED: 'false' });
    try {
      expect((await off.app.inject('/metrics')).statusCode).toBe(404);
    } finally {
      await off.close();
    }
    const token = 'metrics-token-0123456789';
    const withToken = await createTestApp('pglite', { METRICS_TOKEN: token });
    try {
      const remote = { url: '/metrics', remoteAddress: '203.0.113.9' };
      expect((await withToken.app.inject(remote)).statusCode).toBe(404);
      const bad = await withToken.app.inject({ ...remote, headers: { authorization: 'Bearer wrong-token-000000000' } });
      expect(bad.statusCode).toBe(404);
      const good = await withToken.app.inject({ ...remote, headers: { authorization: `Bearer ${token}` } });
      expect(good.statusCode).toBe(200);
    } finally {
      await withToken.close();
    }
  });
});
