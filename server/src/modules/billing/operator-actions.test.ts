import { ERROR_MESSAGES_PT_BR } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminRoutes } from '../../../test/support/admin-routes';
import { randomClientIp, type SignedInUser, signUp } from '../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../test/support/test-database';
import { type Db, queryRows } from '../../db/database';
import { SUSPENSION_PAUSE_REASON } from '../back-office/account-suspension';
import { checkCampaignProtection } from '../bounces/record-report';
import { startDueCampaigns } from '../campaigns/start-campaign-send';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
} from '../sending/testing/send-fixtures';
import { ACCOUNT_SUSPENDED_SEND_MESSAGE } from './account-status';

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
