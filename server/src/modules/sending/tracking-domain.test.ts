import { Resolver } from 'node:dns/promises';
import { createRequire } from 'node:module';
import { eq, sql } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecondApp } from '../../../test/support/api-key';
import { startTestDnsServer, type TestDnsServer } from '../../../test/support/dns-server';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { testClock } from '../../../test/support/test-clock';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { SendingEngine } from '../../worker/sending-engine';
import { createRelayTransport } from '../../worker/sending-runtime';
import { contacts } from '../contacts/contacts.db';
import { setDomainSuspended } from '../sender-identities/operator-domains';
import { createSigningResolver } from '../sender-identities/sender-signing';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';
import { sendTransactional } from '../transactional/send-transactional';
import { messages } from './messages.db';
import { runEngineUntil } from './testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  testSenderSettings,
} from './testing/send-fixtures';
import { type SmtpSink, type SunkMessage, startSmtpSink } from './testing/smtp-sink';

/**
 * Tracking links on the sender's own tracking host (ADR 0012 "Tracking domains"): messages built by the real
 * engine, received by a loopback SMTP sink, every link read back from the parsed message; then the links used
 * with that Host against the app. DNS answers come from a loopback DNS server.
 */
const { authenticate } = createRequire(import.meta.url)('mailauth') as {
  authenticate: (input: Buffer, options: Record<string, unknown>) => Promise<unknown>;
};

const PUBLIC_URL = 'https://app.carteiro.test';
const BOUNCES = 'bounces.carteiro.test';
const OFFER = 'https://exemplo.com.br/oferta';

interface Links {
  html: string;
  /** Every absolute URL of the HTML part, the text part and List-Unsubscribe, except the offer's own address. */
  ours: URL[];
  listUnsubscribe: string;
}

