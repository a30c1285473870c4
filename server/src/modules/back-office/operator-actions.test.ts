import { randomUUID } from 'node:crypto';
import { ERROR_MESSAGES_PT_BR } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoutes } from '../../../test/support/admin-routes';
import { randomClientIp, type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { ACCOUNT_SUSPENDED_SEND_MESSAGE } from '../billing/account-status';
import { reserveForCampaign } from '../billing/reserve-campaign-cost';
import { checkCampaignProtection } from '../bounces/record-report';
import { startDueCampaigns } from '../campaigns/start-campaign-send';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
} from '../sending/testing/send-fixtures';
import { SUSPENSION_PAUSE_REASON } from './account-suspension';

const OPERATOR_EMAIL = 'operadora@carteiro.local';

describe.each(DATABASE_KINDS)('operator back office on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let operator: SignedInUser;

  beforeAll(async () => {
    t = await createTestApp(kind, { ADMIN_EMAILS: OPERATOR_EMAIL });
    db = t.database.db;
    operator = await signUp(t, { email: OPERATOR_EMAIL, verified: true });
  });
  afterAll(async () => {
    await t.close();
  });

  /** A verified owner with credit and a list of `n` subscribed contacts. */
  async function senderWithList(n = 4) {
    const owner = await signUp(t, { verified: true });
    await creditAccount(db, owner.accountId, 100_000);
    const emails = Array.from({ length: n }, (_, i) => `c${i}-${owner.accountId.slice(0, 6)}@destino.com.br`);
    const { listId } = await createListWithContacts(db, owner.accountId, emails, { cidade: 'Salvador' });
    return { owner, listId };
  }

  async function startSending(owner: SignedInUser, listId: string): Promise<string> {
    const id = await createReadyCampaign(db, owner.accountId, { includeListIds: [listId] });
    const res = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: owner.headers });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }

  const post = (url: string, headers: Record<string, string>, payload: object = {}) =>
    t.app.inject({ method: 'POST', url, headers, payload });

  it('suspending pauses the sending campaigns with a pt-BR reason, refuses sends and resumes, and audits it all', async () => {
    const { owner, listId } = await senderWithList();
    const sending = await startSending(owner, listId);
    const draft = await createReadyCampaign(db, owner.accountId, { includeListIds: [listId] });
    const scheduled = await createReadyCampaign(db, owner.accountId, {
      includeListIds: [listId],
      status: 'scheduled',
      scheduledAt: new Date(Date.now() - 1000),
    });
    // Another account's campaign is not touched.
    const other = await senderWithList();
    const untouched = await startSending(other.owner, other.listId);

    const suspend = await post(`/api/admin/accounts/${owner.accountId}/suspend`, operator.headers, {
      reason: 'Denúncias de spam em série',
    });
    expect(suspend.statusCode, suspend.body).toBe(200);
    expect(suspend.json()).toMatchObject({ status: 'suspended', changed: true, pausedCampaignIds: [sending] });

    expect((await campaignStatus(db, sending))?.status).toBe('paused');
    expect((await campaignStatus(db, untouched))?.status).toBe('sending');
    const progress = await t.app.inject({
      method: 'GET',
      url: `/api/campaigns/${sending}/progress`,
      headers: owner.headers,
    });
    expect(progress.json()).toMatchObject({ status: 'paused', pausedReason: SUSPENSION_PAUSE_REASON });
    expect(SUSPENSION_PAUSE_REASON).toContain('conta foi suspensa');

    // Every way to send is refused with a clear pt-BR message.
    const resume = await post(`/api/campaigns/${sending}/resume`, owner.headers);
    expect(resume.statusCode).toBe(403);
    expect(resume.json().error).toMatchObject({ code: 'account_suspended', message: ACCOUNT_SUSPENDED_SEND_MESSAGE });
    const send = await post(`/api/campaigns/${draft}/send`, owner.headers);
    expect(send.statusCode).toBe(403);
    expect(send.json().error).toMatchObject({
      code: 'account_suspended',
      message: 'Esta conta está suspensa. Fale com o suporte.',
    });
    const testSend = await post(`/api/campaigns/${draft}/test-send`, owner.headers, { emails: ['eu@exemplo.com.br'] });
    expect(testSend.statusCode).toBe(403);
    expect(testSend.json().error.message).toBe(ACCOUNT_SUSPENDED_SEND_MESSAGE);
    const refused: string[] = [];
    const started = await startDueCampaigns(db, (id) => refused.push(id));
    expect(started).not.toContain(scheduled);
    expect(refused).toContain(scheduled);
    expect((await campaignStatus(db, scheduled))?.status).not.toBe('sending');
    expect((await campaignStatus(db, sending))?.status).toBe('paused');

    // A repeat suspension changes nothing and records nothing new.
    const again = await post(`/api/admin/accounts/${owner.accountId}/suspend`, operator.headers, {
      reason: 'De novo',
    });
    expect(again.json()).toMatchObject({ changed: false, pausedCampaignIds: [] });

    const log = (await t.app.inject({ method: 'GET', url: '/api/admin/audit-log', headers: operator.headers })).json();
    const mine = log.entries.filter(
      (e: { accountId: string; action: string }) => e.accountId === owner.accountId && e.action !== 'balance.credit',
    );
    expect(mine.map((e: { action: string }) => e.action).sort()).toEqual(['account.suspend', 'campaign.pause']);
    expect(mine.find((e: { action: string }) => e.action === 'account.suspend')).toMatchObject({
      reason: 'Denúncias de spam em série',
      operatorEmail: OPERATOR_EMAIL,
      accountName: expect.any(String),
    });
    expect(mine.find((e: { action: string }) => e.action === 'campaign.pause')).toMatchObject({ targetId: sending });

    // Reactivation resumes nothing by itself; the sender resumes by hand.
    const reactivate = await post(`/api/admin/accounts/${owner.accountId}/reactivate`, operator.headers, {
      reason: 'Lista revisada com o cliente',
    });
    expect(reactivate.statusCode).toBe(200);
    expect((await campaignStatus(db, sending))?.status).toBe('paused');
    const resumed = await post(`/api/campaigns/${sending}/resume`, owner.headers);
    expect(resumed.statusCode, resumed.body).toBe(200);
    expect((await campaignStatus(db, sending))?.status).toBe('sending');
  });

  it('a suspension racing a resume never leaves the campaign sending on a suspended account', async () => {
    const { owner, listId } = await senderWithList();
    const id = await startSending(owner, listId);
    await post(`/api/campaigns/${id}/pause`, owner.headers);
    await Promise.all([
      post(`/api/campaigns/${id}/resume`, owner.headers),
      post(`/api/admin/accounts/${owner.accountId}/suspend`, operator.headers, { reason: 'Corrida' }),
    ]);
    expect((await campaignStatus(db, id))?.status).toBe('paused');
  });

  it('lists campaigns paused by bounce protection for the operator, who marks them reviewed (audited)', async () => {
    const { owner, listId } = await senderWithList(4);
    const id = await startSending(owner, listId);
    // Four delivered, one hard bounce (25%): the protection pauses the campaign and flags it.
    await db.execute(sql`update messages set status = 'sent', sent_at = now() where campaign_id = ${id}`);
    await db.execute(sql`update campaigns set sent_count = 4, bounced_count = 1 where id = ${id}`);
    const [message] = await queryRows<{ id: number; contact_id: string }>(
      db,
      sql`select id, contact_id from messages where campaign_id = ${id} order by id limit 1`,
    );
    await db.execute(
      sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, bounce_kind, detail)
          values (${message?.id}, ${id}, ${owner.accountId}, ${message?.contact_id}, 'bounce', 'hard', '5.1.1')`,
    );
    const paused = await checkCampaignProtection(db, id, {
      softBounceLimit: 3,
      protectionMinDeliveries: 1,
      protectionHardBounceRate: 0.05,
      protectionComplaintRate: 0.001,
    });
    expect(paused).toBe(true);

    const res = await t.app.inject({ method: 'GET', url: '/api/admin/campaign-alerts', headers: operator.headers });
    expect(res.statusCode).toBe(200);
    const alert = res.json().alerts.find((a: { campaignId: string }) => a.campaignId === id);
    expect(alert).toMatchObject({
      kind: 'hard_bounce_rate',
      accountId: owner.accountId,
      ownerEmail: owner.email,
      campaignName: 'Campanha de teste',
      campaignStatus: 'paused',
      sent: 4,
      bounced: 1,
      bounceRate: 0.25,
      complaintRate: 0,
      acknowledgedAt: null,
    });
    expect(alert.reason).toContain('taxa de devoluções permanentes');

    const review = await post(`/api/admin/campaign-alerts/${alert.id}/review`, operator.headers, {
      note: 'Cliente orientado a limpar a lista',
    });
    expect(review.statusCode, review.body).toBe(200);
    expect(review.json().changed).toBe(true);
    expect((await post(`/api/admin/campaign-alerts/${alert.id}/review`, operator.headers)).json().changed).toBe(false);
    expect((await post('/api/admin/campaign-alerts/999999999/review', operator.headers)).statusCode).toBe(404);

    const open = (
      await t.app.inject({ method: 'GET', url: '/api/admin/campaign-alerts', headers: operator.headers })
    ).json();
    expect(open.alerts.some((a: { id: number }) => a.id === alert.id)).toBe(false);
    const all = (
      await t.app.inject({ method: 'GET', url: '/api/admin/campaign-alerts?all=1', headers: operator.headers })
    ).json();
    expect(all.alerts.find((a: { id: number }) => a.id === alert.id)?.acknowledgedAt).toEqual(expect.any(String));

    const log = await queryRows<{ action: string; reason: string; target_id: string }>(
      db,
      sql`select action, reason, target_id from admin_audit_log
          where account_id = ${owner.accountId} and action <> 'balance.credit'`,
    );
    expect(log).toEqual([
      { action: 'campaign_alert.review', reason: 'Cliente orientado a limpar a lista', target_id: id },
    ]);
  });

  it('grants the operator role to a signed-up user (back office opens), revokes it (403 again), all audited', async () => {
    const helper = await signUp(t, { verified: true });
    const session = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/session', headers: helper.headers })).json();
    const accountsAsHelper = async () =>
      (await t.app.inject({ method: 'GET', url: '/api/admin/accounts', headers: helper.headers })).statusCode;
    expect(await accountsAsHelper()).toBe(403);
    expect((await session()).isOperator).toBe(false);

    const unknown = await post('/api/admin/operators', operator.headers, {
      email: 'ninguem@example.com',
      reason: 'Novo colega',
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.message).toContain('precisa criar a conta');
    const noReason = await post('/api/admin/operators', operator.headers, { email: helper.email });
    expect(noReason.statusCode).toBe(400);

    const grant = await post('/api/admin/operators', operator.headers, {
      email: helper.email.toUpperCase(),
      reason: 'Entrou no suporte',
    });
    expect(grant.statusCode, grant.body).toBe(201);
    expect(
      (await post('/api/admin/operators', operator.headers, { email: helper.email, reason: 'De novo' })).statusCode,
    ).toBe(200);
    expect(await accountsAsHelper()).toBe(200);
    expect((await session()).isOperator).toBe(true);

    const list = (await t.app.inject({ method: 'GET', url: '/api/admin/operators', headers: operator.headers })).json();
    expect(list.operators).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ email: OPERATOR_EMAIL, source: 'config', userId: operator.userId }),
        expect.objectContaining({ email: helper.email, source: 'role', userId: helper.userId }),
      ]),
    );

    // Nobody removes their own access; another operator can.
    const self = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/operators/${helper.userId}`,
      headers: helper.headers,
      payload: { reason: 'Saindo' },
    });
    expect(self.statusCode).toBe(409);
    const revoke = await t.app.inject({
      method: 'DELETE',
      url: `/api/admin/operators/${helper.userId}`,
      headers: operator.headers,
      payload: { reason: 'Saiu do suporte' },
    });
    expect(revoke.json()).toEqual({ removed: true });
    expect(await accountsAsHelper()).toBe(403);

    const log = await queryRows<{ action: string; reason: string; operator_email: string }>(
      db,
      sql`select action, reason, operator_email from admin_audit_log where target_id = ${helper.userId}
          order by created_at`,
    );
    expect(log).toEqual([
      { action: 'operator.grant', reason: 'Entrou no suporte', operator_email: OPERATOR_EMAIL },
      { action: 'operator.revoke', reason: 'Saiu do suporte', operator_email: OPERATOR_EMAIL },
    ]);
  });

  it('blocks a user: sessions end, password and magic link are refused with user-disabled; unblocking restores, all audited', async () => {
    // Verified: better-auth's magic link for an unverified address drops its password (pre-hijack defence).
    const owner = await signUp(t, { verified: true });
    const member = await t.app.inject({
      method: 'GET',
      url: `/api/admin/accounts/${owner.accountId}/members`,
      headers: operator.headers,
    });
    expect(member.json().members).toEqual([
      expect.objectContaining({ userId: owner.userId, email: owner.email, role: 'owner', disabledAt: null }),
    ]);
    const disable = (userId: string, payload: object, headers = operator.headers) =>
      post(`/api/admin/users/${userId}/disable`, headers, payload);

    expect((await disable(owner.userId, {})).statusCode).toBe(400); // a reason is required
    expect((await disable(operator.userId, { reason: 'Engano' })).statusCode).toBe(409);
    expect((await disable('nao-existe', { reason: 'Engano' })).statusCode).toBe(404);
    expect((await disable(operator.userId, { reason: 'Tentativa' }, owner.headers)).statusCode).toBe(403);

    const blocked = await disable(owner.userId, { reason: 'Envio de spam com contas novas' });
    expect(blocked.statusCode, blocked.body).toBe(200);
    expect(blocked.json()).toEqual({ changed: true });
    expect((await disable(owner.userId, { reason: 'De novo' })).json()).toEqual({ changed: false });
    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/admin/accounts/${owner.accountId}/members`,
      headers: operator.headers,
    });
    expect(listed.json().members[0]).toMatchObject({ disabledReason: 'Envio de spam com contas novas' });
    expect(listed.json().members[0].disabledAt).toEqual(expect.any(String));

    // The session the user had ends at once.
    const old = await t.app.inject({ method: 'GET', url: '/api/session', headers: owner.headers });
    expect(old.statusCode).toBe(401);
    expect(old.json().error.code).toBe('user-token-expired');
    // A new sign-in is refused with the pt-BR message of spec §8.
    const signInAttempt = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/auth/sign-in/email',
        headers: { origin: t.origin, 'content-type': 'application/json' },
        remoteAddress: randomClientIp(),
        payload: { email: owner.email, password: owner.password },
      });
    const refused = await signInAttempt();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toEqual({ code: 'user-disabled', message: ERROR_MESSAGES_PT_BR['user-disabled'] });
    expect(refused.headers['set-cookie']).toBeUndefined();
    // So is the magic link: opened in the browser, it lands on the login page, which says why.
    const requested = await post(
      '/api/auth/sign-in/magic-link',
      { origin: t.origin },
      {
        email: owner.email,
        callbackURL: '/dashboard',
      },
    );
    expect(requested.statusCode).toBe(200);
    let link: URL | null = null;
    for (let i = 0; i < 100 && !link; i++) {
      const mail = (await t.sentMail()).find((m) => m.to.includes(owner.email) && /link para entrar/.test(m.subject));
      const href = mail?.text.match(/https?:\/\/\S+/)?.[0];
      if (href) link = new URL(href);
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(link).not.toBeNull();
    const viaLink = await t.app.inject({ url: `${link?.pathname}${link?.search}` });
    expect(viaLink.statusCode).toBe(302);
    expect(viaLink.headers.location).toBe('/auth/login?erro=user-disabled');
    expect(String(viaLink.headers['set-cookie'] ?? '')).not.toContain('session_token=');

    const enable = await post(`/api/admin/users/${owner.userId}/enable`, operator.headers, {
      reason: 'Contato com o cliente, conta regularizada',
    });
    expect(enable.json()).toEqual({ changed: true });
    const after = await signInAttempt();
    expect(after.statusCode, after.body).toBe(200);

    const log = await queryRows<{ action: string; reason: string }>(
      db,
      sql`select action, reason from admin_audit_log where target_id = ${owner.userId} order by created_at`,
    );
    expect(log).toEqual([
      { action: 'user.disable', reason: 'Envio de spam com contas novas' },
      { action: 'user.enable', reason: 'Contato com o cliente, conta regularizada' },
    ]);
  });

  it('lets the operator suspend (no reservation possible) and audits every action', async () => {
    const owner = await signUp(t);
    const headers = operator.headers;
    const suspend = await post(`/api/admin/accounts/${owner.accountId}/suspend`, headers, {
      reason: 'Denúncias de spam',
    });
    expect(suspend.statusCode).toBe(200);
    await expect(
      reserveForCampaign(db, { accountId: owner.accountId, campaignId: randomUUID(), recipients: 0 }),
    ).rejects.toMatchObject({ code: 'account_suspended' });
    const list = (await t.app.inject({ method: 'GET', url: '/api/admin/accounts', headers })).json();
    expect(list.accounts.find((a: { id: string }) => a.id === owner.accountId)).toMatchObject({
      status: 'suspended',
      ownerEmail: owner.email,
      priceMillis: 5,
    });
    const log = await queryRows<{ action: string }>(
      db,
      sql`select action from admin_audit_log where account_id = ${owner.accountId}`,
    );
    expect(log.map((r) => r.action)).toEqual(['account.suspend']);
  });

  it('money actions answer as before: a credit and a debit (ledger entries), a price, the top-ups by status, the audit log', async () => {
    const owner = await signUp(t, { verified: true });
    const headers = operator.headers;
    const adjust = (amountMillis: number, reason: string) =>
      post(`/api/admin/accounts/${owner.accountId}/adjustments`, headers, { amountMillis, reason });

    const credit = await adjust(50_000, 'Cortesia de boas-vindas');
    expect(credit.statusCode, credit.body).toBe(201);
    expect(credit.json()).toEqual({
      id: expect.any(String),
      seq: expect.any(Number),
      kind: 'adjustment',
      amountMillis: 50_000,
      balanceAfterMillis: 50_000,
      description: 'Crédito manual: Cortesia de boas-vindas',
      campaignId: null,
      topupId: null,
      emailCount: null,
      priceMillis: null,
      createdAt: expect.any(String),
    });
    const debit = await adjust(-60_000, 'Estorno');
    expect(debit.statusCode).toBe(402);
    expect(debit.json().error.code).toBe('insufficient_balance');
    expect((await adjust(-20_000, 'Estorno de cortesia')).json()).toMatchObject({ balanceAfterMillis: 30_000 });
    expect((await adjust(1_000, 'x')).statusCode).toBe(400); // a reason of 3 characters at least
    expect(
      (await post('/api/admin/accounts/nao-e-uuid/adjustments', headers, { amountMillis: 1, reason: 'abc' }))
        .statusCode,
    ).toBe(400);
    const missing = await post(`/api/admin/accounts/${randomUUID()}/adjustments`, headers, {
      amountMillis: 1_000,
      reason: 'Conta que não existe',
    });
    expect(missing.statusCode).toBe(404);

    const price = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/accounts/${owner.accountId}/price`,
      headers,
      payload: { priceMillis: 3, reason: 'Contrato anual' },
    });
    expect(price.json()).toEqual({ ok: true });
    const accounts = (await t.app.inject({ method: 'GET', url: '/api/admin/accounts', headers })).json();
    expect(accounts.accounts.find((a: { id: string }) => a.id === owner.accountId)).toEqual({
      id: owner.accountId,
      name: expect.any(String),
      ownerUserId: owner.userId,
      ownerEmail: owner.email,
      balanceMillis: 30_000,
      priceMillis: 3,
      status: 'active',
      emailsSent: 0,
      createdAt: expect.any(String),
    });

    // A static (hand-confirmed) top-up: open until the operator confirms it, then paid; no provider to refund it.
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/billing/topups',
      headers: owner.headers,
      payload: { amountMillis: 20_000 },
    });
    expect(created.statusCode, created.body).toBe(201);
    const topupId: string = created.json().id;
    const topupsWith = async (status: string) =>
      (await t.app.inject({ method: 'GET', url: `/api/admin/topups?status=${status}`, headers })).json().topups as {
        id: string;
      }[];
    expect((await topupsWith('open')).find((x) => x.id === topupId)).toEqual({
      id: topupId,
      accountId: owner.accountId,
      txid: created.json().txid,
      amountMillis: 20_000,
      status: 'pending',
      reviewReason: null,
      providerPaymentId: null,
      providerReport: null,
      chargeProvider: null,
      refundedMillis: 0,
      paidAt: null,
      expiresAt: created.json().expiresAt,
      createdAt: created.json().createdAt,
    });
    expect((await topupsWith('paid')).map((x) => x.id)).not.toContain(topupId);
    const confirmed = await post(`/api/admin/topups/${topupId}/confirm`, headers, { reason: 'Pix visto no extrato' });
    expect(confirmed.json()).toEqual({ id: topupId, status: 'paid', paidAt: expect.any(String) });
    expect((await topupsWith('paid')).map((x) => x.id)).toContain(topupId);
    expect((await topupsWith('open')).map((x) => x.id)).not.toContain(topupId);
    const refund = await post(`/api/admin/topups/${topupId}/refunds`, headers, {
      amountMillis: 1_000,
      reason: 'Cliente pediu',
      requestKey: randomUUID(),
    });
    expect(refund.statusCode).toBe(409);
    expect(refund.json().error.message).toContain('devolva o Pix pelo banco');

    const audit = (await t.app.inject({ method: 'GET', url: '/api/admin/audit-log', headers })).json();
    const mine = audit.entries.filter((e: { accountId: string }) => e.accountId === owner.accountId);
    expect(mine.map((e: { action: string }) => e.action)).toEqual([
      'topup.confirm',
      'account.price',
      'balance.debit',
      'balance.credit',
    ]);
    expect(mine[1]).toMatchObject({
      operatorUserId: operator.userId,
      operatorEmail: OPERATOR_EMAIL,
      reason: 'Contrato anual',
      details: { from: 5, to: 3 },
      createdAt: expect.any(String),
    });
  });

  it('answers 401 without a session and 403 to non-operators on every /api/admin route', async () => {
    const owner = await signUp(t);
    const routes = adminRoutes(t);
    // Sanity: the enumeration found the back office (accounts, top-ups, alerts, audit log and the actions).
    expect(routes.length, JSON.stringify(routes)).toBeGreaterThanOrEqual(10);
    expect(routes.map(([, url]) => url)).toContain('/api/admin/campaign-alerts');
    for (const [method, pattern] of routes) {
      // A real account id where one is expected; the identity check runs before any parameter is parsed.
      const concrete = pattern.replace(/:id/g, pattern.includes('/accounts/') ? owner.accountId : '1');
      const asOwner = await t.app.inject({
        method,
        url: concrete,
        headers: owner.headers,
        payload: method === 'GET' ? undefined : { reason: 'tentativa', amountMillis: 1000, priceMillis: 1 },
      });
      expect(asOwner.statusCode, `${method} ${concrete}`).toBe(403);
      const anonymous = await t.app.inject({
        method,
        url: concrete,
        headers: { origin: t.origin },
        payload: method === 'GET' ? undefined : {},
      });
      expect(anonymous.statusCode, `${method} ${concrete} (no session)`).toBe(401);
    }
  });
});
