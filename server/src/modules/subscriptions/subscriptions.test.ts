import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { countRecipients } from '../contacts/count-recipients';
import { hashEmail } from '../contacts/email-hash';
import { SUBSCRIBE_TOKEN_PURPOSE } from './consent-requests';
import { signToken } from './signed-token';
import { subscriptionConsents } from './subscriptions.db';

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe.each(DATABASE_KINDS)('subscription forms on %s', (kind) => {
  let t: TestApp;
  let a: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  async function createList(optIn: 'single' | 'double', name = `Lista ${optIn}`) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/lists',
      headers: { ...a.headers, 'content-type': 'application/json' },
      payload: { name, optIn },
    });
    expect(res.statusCode).toBe(201);
    return res.json().id as string;
  }

  let ipCounter = 1;
  async function submit(listId: string, fields: Record<string, string>, ip = `192.0.2.${ipCounter++}`) {
    return t.app.inject({
      method: 'POST',
      url: `/s/${listId}`,
      remoteAddress: ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://site-do-cliente.example' },
      payload: form(fields),
    });
  }

  async function membership(listId: string, email: string) {
    const [row] = await queryRows<{ status: string; consent_at: unknown; consent_text: string | null }>(
      t.database.db,
      sql`select m.status, c.consent_at, c.consent_text from contacts c join list_memberships m on m.contact_id = c.id
          where m.list_id = ${listId} and c.email = ${email}`,
    );
    return row;
  }

  it('serves a pt-BR hosted page with the consent text, and 404 for an unknown list', async () => {
    const listId = await createList('single', 'Novidades <da> loja');
    const res = await t.app.inject({ url: `/s/${listId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('lang="pt-BR"');
    expect(res.body).toContain('Novidades &lt;da&gt; loja');
    expect(res.body).toContain('name="consentimento"');
    expect(res.body).toContain('Sei que posso cancelar a inscrição');
    expect((await t.app.inject({ url: '/s/00000000-0000-4000-8000-000000000000' })).statusCode).toBe(404);
  });

  it('single opt-in subscribes at once and records the evidence', async () => {
    const listId = await createList('single');
    const res = await submit(listId, { nome: 'Ana', email: 'Ana@Exemplo.com', consentimento: 'sim' }, '198.51.100.7');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('está confirmada');
    expect(await membership(listId, 'ana@exemplo.com')).toMatchObject({ status: 'subscribed' });
    const [evidence] = await t.database.db
      .select()
      .from(subscriptionConsents)
      .where(eq(subscriptionConsents.listId, listId));
    expect(evidence).toMatchObject({ ip: '198.51.100.7', formId: `${listId}:hospedado`, optIn: 'single' });
    expect(evidence?.consentText).toContain('Sei que posso cancelar');
    expect(evidence?.confirmedAt).toBeInstanceOf(Date);
  });

  it('refuses a submission without consent or with an invalid e-mail (pt-BR)', async () => {
    const listId = await createList('single');
    const noConsent = await submit(listId, { email: 'b@exemplo.com' });
    expect(noConsent.statusCode).toBe(422);
    expect(noConsent.body).toContain('Marque a caixa de consentimento');
    const bad = await submit(listId, { email: 'nao-e-email', consentimento: 'sim' });
    expect(bad.statusCode).toBe(422);
    expect(bad.body).toContain('Informe um e-mail válido');
    expect(await membership(listId, 'b@exemplo.com')).toBeUndefined();
  });

  it('double opt-in stays pending until the e-mailed link is followed; a forged token is refused', async () => {
    const listId = await createList('double');
    const res = await submit(listId, {
      nome: 'Conceição',
      email: 'conceicao@exemplo.com.br',
      consentimento: 'sim',
      formulario: 'incorporado',
    });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('enviamos um e-mail de confirmação');
    expect(await membership(listId, 'conceicao@exemplo.com.br')).toMatchObject({ status: 'pending', consent_at: null });

    const mail = (await t.sentMail()).find((m) => m.to.includes('conceicao@exemplo.com.br'));
    expect(mail?.subject).toContain('Confirme sua inscrição');
    const link = /https?:\/\/[^\s]+\/s\/confirm\?token=[^\s]+/.exec(mail?.text ?? '')?.[0] as string;
    expect(link).toBeTruthy();
    const token = decodeURIComponent(new URL(link).searchParams.get('token') as string);

    // Forged: altered signature, another purpose, a made-up id signed with the wrong secret.
    const [body] = token.split('.');
    for (const forged of [
      `${body}.AAAA${token.slice(-10)}`,
      signToken('outro-segredo-outro-segredo-outro-segredo', SUBSCRIBE_TOKEN_PURPOSE, 'x', 3600),
      signToken('test-secret-test-secret-test-secret-0123', 'privacy-request', 'x', 3600),
      'lixo',
    ]) {
      const refused = await t.app.inject({ url: `/s/confirm?token=${encodeURIComponent(forged)}` });
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('Link inválido');
    }
    expect(await membership(listId, 'conceicao@exemplo.com.br')).toMatchObject({ status: 'pending' });

    const ok = await t.app.inject({
      url: `/s/confirm?token=${encodeURIComponent(token)}`,
      remoteAddress: '203.0.113.9',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toContain('Inscrição confirmada');
    const after = await membership(listId, 'conceicao@exemplo.com.br');
    expect(after?.status).toBe('subscribed');
    expect(after?.consent_at).not.toBeNull();
    expect(after?.consent_text).toContain('Sei que posso cancelar');
    const [evidence] = await t.database.db
      .select()
      .from(subscriptionConsents)
      .where(eq(subscriptionConsents.listId, listId));
    expect(evidence).toMatchObject({ formId: `${listId}:incorporado`, optIn: 'double' });
    expect(evidence?.confirmedAt).toBeInstanceOf(Date);
    // The contact's LGPD export carries the evidence.
    const exported = await t.app.inject({ url: `/api/contacts/${evidence?.contactId}/export`, headers: a.headers });
    expect(exported.statusCode).toBe(200);
    expect(exported.json().consentEvidence[0]).toMatchObject({ formId: `${listId}:incorporado`, optIn: 'double' });
  });

  it('a suppressed address is confirmed by e-mail even on a single opt-in list; confirming lifts an unsubscribe only', async () => {
    const listId = await createList('single', 'De volta');
    const api = (url: string, payload: unknown) =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { ...a.headers, 'content-type': 'application/json' },
        payload: payload as Record<string, unknown>,
      });
    const reasonOf = async (email: string) =>
      (await api('/api/suppressions/lookup', { email })).json().reason as string | null;
    const audience = () => countRecipients(t.database.db, a.accountId, { includeListIds: [listId] });
    const confirmLinkOf = async (email: string) => {
      const mail = (await t.sentMail()).find((m) => m.to.includes(email));
      const link = /https?:\/\/[^\s]+\/s\/confirm\?token=[^\s]+/.exec(mail?.text ?? '')?.[0] as string;
      return `/s/confirm?token=${new URL(link).searchParams.get('token')}`;
    };

    // Subscribed by the form, then unsubscribed (here by the sender): suppressed.
    expect((await submit(listId, { email: 'volta@exemplo.com', consentimento: 'sim' })).body).toContain(
      'está confirmada',
    );
    const [contact] = await queryRows<{ id: string }>(
      t.database.db,
      sql`select id from contacts where account_id = ${a.accountId} and email = 'volta@exemplo.com'`,
    );
    await api('/api/contacts/bulk', { action: 'unsubscribe', ids: [contact?.id] });
    expect(await reasonOf('volta@exemplo.com')).toBe('unsubscribed');
    expect(await audience()).toBe(0);

    // Anyone may type the address into the form: no consent until the mailbox owner confirms.
    const again = await submit(listId, { email: 'Volta@Exemplo.com', consentimento: 'sim' });
    expect(again.body).toContain('enviamos um e-mail de confirmação');
    expect(await membership(listId, 'volta@exemplo.com')).toMatchObject({ status: 'pending' });
    expect(await reasonOf('volta@exemplo.com')).toBe('unsubscribed');
    expect(await audience()).toBe(0);
    expect((await t.app.inject({ url: await confirmLinkOf('volta@exemplo.com') })).statusCode).toBe(200);
    expect(await membership(listId, 'volta@exemplo.com')).toMatchObject({ status: 'subscribed' });
    expect(await reasonOf('volta@exemplo.com')).toBeNull();
    expect(await audience()).toBe(1);

    // Suppressions the person cannot lift by choosing: the sender's manual entry, a bounce, a complaint.
    await api('/api/suppressions', { emails: ['manual@exemplo.com'] });
    for (const [email, reason] of [
      ['devolvido@exemplo.com', 'bounced'],
      ['queixa@exemplo.com', 'complained'],
    ] as const) {
      await t.database.db.execute(
        sql`insert into suppressions (account_id, email_hash, reason) values (${a.accountId}, ${hashEmail(email)}, ${reason})`,
      );
    }
    // The form answers as always (nothing said about the address), but no confirmation goes to a mailbox that
    // bounced, complained or that the sender blocked: confirming could not lift those, and the system stream is
    // closed to them.
    for (const [email, reason] of [
      ['manual@exemplo.com', 'manual'],
      ['devolvido@exemplo.com', 'bounced'],
      ['queixa@exemplo.com', 'complained'],
    ] as const) {
      expect((await submit(listId, { email, consentimento: 'sim' })).body).toContain('enviamos um e-mail');
      expect((await t.sentMail()).filter((m) => m.to.includes(email))).toEqual([]);
      expect(await reasonOf(email)).toBe(reason);
    }
    expect(await audience()).toBe(1);
  });

  it('ignores a filled honeypot and rate-limits per IP in the database', async () => {
    const listId = await createList('single');
    const bot = await submit(listId, { email: 'bot@exemplo.com', consentimento: 'sim', site: 'http://spam' });
    expect(bot.statusCode).toBe(200);
    expect(await membership(listId, 'bot@exemplo.com')).toBeUndefined();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      statuses.push(
        (await submit(listId, { email: `r${i}@exemplo.com`, consentimento: 'sim' }, '192.0.2.250')).statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    expect(statuses[10]).toBe(429);
  });

  it('answers an embeddable snippet for the owner only', async () => {
    const listId = await createList('double');
    const res = await t.app.inject({ url: `/api/lists/${listId}/form-snippet`, headers: a.headers });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.hostedUrl).toMatch(new RegExp(`/s/${listId}$`));
    expect(body.snippet).toContain(`action="${body.hostedUrl}"`);
    expect(body.snippet).toContain('value="incorporado"');
    expect(body.snippet).toContain('name="site"');
    const other = await signUp(t, { verified: true });
    expect((await t.app.inject({ url: `/api/lists/${listId}/form-snippet`, headers: other.headers })).statusCode).toBe(
      404,
    );
    expect((await t.app.inject({ url: `/api/lists/${listId}/form-snippet` })).statusCode).toBe(401);
  });
});
