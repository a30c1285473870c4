import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { queryRows } from '../../db/database';
import { hashEmail } from '../contacts/email-hash';
import { signToken } from '../subscriptions/signed-token';
import { PRIVACY_TOKEN_PURPOSE } from './privacy-requests';
import { privacyRequests } from './privacy-requests.db';

describe.each(DATABASE_KINDS)('LGPD public requests on %s', (kind) => {
  let t: TestApp;
  let a: SignedInUser;
  let b: SignedInUser;
  beforeAll(async () => {
    t = await createTestApp(kind);
    a = await signUp(t, { verified: true });
    b = await signUp(t, { verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  let ip = 1;
  const post = (url: string, fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url,
      remoteAddress: `198.18.0.${ip++}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: t.origin },
      payload: new URLSearchParams(fields).toString(),
    });

  async function addContact(user: SignedInUser, email: string, name: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/contacts',
      headers: { ...user.headers, 'content-type': 'application/json' },
      payload: { email, name },
    });
    expect(res.statusCode).toBe(201);
  }

  async function requestAndGetToken(email: string, tipo: 'acesso' | 'exclusao') {
    const res = await post('/privacidade/solicitar', { email, tipo });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Confira seu e-mail');
    const mail = (await t.sentMail()).find(
      (m) => m.to.includes(email.toLowerCase()) && m.subject.includes('Confirme seu pedido'),
    );
    const link = /https?:\/\/\S+\/privacidade\/confirmar\?token=\S+/.exec(mail?.text ?? '')?.[0] as string;
    expect(link).toBeTruthy();
    return decodeURIComponent(new URL(link).searchParams.get('token') as string);
  }

  const countContacts = async (email: string) =>
    (
      await queryRows<{ n: number }>(t.database.db, sql`select count(*)::int as n from contacts where email = ${email}`)
    )[0]?.n;

  it('serves the pt-BR request page', async () => {
    const res = await t.app.inject({ url: '/privacidade/solicitar' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('Seus dados e a LGPD');
    expect(res.body).toContain('value="exclusao"');
  });

  it('access: after confirmation, e-mails what every account holds', async () => {
    await addContact(a, 'titular@exemplo.com', 'Titular A');
    await addContact(b, 'titular@exemplo.com', 'Titular B');
    const token = await requestAndGetToken('Titular@Exemplo.com', 'acesso');
    const page = await t.app.inject({ url: `/privacidade/confirmar?token=${encodeURIComponent(token)}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Enviar meus dados');
    // Opening the link alone does nothing.
    expect((await t.sentMail()).some((m) => m.subject === 'Seus dados no Carteiro (LGPD)')).toBe(false);
    const done = await post('/privacidade/confirmar', { token });
    expect(done.statusCode).toBe(200);
    const mail = (await t.sentMail()).find((m) => m.subject === 'Seus dados no Carteiro (LGPD)');
    expect(mail?.to).toContain('titular@exemplo.com');
    expect(mail?.text).toContain('2 conta(s)');
    expect(mail?.text).toContain('Titular A');
    expect(mail?.text).toContain('Titular B');
    const [row] = await t.database.db
      .select()
      .from(privacyRequests)
      .where(eq(privacyRequests.emailHash, hashEmail('titular@exemplo.com')));
    expect(row).toMatchObject({ kind: 'access', status: 'done' });
    expect(row?.completedAt).toBeInstanceOf(Date);
    // A used token cannot be replayed.
    expect((await post('/privacidade/confirmar', { token })).statusCode).toBe(400);
    expect(await countContacts('titular@exemplo.com')).toBe(2);
  });

  it('deletion: erases the address from every account, keeping only the suppression hash', async () => {
    await addContact(a, 'apagar@exemplo.com', 'Apagar A');
    await addContact(b, 'apagar@exemplo.com', 'Apagar B');
    const token = await requestAndGetToken('apagar@exemplo.com', 'exclusao');
    expect(await countContacts('apagar@exemplo.com')).toBe(2);
    const done = await post('/privacidade/confirmar', { token });
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Dados apagados');
    expect(await countContacts('apagar@exemplo.com')).toBe(0);
    const hashes = await queryRows<{ account_id: string; reason: string }>(
      t.database.db,
      sql`select account_id, reason from suppressions where email_hash = ${hashEmail('apagar@exemplo.com')}`,
    );
    expect(hashes.map((h) => h.account_id).sort()).toEqual([a.accountId, b.accountId].sort());
    expect(hashes.every((h) => h.reason === 'erased')).toBe(true);
    const [row] = await t.database.db
      .select()
      .from(privacyRequests)
      .where(eq(privacyRequests.emailHash, hashEmail('apagar@exemplo.com')));
    expect(row).toMatchObject({ kind: 'deletion', status: 'done', email: null });
    expect(row?.result).toMatchObject({ contacts: 2 });
    expect((await t.sentMail()).some((m) => m.subject === 'Seus dados foram apagados (LGPD)')).toBe(true);
  });

  it('refuses a forged or altered token and changes nothing', async () => {
    await addContact(a, 'fica@exemplo.com', 'Fica');
    const token = await requestAndGetToken('fica@exemplo.com', 'exclusao');
    const [body, sig] = token.split('.');
    const [row] = await t.database.db
      .select()
      .from(privacyRequests)
      .where(eq(privacyRequests.emailHash, hashEmail('fica@exemplo.com')));
    for (const forged of [
      `${body}.${sig?.slice(0, -2)}AA`,
      signToken('segredo-falso-segredo-falso-segredo-falso', PRIVACY_TOKEN_PURPOSE, row?.id as string, 3600),
      signToken('test-secret-test-secret-test-secret-0123', 'subscribe-confirm', row?.id as string, 3600),
      signToken('test-secret-test-secret-test-secret-0123', PRIVACY_TOKEN_PURPOSE, row?.id as string, -10),
    ]) {
      expect(
        (await t.app.inject({ url: `/privacidade/confirmar?token=${encodeURIComponent(forged)}` })).statusCode,
      ).toBe(400);
      expect((await post('/privacidade/confirmar', { token: forged })).statusCode).toBe(400);
    }
    expect(await countContacts('fica@exemplo.com')).toBe(1);
  });

  it('validates the form and refuses a foreign Origin', async () => {
    expect((await post('/privacidade/solicitar', { email: 'x', tipo: 'acesso' })).statusCode).toBe(422);
    expect((await post('/privacidade/solicitar', { email: 'x@exemplo.com', tipo: 'outro' })).statusCode).toBe(422);
    const foreign = await t.app.inject({
      method: 'POST',
      url: '/privacidade/solicitar',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://malicioso.example' },
      payload: 'email=x%40exemplo.com&tipo=exclusao',
    });
    expect(foreign.statusCode).toBe(403);
  });
});
