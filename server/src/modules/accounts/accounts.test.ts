import { randomUUID } from 'node:crypto';
import { sessionViewSchema } from '@carteiro/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookiesFrom, randomClientIp, type SignedInUser, signIn, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { testClock } from '../../../test/support/test-clock';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { INVITATION_DAYS } from './team.routes';

async function waitForMail(t: TestApp, to: string, subject: RegExp) {
  for (let i = 0; i < 100; i++) {
    const mail = (await t.sentMail()).find((m) => m.to.includes(to) && subject.test(m.subject));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

describe.each(DATABASE_KINDS)('accounts and teams on %s', (kind) => {
  let t: TestApp;
  const clock = testClock();
  beforeAll(async () => {
    t = await createTestApp(kind, { PUBLIC_URL: 'https://app.carteiro.test' }, undefined, { clock: clock.now });
  });
  afterAll(async () => {
    await t.close();
  });

  const req = (
    user: { headers: { cookie: string; origin: string } },
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
    extra: Record<string, string> = {},
  ) =>
    t.app.inject({
      method,
      url,
      headers: { ...user.headers, ...(payload !== undefined ? { 'content-type': 'application/json' } : {}), ...extra },
      ...(payload !== undefined ? { payload: payload as Record<string, unknown> } : {}),
    });

  it('creates an account with the client uuid, idempotently, and refuses another owner’s uuid', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: t.origin, 'content-type': 'application/json' },
      remoteAddress: randomClientIp(),
      payload: { email: 'novo@example.com', password: 'senha-boa-1', name: 'Novo' },
    });
    const headers = { cookie: String(res.headers['set-cookie']).split(';')[0] as string, origin: t.origin };
    const uuid = randomUUID();
    const created = await req({ headers }, 'POST', '/api/accounts', { uuid, name: 'Padaria Pão Quente' });
    expect(created.statusCode).toBe(201);
    expect(created.json().account).toMatchObject({ uuid, name: 'Padaria Pão Quente', balanceMillis: 0 });
    const again = await req({ headers }, 'POST', '/api/accounts', { uuid, name: 'Outro nome' });
    expect(again.statusCode).toBe(200);
    expect(again.json().account.id).toBe(created.json().account.id);
    const session = (await req({ headers }, 'GET', '/api/session')).json();
    expect(session.account.id).toBe(created.json().account.id);
    expect(session.accounts).toHaveLength(1);
    // The web parses this answer with the shared schema the server's type comes from: nothing added, nothing lost.
    expect(sessionViewSchema.parse(session)).toEqual(session);

    const other = await signUp(t);
    const stolen = await req(other, 'POST', '/api/accounts', { uuid, name: 'x' });
    expect(stolen.statusCode).toBe(409);
  });

  it('starts a session (spec §4): loads the existing account, else creates one with the client-generated uuid', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: t.origin, 'content-type': 'application/json' },
      remoteAddress: randomClientIp(),
      payload: { email: `inicio-${randomUUID().slice(0, 6)}@example.com`, password: 'senha-boa-1', name: 'Início' },
    });
    const user = { headers: { cookie: cookiesFrom(res.headers['set-cookie']), origin: t.origin } };
    const clientUuid = randomUUID();
    const first = await req(user, 'GET', `/api/session?newAccountUuid=${clientUuid}`);
    expect(first.statusCode).toBe(200);
    const account = first.json().account;
    expect(account).toMatchObject({ uuid: clientUuid, ownerUserId: res.json().user.id, name: 'Início' });
    expect(account.id).not.toBe(clientUuid);
    expect(first.json().role).toBe('owner');
    // Later starts load that account: another client uuid does not create a second one.
    const again = await req(user, 'GET', `/api/session?newAccountUuid=${randomUUID()}`);
    expect(again.json().account.id).toBe(account.id);
    expect(again.json().accounts).toHaveLength(1);
    expect((await req(user, 'GET', '/api/session?newAccountUuid=nao-e-uuid')).statusCode).toBe(400);

    // A uuid another user already holds is never taken over: the new user gets a fresh one.
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/auth/sign-up/email',
      headers: { origin: t.origin, 'content-type': 'application/json' },
      remoteAddress: randomClientIp(),
      payload: { email: `outro-${randomUUID().slice(0, 6)}@example.com`, password: 'senha-boa-1', name: 'Outro' },
    });
    const otherUser = { headers: { cookie: cookiesFrom(other.headers['set-cookie']), origin: t.origin } };
    const taken = (await req(otherUser, 'GET', `/api/session?newAccountUuid=${clientUuid}`)).json();
    expect(taken.account.id).not.toBe(account.id);
    expect(taken.account.uuid).not.toBe(clientUuid);
    expect(taken.role).toBe('owner');
  });

  it('answers user-token-expired when the session cookie is no longer valid, unauthenticated without one', async () => {
    const user = await signUp(t);
    await req(user, 'POST', '/api/auth/sign-out', {});
    // Account, team, operator back office, compatibility API and the re-authenticated auth actions alike.
    const calls: Array<[method: 'GET' | 'POST', url: string, body?: unknown]> = [
      ['GET', '/api/session'],
      ['GET', '/api/account'],
      ['GET', '/api/account/members'],
      ['GET', '/api/billing/balance'],
      ['GET', '/api/admin/accounts'],
      ['POST', '/firebase/get', { collection: 'lists', id: randomUUID() }],
      ['POST', '/api/auth/change-password', { currentPassword: 'senha-boa-1', newPassword: 'senha-nova-1' }],
    ];
    for (const [method, url, body] of calls) {
      const res = await req(user, method, url, body);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().error, url).toEqual({
        code: 'user-token-expired',
        message: 'Sua sessão expirou. Entre de novo.',
      });
    }
    const anonymous = await t.app.inject('/api/session');
    expect(anonymous.json().error.code).toBe('unauthenticated');
  });

  it('updates the account by merging, sets updated_at and validates CPF/CNPJ', async () => {
    const user = await signUp(t);
    const before = (await req(user, 'GET', '/api/account')).json().account;
    const res = await req(user, 'PATCH', '/api/account', {
      legalName: 'Padaria Pão Quente LTDA',
      taxId: '11.222.333/0001-81',
      address: 'Rua das Flores, 10 — São Paulo/SP',
      defaultFromName: 'Padaria',
      defaultFromEmail: 'Contato@Padaria.com.br',
    });
    expect(res.statusCode).toBe(200);
    const account = res.json().account;
    expect(account).toMatchObject({
      name: before.name,
      legalName: 'Padaria Pão Quente LTDA',
      taxId: '11222333000181',
      timeZone: 'America/Sao_Paulo',
      defaultFromEmail: 'contato@padaria.com.br',
    });
    expect(new Date(account.updatedAt).getTime()).toBeGreaterThan(new Date(before.updatedAt).getTime());
    const renamed = (await req(user, 'PATCH', '/api/account', { name: 'Nova' })).json().account;
    expect(renamed).toMatchObject({ name: 'Nova', legalName: 'Padaria Pão Quente LTDA' });

    const cpf = await req(user, 'PATCH', '/api/account', { taxId: '529.982.247-25' });
    expect(cpf.json().account.taxId).toBe('52998224725');
    const bad = await req(user, 'PATCH', '/api/account', { taxId: '529.982.247-26' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.message).toContain('CPF ou CNPJ inválido.');
    const tz = await req(user, 'PATCH', '/api/account', { timeZone: 'Mars/Olympus' });
    expect(tz.statusCode).toBe(400);
    const unknown = await req(user, 'PATCH', '/api/account', { balanceMillis: 999999 });
    expect(unknown.statusCode).toBe(400);
  });

  it("never shows or changes another user's account (404 / 403)", async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const read = await req(b, 'GET', `/api/accounts/${a.accountId}`);
    expect(read.statusCode).toBe(404);
    expect((await req(a, 'GET', `/api/accounts/${a.accountId}`)).statusCode).toBe(200);
    expect((await req(b, 'POST', '/api/session/account', { accountId: a.accountId })).statusCode).toBe(404);
    const viaHeader = await req(b, 'PATCH', '/api/account', { name: 'Invadida' }, { 'x-account-id': a.accountId });
    expect(viaHeader.statusCode).toBe(403);
    const viaCookie = await req(b, 'GET', '/api/account', undefined, {
      cookie: `${b.headers.cookie}; carteiro_account=${a.accountId}`,
    });
    expect(viaCookie.statusCode).toBe(403);
    expect((await req(a, 'GET', '/api/account')).json().account.name).not.toBe('Invadida');
    for (const url of ['/api/account', '/api/account/members', '/api/account/invitations', '/api/session']) {
      expect((await t.app.inject(url)).statusCode).toBe(401);
    }
  });

  it("answers 404 to another account's ids in every route family, and changes nothing", async () => {
    const a = await signUp(t, { verified: true });
    const b = await signUp(t, { verified: true });
    const created = async (method: 'POST', url: string, payload: unknown) => {
      const res = await req(a, method, url, payload);
      expect(res.statusCode, `${url}: ${res.body}`).toBeLessThan(300);
      return res.json();
    };
    const list = await created('POST', '/api/lists', { name: 'Clientes de A' });
    const contact = await created('POST', '/api/contacts', { email: 'cliente-de-a@example.com' });
    const template = await created('POST', '/api/templates', {
      name: 'Modelo de A',
      html: '<p>Oi</p><a href="{{ link_descadastro }}">Sair</a>',
    });
    const campaign = await created('POST', '/api/campaigns', { uuid: randomUUID(), name: 'Campanha de A' });
    const upload = await t.app.inject({
      method: 'POST',
      url: '/api/imports',
      headers: { ...a.headers, 'content-type': 'text/csv', 'x-file-name': 'contatos.csv' },
      payload: 'email,nome\nx@example.com,X\n',
    });
    expect(upload.statusCode, upload.body).toBe(201);
    const ids = {
      list: (list.list ?? list).id as string,
      contact: (contact.contact ?? contact).id as string,
      template: (template.template ?? template).id as string,
      campaign: (campaign.campaign ?? campaign).id as string,
      import: upload.json().importId as string,
    };
    for (const id of Object.values(ids)) expect(id).toMatch(/^[0-9a-f-]{36}$/);

    const attempts: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown?]> = [
      ['GET', `/api/accounts/${a.accountId}`],
      ['GET', `/api/lists/${ids.list}`],
      ['PATCH', `/api/lists/${ids.list}`, { name: 'Invadida' }],
      ['DELETE', `/api/lists/${ids.list}`],
      ['GET', `/api/contacts/${ids.contact}`],
      ['PATCH', `/api/contacts/${ids.contact}`, { name: 'Invadido' }],
      ['DELETE', `/api/contacts/${ids.contact}`],
      ['POST', `/api/contacts/${ids.contact}/erase`, {}],
      ['GET', `/api/contacts/${ids.contact}/activity`],
      ['GET', `/api/templates/${ids.template}`],
      ['PATCH', `/api/templates/${ids.template}`, { name: 'Invadido' }],
      ['DELETE', `/api/templates/${ids.template}`],
      ['POST', `/api/templates/${ids.template}/duplicate`, {}],
      ['GET', `/api/campaigns/${ids.campaign}`],
      ['PATCH', `/api/campaigns/${ids.campaign}`, { name: 'Invadida' }],
      ['DELETE', `/api/campaigns/${ids.campaign}`],
      ['POST', `/api/campaigns/${ids.campaign}/duplicate`, {}],
      ['POST', `/api/campaigns/${ids.campaign}/send`, {}],
      ['GET', `/api/campaigns/${ids.campaign}/report`],
      ['GET', `/api/campaigns/${ids.campaign}/report.csv`],
      ['GET', `/api/imports/${ids.import}`],
      ['GET', `/api/imports/${ids.import}/rejected.csv`],
    ];
    for (const [method, url, payload] of attempts) {
      const res = await req(b, method, url, payload);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
    }
    // A still sees everything unchanged.
    expect((await req(a, 'GET', `/api/lists/${ids.list}`)).statusCode).toBe(200);
    expect((await req(a, 'GET', `/api/contacts/${ids.contact}`)).statusCode).toBe(200);
    expect(JSON.stringify((await req(a, 'GET', `/api/campaigns/${ids.campaign}`)).json())).toContain('Campanha de A');
    expect(JSON.stringify((await req(a, 'GET', `/api/templates/${ids.template}`)).json())).toContain('Modelo de A');
  });

  it('refuses a state-changing account request from a foreign Origin', async () => {
    const a = await signUp(t);
    const res = await req(a, 'PATCH', '/api/account', { name: 'x' }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('csrf_rejected');
  });

  it('invites by e-mail, the invitee joins, switches accounts, and a removed member loses access at once', async () => {
    const owner = await signUp(t, { name: 'Dona Ana', verified: true });
    await req(owner, 'PATCH', '/api/account', { name: 'Loja da Ana' });
    const inviteeEmail = `convidado-${randomUUID().slice(0, 6)}@example.com`;
    const created = await req(owner, 'POST', '/api/account/invitations', { email: inviteeEmail, role: 'member' });
    expect(created.statusCode).toBe(201);
    const pending = (await req(owner, 'GET', '/api/account/invitations')).json().invitations;
    expect(pending.map((i: { email: string }) => i.email)).toEqual([inviteeEmail]);

    const mail = await waitForMail(t, inviteeEmail, /convidou você/);
    expect(mail.subject).toContain('Loja da Ana');
    expect(mail.html).toContain('Aceitar convite');
    const link = new URL((mail.text.match(/https?:\/\/\S+/) as RegExpMatchArray)[0]);
    expect(link.origin + link.pathname).toBe(`https://app.carteiro.test/auth/invite/${owner.accountId}`);
    const token = link.searchParams.get('token') as string;

    // Someone else cannot use it; a wrong token is invalid.
    const stranger = await signUp(t);
    const wrongUser = await req(stranger, 'POST', '/api/invitations/accept', { accountId: owner.accountId, token });
    expect(wrongUser.statusCode).toBe(403);
    const wrongToken = await req(stranger, 'POST', '/api/invitations/accept', {
      accountId: owner.accountId,
      token: 'x'.repeat(43),
    });
    expect(wrongToken.json().error.code).toBe('invalid-action-code');

    const invitee: SignedInUser = await signUp(t, { email: inviteeEmail });
    const accepted = await req(invitee, 'POST', '/api/invitations/accept', { accountId: owner.accountId, token });
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json()).toMatchObject({ account: { id: owner.accountId, name: 'Loja da Ana' }, role: 'member' });
    const reused = await req(invitee, 'POST', '/api/invitations/accept', { accountId: owner.accountId, token });
    expect(reused.json().error.code).toBe('invalid-action-code');
    expect((await req(owner, 'GET', '/api/account/invitations')).json().invitations).toEqual([]);

    // The invitee has two accounts and switches to the shared one.
    const switched = await req(invitee, 'POST', '/api/session/account', { accountId: owner.accountId });
    expect(switched.statusCode).toBe(200);
    expect(switched.json()).toMatchObject({ account: { id: owner.accountId }, role: 'member' });
    expect(switched.json().accounts).toHaveLength(2);
    const accountCookie = String(switched.headers['set-cookie']).split(';')[0];
    const asMember = { headers: { cookie: `${invitee.headers.cookie}; ${accountCookie}`, origin: t.origin } };
    expect((await req(asMember, 'GET', '/api/account')).json().account.id).toBe(owner.accountId);

    // A member cannot manage the team or the account.
    expect((await req(asMember, 'POST', '/api/account/invitations', { email: 'x@example.com' })).statusCode).toBe(403);
    expect((await req(asMember, 'GET', '/api/account/invitations')).statusCode).toBe(403);
    expect((await req(asMember, 'PATCH', `/api/account/members/${owner.userId}`, { role: 'member' })).statusCode).toBe(
      403,
    );
    expect((await req(asMember, 'DELETE', `/api/account/members/${owner.userId}`)).statusCode).toBe(403);
    expect((await req(asMember, 'PATCH', '/api/account', { name: 'x' })).statusCode).toBe(403);

    const members = (await req(owner, 'GET', '/api/account/members')).json().members;
    expect(members.map((m: { email: string; role: string }) => [m.email, m.role])).toEqual([
      [owner.email, 'owner'],
      [inviteeEmail, 'member'],
    ]);

    // Promote, then remove: access ends on the next request.
    const promoted = await req(owner, 'PATCH', `/api/account/members/${invitee.userId}`, { role: 'admin' });
    expect(promoted.json().member.role).toBe('admin');
    expect((await req(asMember, 'GET', '/api/account/invitations')).statusCode).toBe(200);
    expect((await req(owner, 'DELETE', `/api/account/members/${invitee.userId}`)).statusCode).toBe(204);
    expect((await req(asMember, 'GET', '/api/account')).statusCode).toBe(403);
    // Their session falls back to their own account.
    const fallback = await req(asMember, 'GET', '/api/session');
    expect(fallback.json().account.id).toBe(invitee.accountId);
  });

  it('keeps the last owner and lets an admin not touch owners', async () => {
    const owner = await signUp(t);
    const last = await req(owner, 'DELETE', `/api/account/members/${owner.userId}`);
    expect(last.statusCode).toBe(409);
    const demote = await req(owner, 'PATCH', `/api/account/members/${owner.userId}`, { role: 'admin' });
    expect(demote.statusCode).toBe(409);
    expect((await req(owner, 'DELETE', '/api/account/members/nobody')).statusCode).toBe(404);
  });

  it('revokes a pending invitation; a revoked or expired link cannot be used', async () => {
    const owner = await signUp(t, { verified: true });
    const email = `rev-${randomUUID().slice(0, 6)}@example.com`;
    const created = (await req(owner, 'POST', '/api/account/invitations', { email, role: 'admin' })).json();
    const token = new URL(
      ((await waitForMail(t, email, /convidou você/)).text.match(/https?:\/\/\S+/) as RegExpMatchArray)[0],
    ).searchParams.get('token');
    const other = await signUp(t);
    expect((await req(other, 'DELETE', `/api/account/invitations/${created.invitation.id}`)).statusCode).toBe(404);
    expect((await req(owner, 'DELETE', `/api/account/invitations/${created.invitation.id}`)).statusCode).toBe(204);
    expect((await req(owner, 'GET', '/api/account/invitations')).json().invitations).toEqual([]);
    const invitee = await signUp(t, { email });
    const res = await req(invitee, 'POST', '/api/invitations/accept', { accountId: owner.accountId, token });
    expect(res.json().error.code).toBe('invalid-action-code');
    await signIn(t, invitee.email, invitee.password);

    // An expired invitation says so.
    await req(owner, 'POST', '/api/account/invitations', { email: 'expira@example.com', role: 'member' });
    const expiring = new URL(
      (
        (await waitForMail(t, 'expira@example.com', /convidou você/)).text.match(/https?:\/\/\S+/) as RegExpMatchArray
      )[0],
    ).searchParams.get('token') as string;
    const late = await signUp(t, { email: 'expira@example.com' });
    // Its lifetime passes (the app's clock moves on): it leaves the pending list and the link says it expired.
    clock.advance(INVITATION_DAYS * 24 * 3_600_000 + 1_000);
    try {
      expect((await req(owner, 'GET', '/api/account/invitations')).json().invitations).toEqual([]);
      const expired = await req(late, 'POST', '/api/invitations/accept', {
        accountId: owner.accountId,
        token: expiring,
      });
      expect(expired.statusCode).toBe(400);
      expect(expired.json().error).toEqual({
        code: 'expired-action-code',
        message: 'Este link expirou. Peça um novo.',
      });
    } finally {
      clock.reset();
    }
  });
});

