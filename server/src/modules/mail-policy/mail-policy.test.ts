import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { accounts } from '../accounts/accounts.db';
import { authUsers } from '../auth/auth.db';
import { trustSenderAddress } from '../sender-identities/testing/trust-sender';

const HTML = '<p>Olá, {{ contato.nome }}!</p><a href="{{ link_descadastro }}">Descadastrar</a>';
const HOURLY = 8;
const OUTSIDERS_PER_DAY = 3;

/** Waits until the catcher holds a message to `to` (the relay is real SMTP: delivery is not instant). */
async function waitForMail(t: TestApp, to: string) {
  for (let i = 0; i < 100; i++) {
    const mail = (await t.sentMail()).find((m) => m.to.includes(to));
    if (mail) return mail;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no mail to ${to}`);
}

describe.each(DATABASE_KINDS)('who may make Carteiro send a test, an invitation or a confirmation, on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      ACCOUNT_MAIL_QUOTA_PER_HOUR: String(HOURLY),
      TEST_MAIL_OUTSIDERS_PER_DAY: String(OUTSIDERS_PER_DAY),
    });
  });
  afterAll(async () => {
    await t.close();
  });

  const call = (user: SignedInUser, method: 'POST' | 'PATCH', url: string, payload: object) =>
    t.app.inject({ method, url, headers: user.headers, payload });

  /** An account with a template and a campaign; its sender `loja@<tag>.test` confirmed unless told otherwise. */
  async function sender(opts: { verified: boolean; confirmedSender?: boolean; campaignFrom?: string | null }) {
    const user = await signUp(t, { verified: opts.verified });
    const tag = randomUUID().slice(0, 8);
    const from = `loja@${tag}.test`;
    if (opts.confirmedSender !== false) await trustSenderAddress(t.database.db, user.accountId, from);
    await t.database.db.update(accounts).set({ defaultFromEmail: from }).where(eq(accounts.id, user.accountId));
    const template = await call(user, 'POST', '/api/templates', { name: 'Modelo', subject: 'Oi', html: HTML });
    expect(template.statusCode, template.body).toBe(201);
    const campaign = await call(user, 'POST', '/api/campaigns', {
      uuid: randomUUID(),
      name: 'Campanha',
      subject: 'Oi {{ contato.nome }}',
      template: HTML,
      fromEmail: opts.campaignFrom === undefined ? from : opts.campaignFrom,
    });
    expect(campaign.statusCode, campaign.body).toBe(201);
    return {
      user,
      from,
      tag,
      templateTest: (emails: string[]) =>
        call(user, 'POST', `/api/templates/${template.json().id}/test-send`, { emails }),
      campaignTest: (emails: string[]) =>
        call(user, 'POST', `/api/campaigns/${campaign.json().id}/test-send`, { emails }),
      invite: (email: string) => call(user, 'POST', '/api/account/invitations', { email, role: 'member' }),
      addSender: (email: string) => call(user, 'POST', '/api/sender-addresses', { email }),
    };
  }

  it('an account whose e-mail is not verified sends no test, invitation or confirmation: 403 in pt-BR, nothing relayed', async () => {
    const s = await sender({ verified: false });
    const target = `vitima-${s.tag}@fora.test`;
    for (const res of [
      await s.templateTest([target]),
      await s.campaignTest([target]),
      await s.invite(target),
      await s.addSender(target),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().error.code).toBe('email_not_verified');
      expect(res.json().error.message).toMatch(/^Confirme o seu e-mail antes de enviar testes ou convites/);
    }
    // Once verified, the same account reaches its own address: proof the relay works and got nothing before.
    await t.database.db.update(authUsers).set({ emailVerified: true }).where(eq(authUsers.id, s.user.userId));
    expect((await s.templateTest([s.user.email])).statusCode).toBe(200);
    await waitForMail(t, s.user.email);
    expect((await t.sentMail()).filter((m) => m.to.includes(target))).toEqual([]);
  });

  it('a test needs a From the campaign sending rule allows: none, or an unconfirmed one, is refused', async () => {
    const noFrom = await sender({ verified: true, campaignFrom: null });
    await t.database.db.update(accounts).set({ defaultFromEmail: null }).where(eq(accounts.id, noFrom.user.accountId));
    const campaignWithoutFrom = await noFrom.campaignTest([noFrom.user.email]);
    expect(campaignWithoutFrom.statusCode).toBe(403);
    expect(campaignWithoutFrom.json().error).toMatchObject({
      code: 'sender_not_verified',
      message: expect.stringMatching(/^Escolha o remetente da campanha/),
    });
    const templateWithoutDefault = await noFrom.templateTest([noFrom.user.email]);
    expect(templateWithoutDefault.statusCode).toBe(403);
    expect(templateWithoutDefault.json().error.message).toMatch(/^Defina o remetente padrão da conta/);

    const unconfirmed = await sender({ verified: true, confirmedSender: false });
    for (const res of [
      await unconfirmed.campaignTest([unconfirmed.user.email]),
      await unconfirmed.templateTest([unconfirmed.user.email]),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.message).toBe(
        `O remetente ${unconfirmed.from} não está verificado. Confirme o endereço ou verifique o domínio em Configurações → Remetentes e domínios.`,
      );
    }
    // Another account's confirmed sender is not ours either.
    const other = await sender({ verified: true });
    const borrowed = await sender({ verified: true, campaignFrom: other.from });
    expect((await borrowed.campaignTest([borrowed.user.email])).statusCode).toBe(403);
  });

  it('tests reach the team and the verified senders freely; outsiders only up to the daily quota, all or nothing, 429 + Retry-After', async () => {
    const s = await sender({ verified: true });
    await trustSenderAddress(t.database.db, s.user.accountId, `vendas@${s.tag}.test`);
    const insiders = [s.user.email, s.from, `vendas@${s.tag}.test`];
    // Four messages to insiders: no outsider quota used.
    expect((await s.templateTest(insiders)).statusCode).toBe(200);
    expect((await s.campaignTest([s.from])).statusCode).toBe(200);

    const outsider = (n: number) => `cliente-${n}-${s.tag}@fora.test`;
    expect((await s.campaignTest([outsider(1), outsider(2)])).json()).toEqual({ sent: 2 });
    // Two more would make four outsiders today (limit 3): refused whole, and the refusal takes nothing.
    const refused = await s.templateTest([outsider(3), outsider(4)]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().error.code).toBe('too_many_requests');
    expect(refused.json().error.message).toContain(
      `Testes para endereços fora da equipe e dos remetentes verificados da conta são limitados a ${OUTSIDERS_PER_DAY} por dia`,
    );
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    expect((await s.templateTest([outsider(3)])).json()).toEqual({ sent: 1 });
    await waitForMail(t, outsider(3));
    expect((await t.sentMail()).filter((m) => m.to.includes(outsider(4)))).toEqual([]);
  });

  it('every test, invitation and sender confirmation of an account counts against one hourly quota', async () => {
    const s = await sender({ verified: true });
    expect((await s.templateTest([s.user.email, s.from])).statusCode).toBe(200); // 2
    expect((await s.campaignTest([s.user.email, s.from])).statusCode).toBe(200); // 4
    expect((await s.invite(`colega-1-${s.tag}@fora.test`)).statusCode).toBe(201); // 5
    expect((await s.addSender(`novo-${s.tag}@${s.tag}.test`)).statusCode).toBe(201); // 6
    expect((await s.invite(`colega-2-${s.tag}@fora.test`)).statusCode).toBe(201); // 7
    const over = await s.campaignTest([s.user.email, s.from]); // 9 > 8: refused whole
    expect(over.statusCode).toBe(429);
    expect(over.json().error.message).toMatch(
      new RegExp(
        `^Esta conta atingiu o limite de ${HOURLY} e-mails de teste, convites e confirmações por hora\\. Tente de novo em \\d+ minutos?\\.$`,
      ),
    );
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(3600);
    const invitation = await s.invite(`colega-3-${s.tag}@fora.test`); // 8: the last unit
    expect(invitation.statusCode).toBe(201);
    expect((await s.invite(`colega-4-${s.tag}@fora.test`)).statusCode).toBe(429);
    expect((await s.addSender(`outro-${s.tag}@${s.tag}.test`)).statusCode).toBe(429);
    // Another account's quota is its own.
    const neighbour = await sender({ verified: true });
    expect((await neighbour.templateTest([neighbour.user.email])).statusCode).toBe(200);
  });

  it('holds under concurrency: of twelve one-recipient tests at once, exactly the quota goes out', async () => {
    const s = await sender({ verified: true });
    const results = await Promise.all(Array.from({ length: 12 }, () => s.templateTest([s.user.email])));
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses.filter((code) => code === 200)).toHaveLength(HOURLY);
    expect(statuses.filter((code) => code === 429)).toHaveLength(12 - HOURLY);
  });

  it('a suspended account causes no mail at all', async () => {
    const s = await sender({ verified: true });
    await t.database.db.update(accounts).set({ status: 'suspended' }).where(eq(accounts.id, s.user.accountId));
    for (const res of [
      await s.templateTest([s.user.email]),
      await s.campaignTest([s.user.email]),
      await s.invite(`colega-${s.tag}@fora.test`),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error.code).toBe('account_suspended');
    }
  });
});