async function linksOf(message: SunkMessage): Promise<Links> {
  const mail = await simpleParser(message.raw);
  const html = String(mail.html);
  const line = mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line ?? '';
  const listUnsubscribe = line.replace(/^list-unsubscribe:\s*/i, '').replace(/\r?\n\s+/g, ' ');
  const urls = `${html}\n${mail.text ?? ''}\n${listUnsubscribe}`.match(/https?:\/\/[^\s"'<>\]]+/g) ?? [];
  const ours = urls
    .map((u) => u.replace(/&amp;/g, '&'))
    .filter((u) => !u.startsWith(OFFER))
    .map((u) => new URL(u));
  return { html, ours, listUnsubscribe };
}

function pathsOf(links: Links): string[] {
  return [...new Set(links.ours.map((u) => u.pathname.split('/')[1] ?? ''))].sort();
}

describe.each(DATABASE_KINDS)('tracking links on the sender tracking domain on %s', (kind) => {
  let t: TestApp;
  let dns: TestDnsServer;
  let sink: SmtpSink;
  let resolver: Resolver;
  let user: SignedInUser;
  let listId: string;
  let lojaId: string;
  const clock = testClock();

  beforeAll(async () => {
    dns = await startTestDnsServer();
    sink = await startSmtpSink();
    t = await createTestApp(kind, { DNS_SERVERS: dns.address, BOUNCE_DOMAIN: BOUNCES, PUBLIC_URL }, undefined, {
      clock: clock.now,
    });
    resolver = new Resolver({ timeout: 2000, tries: 1 });
    resolver.setServers([dns.address]);
    user = await signUp(t, { verified: true });
    await creditAccount(t.database.db, user.accountId, 100_000);
    ({ listId } = await createListWithContacts(t.database.db, user.accountId, ['cliente@destino.test'], {
      cidade: 'Natal',
    }));
    lojaId = await addVerifiedDomain('loja.test', { tracking: true });
    await addVerifiedDomain('semlinks.test', { tracking: false });
  });
  afterAll(async () => {
    await t?.close();
    await sink?.close();
    await dns?.close();
  });

  async function addVerifiedDomain(domain: string, options: { tracking: boolean }): Promise<string> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/sender-domains',
      headers: user.headers,
      payload: { domain },
    });
    expect(created.statusCode, created.body).toBe(201);
    const body = created.json() as { id: string; records: { kind: string; name: string; value: string }[] };
    for (const r of body.records) {
      if (r.kind === 'dkim' || r.kind === 'dkim_ed25519') dns.setTxt(r.name, [r.value]);
      if (r.kind === 'tracking' && options.tracking) {
        expect(r).toMatchObject({ name: `links.${domain}`, value: 'app.carteiro.test' });
        dns.setCname(r.name, r.value);
      }
    }
    const checked = await check(body.id);
    expect(checked.status).toBe('verified');
    return body.id;
  }

  async function check(id: string): Promise<{ status: string; records: { kind: string; status: string }[] }> {
    const res = await t.app.inject({ method: 'POST', url: `/api/sender-domains/${id}/check`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  }

  function newSender(): { sender: SendingEngine; close(): Promise<void> } {
    const transport = createRelayTransport(sink.url, 1);
    const sender = new SendingEngine({
      db: t.database.db,
      transports: [transport],
      settings: testSenderSettings({ publicUrl: PUBLIC_URL, bounceDomain: BOUNCES }),
      logger: pino({ level: 'silent' }),
      mailer: t.mailer,
      signingFor: createSigningResolver({
        db: t.database.db,
        secret: t.config.AUTH_SECRET as string,
        platformSigners: [],
        platformBounceDomain: BOUNCES,
      }),
    });
    return {
      sender,
      async close() {
        await sender.stop();
        await transport.close();
      },
    };
  }

  async function sendCampaign(fromEmail: string): Promise<{ message: SunkMessage; campaignId: string }> {
    const campaignId = await createReadyCampaign(
      t.database.db,
      user.accountId,
      { includeListIds: [listId], fromEmail },
      { trustFrom: false },
    );
    const res = await t.app.inject({ method: 'POST', url: `/api/campaigns/${campaignId}/send`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);
    const before = sink.messages.length;
    const { sender, close } = newSender();
    try {
      await runEngineUntil(
        sender,
        async () => (await campaignStatus(t.database.db, campaignId))?.status === 'sent',
        'the campaign sent',
        { pauseMs: 10 },
      );
    } finally {
      await close();
    }
    const message = sink.messages.slice(before).find((m) => m.to === 'cliente@destino.test');
    if (!message) throw new Error('message not delivered to the sink');
    return { message, campaignId };
  }

  async function dkimResults(message: SunkMessage): Promise<string[][]> {
    const result = (await authenticate(message.raw, {
      ip: '127.0.0.1',
      helo: 'mta.carteiro.test',
      sender: message.from,
      mta: 'mx.destino.test',
      disableArc: true,
      disableBimi: true,
      resolver: (name: string, type: string) => resolver.resolve(name, type as 'TXT') as Promise<never>,
    })) as { dkim: { results: { signingDomain: string; status: { result: string } }[] } };
    return result.dkim.results.map((r) => [r.signingDomain, r.status.result]);
  }

  it('puts every tracked link of a campaign on links.<domain> when the CNAME is verified; DKIM still passes', async () => {
    const { message } = await sendCampaign('ofertas@loja.test');
    const links = await linksOf(message);
    expect(new Set(links.ours.map((u) => u.origin))).toEqual(new Set(['https://links.loja.test']));
    // Click, open pixel, unsubscribe (body and header) and "ver no navegador".
    expect(pathsOf(links)).toEqual(['c', 'campaign', 'o', 'u']);
    expect(links.html).not.toContain(`href="${OFFER}"`);
    expect(links.listUnsubscribe).toMatch(/^<https:\/\/links\.loja\.test\/u\/[0-9a-f]{40}>$/);
    // Settings → Remetentes e domínios says so, in pt-BR.
    const shown = await t.app.inject({ method: 'GET', url: `/api/sender-domains/${lojaId}`, headers: user.headers });
    const tracking = (shown.json() as { records: { kind: string; note: string }[] }).records.find(
      (r) => r.kind === 'tracking',
    );
    expect(tracking?.note).toBe(
      'Os links, o pixel de abertura e o descadastro das mensagens enviadas de loja.test usam links.loja.test.',
    );
    expect(await dkimResults(message)).toEqual([
      ['loja.test', 'pass'],
      ['loja.test', 'pass'],
    ]);
  });

  it('keeps PUBLIC_URL without the CNAME, for a From at a confirmed address only, and for a suspended domain', async () => {
    const without = await linksOf((await sendCampaign('ofertas@semlinks.test')).message);
    expect(new Set(without.ours.map((u) => u.origin))).toEqual(new Set([PUBLIC_URL]));
    expect(pathsOf(without)).toEqual(['c', 'campaign', 'o', 'u']);

    await trustSenderAddress(t.database.db, user.accountId, 'vendas@outra.test');
    dns.setCname('links.outra.test', 'app.carteiro.test');
    const confirmed = await linksOf((await sendCampaign('vendas@outra.test')).message);
    expect(new Set(confirmed.ours.map((u) => u.origin))).toEqual(new Set([PUBLIC_URL]));

    // Suspended by the operator: a confirmed address there may still send, with the platform's links.
    await trustSenderAddress(t.database.db, user.accountId, 'promo@loja.test');
    const operator = { userId: 'op', email: 'operador@example.com' };
    await setDomainSuspended(t.database.db, operator, lojaId, { reason: 'teste' });
    try {
      const suspended = await linksOf((await sendCampaign('promo@loja.test')).message);
      expect(new Set(suspended.ours.map((u) => u.origin))).toEqual(new Set([PUBLIC_URL]));
    } finally {
      await setDomainSuspended(t.database.db, operator, lojaId, null);
    }
  });

  it('falls back to PUBLIC_URL once a re-check finds the CNAME broken, and back again when it is fixed', async () => {
    dns.setCname('links.loja.test', 'outro-provedor.test');
    const broken = await check(lojaId);
    expect(broken.status).toBe('verified');
    expect(broken.records.find((r) => r.kind === 'tracking')?.status).toBe('wrong');
    const fallback = await linksOf((await sendCampaign('ofertas@loja.test')).message);
    expect(new Set(fallback.ours.map((u) => u.origin))).toEqual(new Set([PUBLIC_URL]));

    dns.setCname('links.loja.test', 'app.carteiro.test');
    expect((await check(lojaId)).records.find((r) => r.kind === 'tracking')?.status).toBe('found');
    const fixed = await linksOf((await sendCampaign('ofertas@loja.test')).message);
    expect(new Set(fixed.ours.map((u) => u.origin))).toEqual(new Set(['https://links.loja.test']));
  });

  it('moves the links of a transactional marketing message to links.<domain> too', async () => {
    const result = await sendTransactional(
      t.database.db,
      user.accountId,
      [
        {
          from: { email: 'news@loja.test', name: 'Loja' },
          to: { email: 'tx@destino.test' },
          subject: 'Novidades',
          html: `<p>Veja <a href="${OFFER}">a oferta</a>. <a href="{{ link_navegador }}">Navegador</a> <a href="{{ link_descadastro }}">Descadastrar</a></p>`,
          text: 'Descadastrar: {{ link_descadastro }}',
          category: 'marketing',
          trackOpens: true,
          trackClicks: true,
        },
      ],
      { publicUrl: PUBLIC_URL },
    );
    const id = Number(result.messages[0]?.id);
    const before = sink.messages.length;
    const { sender, close } = newSender();
    try {
      await runEngineUntil(
        sender,
        async () => (await t.database.db.select().from(messages).where(eq(messages.id, id)))[0]?.status === 'sent',
        'the message sent',
        { pauseMs: 10 },
      );
    } finally {
      await close();
    }
    const message = sink.messages.slice(before).find((m) => m.to === 'tx@destino.test');
    if (!message) throw new Error('transactional message not delivered');
    const links = await linksOf(message);
    expect(new Set(links.ours.map((u) => u.origin))).toEqual(new Set(['https://links.loja.test']));
    expect(pathsOf(links)).toEqual(['c', 'campaign', 'o', 'u']);
    // The unsubscribe link stays the engine's own (never wrapped in a click redirect).
    expect(links.html).toMatch(/href="https:\/\/links\.loja\.test\/u\/[0-9a-f]{40}"/);
    expect(links.listUnsubscribe).toMatch(/^<https:\/\/links\.loja\.test\/u\/[0-9a-f]{40}>$/);
  });

  it('records a click and an open, and unsubscribes in one click, on the tracking host', async () => {
    const { message, campaignId } = await sendCampaign('ofertas@loja.test');
    const links = await linksOf(message);
    const host = { host: 'links.loja.test', 'user-agent': 'Mozilla/5.0 (Windows NT 10.0) Chrome/120' };
    const pathOf = (kind: string) => {
      const url = links.ours.find((u) => u.pathname.startsWith(`/${kind}/`));
      if (!url) throw new Error(`no /${kind}/ link`);
      return `${url.pathname}${url.search}`;
    };
    const click = await t.app.inject({ method: 'GET', url: pathOf('c'), headers: host });
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe(OFFER);
    const open = await t.app.inject({ method: 'GET', url: pathOf('o'), headers: host });
    expect(open.statusCode).toBe(200);
    expect(open.headers['content-type']).toBe('image/gif');
    await t.app.trackingRecorder.flush();
    const events = await queryRows<{ kind: string }>(
      t.database.db,
      sql`select kind from message_events where campaign_id = ${campaignId} order by kind`,
    );
    expect(events.map((e) => e.kind)).toEqual(['click', 'open']);

    // The unsubscribe page: its forms post to the same host (relative actions; CSP form-action 'self').
    const page = await t.app.inject({ method: 'GET', url: pathOf('u'), headers: host });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`action="${pathOf('u')}/confirm"`);
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");

    // "Ver no navegador" is a page of the web app: sent on to PUBLIC_URL.
    const view = await t.app.inject({ method: 'GET', url: pathOf('campaign'), headers: host });
    expect(view.statusCode).toBe(302);
    expect(view.headers.location).toBe(`${PUBLIC_URL}${pathOf('campaign')}`);

    // RFC 8058 one-click, as a mailbox provider posts it to the List-Unsubscribe URL.
    const oneClick = await t.app.inject({
      method: 'POST',
      url: new URL(links.listUnsubscribe.slice(1, -1)).pathname,
      headers: { host: 'links.loja.test', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);
    const [contact] = await t.database.db
      .select({ status: contacts.status })
      .from(contacts)
      .where(eq(contacts.email, 'cliente@destino.test'));
    expect(contact?.status).toBe('unsubscribed');
    await t.database.db
      .update(contacts)
      .set({ status: 'subscribed' })
      .where(eq(contacts.email, 'cliente@destino.test'));
  });

  it('answers nothing else on a tracking host: dashboard, session, API v1, auth, health are 404', async () => {
    const onTracking = { host: 'links.loja.test' };
    for (const url of ['/api/session', '/dashboard', '/api/v1/contacts', '/api/auth/get-session', '/healthz', '/']) {
      const res = await t.app.inject({ method: 'GET', url, headers: { ...onTracking, cookie: user.headers.cookie } });
      expect(res.statusCode, url).toBe(404);
    }
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-in/email',
      headers: { ...onTracking, origin: 'https://links.loja.test', 'content-type': 'application/json' },
      payload: { email: 'x@y.test', password: 'qualquer-coisa' },
    });
    expect(login.statusCode).toBe(404);
    const ask = await t.app.inject({
      method: 'GET',
      url: '/internal/tls-ask?domain=links.loja.test',
      headers: onTracking,
    });
    expect(ask.statusCode).toBe(404);
    // The same session request on the app's own host is answered.
    const own = await t.app.inject({ method: 'GET', url: '/api/session', headers: user.headers });
    expect(own.statusCode).toBe(200);
  });

  it('TRACKING_DOMAINS=off: the resolver gives no tracking host and the TLS ask says no', async () => {
    const resolve = (trackingDomains: boolean) =>
      createSigningResolver({
        db: t.database.db,
        secret: t.config.AUTH_SECRET as string,
        platformSigners: [],
        platformBounceDomain: BOUNCES,
        trackingDomains,
      })(user.accountId, 'ofertas@loja.test');
    expect((await resolve(true)).trackingHost).toBe('links.loja.test');
    expect((await resolve(false)).trackingHost).toBeNull();
    const off = await createSecondApp(t, { PUBLIC_URL, TRACKING_DOMAINS: 'off' });
    try {
      const ask = await off.inject({ method: 'GET', url: '/internal/tls-ask?domain=links.loja.test' });
      expect(ask.statusCode).toBe(404);
    } finally {
      await off.close();
    }
    const on = await t.app.inject({ method: 'GET', url: '/internal/tls-ask?domain=links.loja.test' });
    expect(on.statusCode).toBe(200);
  });

  it('on-demand TLS ask: 200 only for a verified tracking host of a domain not suspended', async () => {
    const ask = async (domain: string, remoteAddress?: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url: `/internal/tls-ask?domain=${encodeURIComponent(domain)}`,
          remoteAddress,
        })
      ).statusCode;
    expect(await ask('links.loja.test')).toBe(200);
    expect(await ask('LINKS.LOJA.TEST.')).toBe(200);
    expect(await ask('links.semlinks.test')).toBe(404); // verified, CNAME not found
    expect(await ask('loja.test')).toBe(404);
    expect(await ask('app.loja.test')).toBe(404);
    expect(await ask('links.desconhecido.test')).toBe(404);
    // A domain with the CNAME published but not verified (no DKIM record).
    const pending = await t.app.inject({
      method: 'POST',
      url: '/api/sender-domains',
      headers: user.headers,
      payload: { domain: 'pendente.test' },
    });
    const pendingId = (pending.json() as { id: string }).id;
    dns.setCname('links.pendente.test', 'app.carteiro.test');
    expect((await check(pendingId)).status).toBe('pending');
    expect(await ask('links.pendente.test')).toBe(404);
    // Suspended by the operator.
    const operator = { userId: 'op', email: 'operador@example.com' };
    await setDomainSuspended(t.database.db, operator, lojaId, { reason: 'phishing' });
    expect(await ask('links.loja.test')).toBe(404);
    await setDomainSuspended(t.database.db, operator, lojaId, null);
    expect(await ask('links.loja.test')).toBe(200);
    // Account B's unrelated domain check does not change A's answer; no account data in the body.
    const body = await t.app.inject({ method: 'GET', url: '/internal/tls-ask?domain=links.loja.test' });
    expect(body.body).toBe('ok');
    // Rate-limited per address when not on loopback: 300 in a clock minute (fixed windows), so the burst starts
    // at the start of a window (the app's clock is moved there), and the next window lets the address in again.
    clock.set(new Date(Math.ceil(Date.now() / 60_000) * 60_000));
    const statuses: number[] = [];
    for (let i = 0; i < 301; i++) statuses.push(await ask('links.loja.test', '203.0.113.9'));
    expect(statuses.slice(0, 300).every((s) => s === 200)).toBe(true);
    expect(statuses[300]).toBe(429);
    expect(await ask('links.loja.test')).toBe(200);
    clock.advance(60_000);
    expect(await ask('links.loja.test', '203.0.113.9')).toBe(200);
  }, 60_000);
});
