import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { type TestClock, testClock } from '../../../test/support/test-clock';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { accounts } from '../accounts/accounts.db';
import { closeUntrustedRendering } from '../templates/untrusted-render';
import { campaigns } from './campaigns.db';
import { PUBLIC_VIEWER_PER_MINUTE } from './public-viewer';

const HTML =
  '<p>Olá, {{ contato.nome | default: "cliente" }}! {{ conta.nome }}</p><a href="{{ link_descadastro }}">Sair</a>';
/** Saved before loops had a budget (written straight to the table): a million iterations, stopped at 10,000. */
const RUNAWAY =
  '{% for i in (1..1000) %}{% for j in (1..1000) %}{{ i | append: j | upcase | replace: "1", "x" }}{% endfor %}{% endfor %}';
/** Within the loop and memory budgets, but a second of sorting: the render deadline (300 ms here) stops it. */
const SLOW = `{% assign a = "${'jihgfedcba'.repeat(50)}" | split: "" %}{% for i in (1..9900) %}{% assign b = a | sort | reverse %}{% endfor %}{{ b | first }}`;

let clients = 0;
const newClient = () => `198.51.100.${++clients % 250}`;

describe.each(DATABASE_KINDS)('the public campaign viewer on %s', (kind) => {
  let t: TestApp;
  let owner: SignedInUser;
  let clock: TestClock;
  beforeAll(async () => {
    // Standing in the middle of the current minute: the viewer's per-minute window cannot turn over while the
    // rate-limit test spends its 61 views (it did, now and then, on the real clock).
    clock = testClock(new Date(Math.floor(Date.now() / 60_000) * 60_000 + 30_000));
    t = await createTestApp(kind, { TEMPLATE_RENDER_DEADLINE_MS: '300' }, undefined, {
      clock: clock.now,
    });
    owner = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await t.close();
    await closeUntrustedRendering();
  });

  async function campaignIn(status: (typeof campaigns.$inferSelect)['status'], startedAt: Date | null = null) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/campaigns',
      headers: owner.headers,
      payload: { uuid: randomUUID(), name: 'Ofertas', subject: 'Oi {{ contato.nome }}', template: HTML },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    await t.database.db.update(campaigns).set({ status, startedAt }).where(eq(campaigns.id, id));
    return id;
  }

  const view = (id: string, remoteAddress = newClient(), query = '') =>
    t.app.inject({ url: `/api/public/campaigns/${id}/html${query}`, remoteAddress });

  it('shows only what recipients have or will have: never a draft, nor a campaign cancelled before it began', async () => {
    for (const [status, startedAt, expected] of [
      ['draft', null, 404],
      ['cancelled', null, 404],
      ['scheduled', null, 200],
      ['sending', new Date(), 200],
      ['paused', new Date(), 200],
      ['sent', new Date(), 200],
      ['cancelled', new Date(), 200],
      ['failed', new Date(), 200],
    ] as const) {
      const res = await view(await campaignIn(status, startedAt));
      expect(res.statusCode, `${status} ${startedAt ? 'started' : 'not started'}`).toBe(expected);
      if (expected === 404) expect(res.json().error.message).toBe('Campanha não encontrada.');
      else expect(res.json().html).toContain('Olá, cliente!');
    }
  });

  it('renders the generic view once per campaign version, and lets caches keep it briefly', async () => {
    await t.database.db.update(accounts).set({ name: 'Padaria' }).where(eq(accounts.id, owner.accountId));
    const id = await campaignIn('sent', new Date());
    const first = await view(id);
    expect(first.headers['cache-control']).toBe('public, max-age=60');
    expect(first.json().html).toContain('Padaria');
    // The account's name changes, the campaign does not: the cached render is served.
    await t.database.db.update(accounts).set({ name: 'Outra Loja' }).where(eq(accounts.id, owner.accountId));
    expect((await view(id)).json().html).toContain('Padaria');
    // The campaign changes (a scheduled one may be edited): rendered again.
    await t.database.db.update(campaigns).set({ updatedAt: new Date() }).where(eq(campaigns.id, id));
    expect((await view(id)).json().html).toContain('Outra Loja');
  });

  it('limits each client address (429 with Retry-After), not the others', async () => {
    const id = await campaignIn('sent', new Date());
    const address = newClient();
    for (let i = 0; i < PUBLIC_VIEWER_PER_MINUTE; i++) expect((await view(id, address)).statusCode).toBe(200);
    const refused = await view(id, address);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.message).toBe('Muitas visualizações a partir desta rede. Tente de novo em instantes.');
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect((await view(id, newClient())).statusCode).toBe(200);
    // The next minute's window lets the same address in again.
    clock.advance(60_000);
    expect((await view(id, address)).statusCode).toBe(200);
  });

  it.each([
    ['runs away past the loop budget', RUNAWAY],
    ['is merely slow', SLOW],
  ])('a template that %s shows an empty page, and the server keeps answering meanwhile', async (_case, template) => {
    const id = await campaignIn('sent', new Date());
    await t.database.db.update(campaigns).set({ template }).where(eq(campaigns.id, id));
    let healthChecks = 0;
    let done = false;
    const hostile = view(id).finally(() => {
      done = true;
    });
    while (!done) {
      expect((await t.app.inject('/healthz')).statusCode).toBe(200);
      healthChecks += 1;
      // inject() can complete in microtasks alone: give the event loop its turn (timers, the render thread's reply).
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const res = await hostile;
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ html: '', personalised: false });
    // /healthz was answered again and again while the template ran (on the event loop it would have waited).
    expect(healthChecks).toBeGreaterThan(1);
  });
});
