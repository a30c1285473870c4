import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../../../test/support/dns-server';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { createDnsResolver } from '../../net/dns';
import { createListWithContacts, createReadyCampaign, creditAccount } from '../sending/testing/send-fixtures';
import { recheckDueDomains } from './domain-checks';
import { notifyDomainBroken } from './domain-rechecks';
import { decryptSecret } from './key-encryption';
import { senderAddresses, senderDomains } from './sender-identities.db';
import { senderIdentitySettings } from './sender-settings';

/** Everything the app logged, to grep for private keys. */
const logLines: string[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk, _enc, done) {
      logLines.push(String(chunk));
      done();
    },
  }),
);

describe.each(DATABASE_KINDS)('sender identities on %s', (kind) => {
  let t: TestApp;
  let dns: TestDnsServer;
  /** Every body the API answered, to grep for private keys. */
  const answers: string[] = [];

  beforeAll(async () => {
    dns = await startTestDnsServer();
    t = await createTestApp(
      kind,
      {
        DNS_SERVERS: dns.address,
        BOUNCE_DOMAIN: 'bounces.carteiro.test',
        ADMIN_EMAILS: 'operador@carteiro.test',
      },
      undefined,
      {
        logger,
      },
    );
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  async function call(user: SignedInUser | null, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: unknown) {
    const res = await t.app.inject({
      method,
      url,
      headers: user?.headers ?? { origin: t.origin },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
    answers.push(res.body);
    return res;
  }

  async function confirmationToken(email: string): Promise<string> {
    const mail = (await t.sentMail()).find((m) => m.to.includes(email));
    const token = /\/confirm-sender\/([A-Za-z0-9_-]+)/.exec(mail?.text ?? '')?.[1];
    if (!token) throw new Error(`no confirmation link sent to ${email}`);
    return token;
  }

  it("confirms the user's own verified login e-mail at once, without a second link", async () => {
    const email = `dona-${randomUUID().slice(0, 8)}@padaria.com.br`;
    const owner = await signUp(t, { verified: true, email });
    const before = (await t.sentMail()).length;
    const added = await call(owner, 'POST', '/api/sender-addresses', { email: email.toUpperCase() });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ email, status: 'confirmed' });
    expect((await t.sentMail()).slice(before).filter((m) => m.to.includes(email))).toEqual([]);
    expect((await call(owner, 'GET', '/api/senders')).json().allowed.addresses).toEqual([email]);
    // Any other address still needs its link.
    const other = await call(owner, 'POST', '/api/sender-addresses', { email: 'vendas@padaria.com.br' });
    expect(other.json()).toMatchObject({ status: 'pending' });
  });

  it('confirms an address with a single-use link; a reused or expired link is refused', async () => {
    const owner = await signUp(t, { verified: true });
    const added = await call(owner, 'POST', '/api/sender-addresses', { email: 'Contato@Padaria.com.br' });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json()).toMatchObject({ email: 'contato@padaria.com.br', status: 'pending' });
    // Asking again within a minute does not send a second mail.
    expect((await call(owner, 'POST', '/api/sender-addresses', { email: 'contato@padaria.com.br' })).statusCode).toBe(
      429,
    );

    const token = await confirmationToken('contato@padaria.com.br');
    const confirmed = await call(null, 'POST', '/api/sender-addresses/confirm', { token });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toEqual({ email: 'contato@padaria.com.br' });
    const reused = await call(null, 'POST', '/api/sender-addresses/confirm', { token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().error).toMatchObject({
      code: 'invalid-action-code',
      message: expect.stringContaining('já foi usado'),
    });

    const list = (await call(owner, 'GET', '/api/senders')).json();
    expect(list.allowed.addresses).toEqual(['contato@padaria.com.br']);

    // Expired: the link of a second address, its expiry moved to the past.
    await call(owner, 'POST', '/api/sender-addresses', { email: 'vendas@padaria.com.br' });
    const late = await confirmationToken('vendas@padaria.com.br');
    await t.database.db
      .update(senderAddresses)
      .set({ tokenExpiresAt: new Date(Date.now() - 1000) })
      .where(eq(senderAddresses.email, 'vendas@padaria.com.br'));
    const expired = await call(null, 'POST', '/api/sender-addresses/confirm', { token: late });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.code).toBe('expired-action-code');
    expect((await call(owner, 'GET', '/api/senders')).json().allowed.addresses).toEqual(['contato@padaria.com.br']);
    expect((await call(null, 'POST', '/api/sender-addresses/confirm', { token: 'x' })).statusCode).toBe(400);
  });

  it('adds a domain with its DNS records; missing → verified → broken through the loopback DNS; SPF look-ups warned', async () => {
    const owner = await signUp(t, { verified: true });
    expect((await call(owner, 'POST', '/api/sender-domains', { domain: 'não é domínio' })).json().error.code).toBe(
      'validation_failed',
    );
    const created = await call(owner, 'POST', '/api/sender-domains', { domain: 'https://Loja.Test/' });
    expect(created.statusCode, created.body).toBe(201);
    const domain = created.json();
    expect(domain).toMatchObject({ domain: 'loja.test', status: 'pending' });
    const records = Object.fromEntries(domain.records.map((r: { kind: string }) => [r.kind, r]));
    expect(records.dkim).toMatchObject({ type: 'TXT', status: 'unchecked', required: true });
    expect(records.dkim.name).toMatch(/^carteiro-rsa-[0-9a-f]{8}\._domainkey\.loja\.test$/);
    expect(records.dkim_ed25519.name).toBe(records.dkim.name.replace('carteiro-rsa-', 'carteiro-ed25519-'));
    expect(records.dkim.value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    expect(records.dkim_ed25519.value).toMatch(/^v=DKIM1; k=ed25519; p=/);
    expect(records.spf).toMatchObject({ name: 'loja.test', value: 'v=spf1 include:_spf.bounces.carteiro.test ~all' });
    expect(records.dmarc.value).toBe('v=DMARC1; p=none; rua=mailto:dmarc@loja.test');
    expect(records.return_path).toMatchObject({
      type: 'CNAME',
      name: 'bounces.loja.test',
      value: 'bounces.carteiro.test',
    });
    expect(records.tracking).toMatchObject({ type: 'CNAME', name: 'links.loja.test' });
    expect((await call(owner, 'POST', '/api/sender-domains', { domain: 'loja.test' })).statusCode).toBe(409);

    // Nothing published yet: every record missing, still pending.
    let checked = (await call(owner, 'POST', `/api/sender-domains/${domain.id}/check`)).json();
    expect(checked.status).toBe('pending');
    expect(checked.records.map((r: { status: string }) => r.status)).toEqual(Array(6).fill('missing'));

    // A wrong DKIM key and an SPF with too many look-ups.
    dns.setTxt(records.dkim.name, ['v=DKIM1; k=rsa; p=QUJD']);
    const includes = Array.from({ length: 10 }, (_, i) => `include:_spf${i}.outro.test`).join(' ');
    dns.setTxt('loja.test', [`v=spf1 ${includes} -all`]);
    checked = (await call(owner, 'POST', `/api/sender-domains/${domain.id}/check`)).json();
    let byKind = Object.fromEntries(checked.records.map((r: { kind: string }) => [r.kind, r]));
    expect(checked.status).toBe('pending');
    expect(byKind.dkim).toMatchObject({ status: 'wrong', found: ['v=DKIM1; k=rsa; p=QUJD'] });
    expect(byKind.spf.status).toBe('wrong');
    expect(byKind.spf.value).toBe(`v=spf1 ${includes} include:_spf.bounces.carteiro.test -all`);
    expect(byKind.spf.warning).toContain('11 consultas DNS');

    // Published right: verified; a short SPF merged has no warning.
    dns.setTxt(records.dkim.name, [records.dkim.value]);
    dns.setTxt(records.dkim_ed25519.name, [records.dkim_ed25519.value]);
    dns.setTxt('loja.test', ['v=spf1 mx include:_spf.bounces.carteiro.test ~all', 'google-site-verification=x']);
    dns.setTxt('_dmarc.loja.test', ['v=DMARC1; p=quarantine']);
    dns.setCname('bounces.loja.test', 'bounces.carteiro.test');
    checked = (await call(owner, 'POST', `/api/sender-domains/${domain.id}/check`)).json();
    byKind = Object.fromEntries(checked.records.map((r: { kind: string }) => [r.kind, r]));
    expect(checked.status).toBe('verified');
    expect(checked.returnPathVerified).toBe(true);
    expect(byKind.dkim.status).toBe('found');
    expect(byKind.dkim_ed25519.status).toBe('found');
    expect(byKind.spf).toMatchObject({ status: 'found', warning: null });
    expect(byKind.dmarc).toMatchObject({ status: 'found', value: 'v=DMARC1; p=quarantine' });
    expect(byKind.tracking.status).toBe('missing');
    expect((await call(owner, 'GET', '/api/senders')).json().allowed.domains).toEqual(['loja.test']);
    const alignment = (await call(owner, 'GET', '/api/senders/alignment?fromEmail=ofertas@loja.test')).json();
    expect(alignment).toEqual({
      fromEmail: 'ofertas@loja.test',
      allowed: true,
      dkimAligned: true,
      spfAligned: true,
      dmarcPass: true,
    });

    // The DKIM record disappears: broken, sending from it refused.
    dns.remove(records.dkim.name);
    checked = (await call(owner, 'POST', `/api/sender-domains/${domain.id}/check`)).json();
    expect(checked.status).toBe('broken');
    expect((await call(owner, 'GET', '/api/senders')).json().allowed.domains).toEqual([]);
  });

  it('refuses an unverified From on campaign send, test send, compat /send-campaign and another account’s domain', async () => {
    const owner = await signUp(t, { verified: true });
    await creditAccount(t.database.db, owner.accountId, 10_000);
    const { listId } = await createListWithContacts(t.database.db, owner.accountId, ['a@destino.test'], {
      cidade: 'Salvador',
    });
    const id = await createReadyCampaign(
      t.database.db,
      owner.accountId,
      { includeListIds: [listId], fromEmail: 'noreply@banco.test' },
      { trustFrom: false },
    );
    for (const [url, payload] of [
      [`/api/campaigns/${id}/send`, undefined],
      [`/api/campaigns/${id}/test-send`, { emails: ['eu@destino.test'] }],
      ['/send-campaign', { id }],
    ] as const) {
      const res = await call(owner, 'POST', url, payload);
      expect(res.statusCode, `${url} ${res.body}`).toBe(403);
      expect(res.json().error).toMatchObject({
        code: 'sender_not_verified',
        message: expect.stringContaining('noreply@banco.test não está verificado'),
      });
    }
    expect((await call(owner, 'GET', '/api/senders/unverified')).json()).toEqual({ emails: ['noreply@banco.test'] });

    // banco.test verified by another account: still refused for this one.
    const other = await signUp(t, { verified: true });
    const theirs = (await call(other, 'POST', '/api/sender-domains', { domain: 'banco.test' })).json();
    const dkim = theirs.records.find((r: { kind: string }) => r.kind === 'dkim');
    dns.setTxt(dkim.name, [dkim.value]);
    expect((await call(other, 'POST', `/api/sender-domains/${theirs.id}/check`)).json().status).toBe('verified');
    expect((await call(owner, 'POST', `/api/campaigns/${id}/send`)).statusCode).toBe(403);
    // …and its domain is invisible to this account.
    expect((await call(owner, 'POST', `/api/sender-domains/${theirs.id}/check`)).statusCode).toBe(404);
    expect((await call(owner, 'DELETE', `/api/sender-domains/${theirs.id}`)).statusCode).toBe(404);

    // Once this account verifies its own banco.test, the send goes through.
    const mine = (await call(owner, 'POST', '/api/sender-domains', { domain: 'banco.test' })).json();
    const myDkim = mine.records.find((r: { kind: string }) => r.kind === 'dkim');
    dns.setTxt(myDkim.name, [myDkim.value]);
    expect((await call(owner, 'POST', `/api/sender-domains/${mine.id}/check`)).json().status).toBe('verified');
    expect((await call(owner, 'GET', '/api/senders/unverified')).json()).toEqual({ emails: [] });
    const test = await call(owner, 'POST', `/api/campaigns/${id}/test-send`, { emails: ['eu@destino.test'] });
    expect(test.statusCode, test.body).toBe(200);
    const sent = await call(owner, 'POST', `/api/campaigns/${id}/send`);
    expect(sent.statusCode, sent.body).toBe(200);
  });

  it('lets an operator list and suspend a domain (sending refused while suspended); others get 403', async () => {
    const owner = await signUp(t, { verified: true });
    const operator = await signUp(t, { verified: true, email: 'operador@carteiro.test' });
    const d = (await call(owner, 'POST', '/api/sender-domains', { domain: 'suspensa.test' })).json();
    const dkim = d.records.find((r: { kind: string }) => r.kind === 'dkim');
    dns.setTxt(dkim.name, [dkim.value]);
    await call(owner, 'POST', `/api/sender-domains/${d.id}/check`);
    expect((await call(owner, 'GET', '/api/admin/sender-domains')).statusCode).toBe(403);
    const list = (await call(operator, 'GET', '/api/admin/sender-domains')).json();
    expect(list.items).toContainEqual(
      expect.objectContaining({ id: d.id, domain: 'suspensa.test', status: 'verified' }),
    );
    const suspended = await call(operator, 'POST', `/api/admin/sender-domains/${d.id}/suspend`, { reason: 'phishing' });
    expect(suspended.statusCode, suspended.body).toBe(200);
    expect((await call(owner, 'GET', '/api/senders')).json()).toMatchObject({
      domains: [expect.objectContaining({ status: 'suspended' })],
      allowed: { domains: [] },
    });
    await call(operator, 'POST', `/api/admin/sender-domains/${d.id}/unsuspend`);
    expect((await call(owner, 'GET', '/api/senders')).json().allowed.domains).toEqual(['suspensa.test']);
  });

  it('the periodic re-check marks a domain whose DKIM record disappeared broken and e-mails the owner once', async () => {
    const owner = await signUp(t, { verified: true });
    const d = (await call(owner, 'POST', '/api/sender-domains', { domain: 'sumiu.test' })).json();
    const dkim = d.records.find((r: { kind: string }) => r.kind === 'dkim');
    dns.setTxt(dkim.name, [dkim.value]);
    expect((await call(owner, 'POST', `/api/sender-domains/${d.id}/check`)).json().status).toBe('verified');
    dns.remove(dkim.name);
    const settings = senderIdentitySettings(t.config);
    const resolver = createDnsResolver({ servers: [dns.address] });
    const notify = (accountId: string, domain: string) =>
      notifyDomainBroken(t.database.db, t.mailer, settings, accountId, domain);
    // Checked less than a minute ago: not due yet.
    expect(await recheckDueDomains(t.database.db, resolver, settings, { intervalMinutes: 60, notify })).toBe(0);
    await t.database.db
      .update(senderDomains)
      .set({ lastCheckedAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(senderDomains.id, d.id));
    expect(await recheckDueDomains(t.database.db, resolver, settings, { intervalMinutes: 60, notify })).toBe(1);
    expect((await call(owner, 'GET', `/api/sender-domains/${d.id}`)).json().status).toBe('broken');
    const warned = (await t.sentMail()).filter((m) => m.subject.includes('sumiu.test deixou de estar verificado'));
    expect(warned.map((m) => m.to)).toEqual([[owner.email]]);
    // Still broken at the next re-check: no second e-mail.
    await t.database.db
      .update(senderDomains)
      .set({ lastCheckedAt: new Date(Date.now() - 2 * 3600_000) })
      .where(eq(senderDomains.id, d.id));
    await recheckDueDomains(t.database.db, resolver, settings, { intervalMinutes: 60, notify });
    expect((await t.sentMail()).filter((m) => m.subject.includes('sumiu.test')).length).toBe(1);
  });

  it('never shows a private key in an API answer, an export, a log line or the database in clear', async () => {
    // One more account with a domain, read through every answer and export it has.
    const owner = await signUp(t, { verified: true });
    const d = (await call(owner, 'POST', '/api/sender-domains', { domain: 'exporta.test' })).json();
    await call(owner, 'GET', `/api/sender-domains/${d.id}`);
    await call(owner, 'POST', `/api/sender-domains/${d.id}/check`);
    await call(owner, 'GET', '/api/senders');
    expect((await call(owner, 'GET', '/api/contacts/export.csv')).statusCode).toBe(200);
    expect((await call(owner, 'POST', '/firebase/get', { collection: 'account' })).statusCode).toBe(200);
    expect((await call(owner, 'POST', '/firebase/get', { collection: 'campaigns', where: [] })).statusCode).toBe(200);
    const rows = await t.database.db.select().from(senderDomains);
    expect(rows.length).toBeGreaterThan(0);
    const secret = t.config.AUTH_SECRET as string;
    for (const row of rows) {
      for (const enc of [row.dkimRsaPrivateEnc, row.dkimEd25519PrivateEnc]) {
        expect(enc).not.toContain('PRIVATE KEY');
        const pem = decryptSecret(secret, enc);
        expect(pem).toContain('-----BEGIN PRIVATE KEY-----');
        const body = pem.split('\n').slice(1, -2).join('');
        const sample = body.slice(10, 60);
        for (const text of [...answers, ...logLines]) {
          expect(text).not.toContain(sample);
          expect(text).not.toContain(enc);
        }
      }
    }
    expect(answers.join('\n')).not.toContain('PRIVATE KEY');
    expect(logLines.join('\n')).not.toContain('PRIVATE KEY');
    expect(logLines.length).toBeGreaterThan(10);
  });
});