describe('account cookie in production', () => {
  it('is __Host- prefixed, Secure, HttpOnly, SameSite=Lax, and read back under that name only', async () => {
    const t = await createTestApp('pglite', { NODE_ENV: 'production', PUBLIC_URL: 'https://carteiro.example' });
    try {
      const owner = await signUp(t);
      const uuid = randomUUID();
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/accounts',
        headers: { ...owner.headers, 'content-type': 'application/json' },
        payload: { uuid, name: 'Segunda conta' },
      });
      expect(created.statusCode).toBe(201);
      const setCookie = String(created.headers['set-cookie']);
      expect(setCookie).toMatch(/^__Host-carteiro_account=[0-9a-f-]{36}; Path=\/; HttpOnly; SameSite=Lax; .*; Secure$/);
      const secondId = created.json().account.id;
      const chosen = (cookie: string) =>
        t.app.inject({
          url: '/api/account',
          headers: { ...owner.headers, cookie: `${owner.headers.cookie}; ${cookie}` },
        });
      expect((await chosen(`__Host-carteiro_account=${secondId}`)).json().account.id).toBe(secondId);
      expect((await chosen(`carteiro_account=${secondId}`)).json().account.id).toBe(owner.accountId);
    } finally {
      await t.close();
    }
  });
});
