import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { lockBillingAccount, setBillingTerms } from '../accounts/account-balance';
import { accountDirectory } from '../accounts/account-directory';
import { transitionCampaignStatus } from '../campaigns/campaign-controls';
import { campaignDirectory } from '../campaigns/campaign-directory';
import { setCampaignPausedReason } from '../campaigns/campaign-records';
import { adminAuditLog } from './billing.db';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

export interface AdminAccountRow {
  id: string;
  name: string;
  ownerUserId: string;
  ownerEmail: string | null;
  balanceMillis: number;
  priceMillis: number;
  status: 'active' | 'suspended';
  emailsSent: number;
  createdAt: Date;
}

/** Every account with balance, price, status and e-mails charged so far (operator back office), newest first. */
export async function listAccountsForOperator(db: Db, limit = 500): Promise<AdminAccountRow[]> {
  const rows = await db
    .select({
      id: accountDirectory.id,
      name: accountDirectory.name,
      ownerUserId: accountDirectory.ownerUserId,
      ownerEmail: accountDirectory.ownerEmail,
      balanceMillis: accountDirectory.balanceMillis,
      priceMillis: accountDirectory.priceMillis,
      status: accountDirectory.status,
      createdAt: accountDirectory.createdAt,
      emailsSent: sql<number>`coalesce((select sum(email_count) from ledger_entries l
        where l.account_id = ${accountDirectory.id} and l.kind = 'send'), 0)::int`,
    })
    .from(accountDirectory)
    .orderBy(desc(accountDirectory.createdAt))
    .limit(limit);
  return rows.map((r) => ({ ...r, balanceMillis: Number(r.balanceMillis), emailsSent: Number(r.emailsSent) }));
}

/** Sets the account's negotiated price per e-mail (audited); affects reservations made from now on. */
export async function setNegotiatedPrice(
  db: Db,
  input: { accountId: string; priceMillis: number; reason?: string | null; operator: OperatorRef },
): Promise<void> {
  await db.transaction(async (tx) => {
    const account = await lockBillingAccount(tx, input.accountId);
    if (!account) throw notFound('account');
    await setBillingTerms(tx, input.accountId, { priceMillis: input.priceMillis });
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'account.price',
      accountId: input.accountId,
      reason: input.reason ?? null,
      details: { from: account.priceMillis, to: input.priceMillis },
    });
  });
}

/** The pt-BR reason a campaign shows when it was paused because its account was suspended. */
export const SUSPENSION_PAUSE_REASON =
  'Envio pausado: a conta foi suspensa pelo operador do Carteiro. Fale com o suporte; depois da reativação, retome a campanha por aqui.';

export interface AccountStatusChange {
  /** False when the account already had that status (nothing new recorded). */
  changed: boolean;
  /** Campaigns this call moved from sending to paused (suspension only). */
  pausedCampaignIds: string[];
}

/**
 * Suspends or reactivates an account (audited). A suspended account cannot reserve, so cannot start a send, and
 * cannot resume a paused campaign (assertAccountCanSend); its campaigns in status sending are paused with a
 * pt-BR reason, each pause audited too. Scheduled campaigns are left alone: the scheduler refuses them while the
 * account is suspended. Reactivation resumes nothing — the sender resumes each campaign by hand (decision 0008).
 */
export async function setAccountStatus(
  db: Db,
  input: { accountId: string; status: 'active' | 'suspended'; reason: string; operator: OperatorRef },
): Promise<AccountStatusChange> {
  const changed = await db.transaction(async (tx) => {
    const account = await lockBillingAccount(tx, input.accountId);
    if (!account) throw notFound('account');
    if (account.status === input.status) return false;
    await setBillingTerms(tx, input.accountId, { status: input.status });
    await recordAdminAction(tx, {
      operator: input.operator,
      action: input.status === 'suspended' ? 'account.suspend' : 'account.reactivate',
      accountId: input.accountId,
      reason: input.reason,
    });
    return true;
  });
  // After the suspension commits: any send that reserved before it is visible now, and any later one is refused
  // by the reservation. Also run when the account was already suspended, so a repeat repairs a sweep cut short.
  const pausedCampaignIds =
    input.status === 'suspended' ? await pauseSendingCampaignsOf(db, input.accountId, input.operator) : [];
  return { changed, pausedCampaignIds };
}

/**
 * Pauses every campaign of the account in status sending (the in-flight batches finish and are recorded, no new
 * batch is claimed). The compare-and-set is its own statement, then the reason and the audit row commit together:
 * no transaction holds the campaign row while waiting for campaign_sends (or the reverse), so this never
 * deadlocks with a worker writing a batch or finishing the campaign — the same shape as the bounce auto-pause.
 */
async function pauseSendingCampaignsOf(db: Db, accountId: string, operator: OperatorRef): Promise<string[]> {
  const sending = await db
    .select({ id: campaignDirectory.id, name: campaignDirectory.name })
    .from(campaignDirectory)
    .where(and(eq(campaignDirectory.accountId, accountId), eq(campaignDirectory.status, 'sending')));
  const paused: string[] = [];
  for (const campaign of sending) {
    if (!(await transitionCampaignStatus(db, campaign.id, ['sending'], 'paused'))) continue;
    await db.transaction(async (tx) => {
      await setCampaignPausedReason(tx, campaign.id, SUSPENSION_PAUSE_REASON);
      await recordAdminAction(tx, {
        operator,
        action: 'campaign.pause',
        accountId,
        targetId: campaign.id,
        reason: SUSPENSION_PAUSE_REASON,
        details: { cause: 'account.suspend', campaignName: campaign.name },
      });
    });
    paused.push(campaign.id);
  }
  return paused;
}

/** The newest operator actions, with the account's name. */
export async function listAdminAuditLog(db: Db, limit = 200) {
  return db
    .select({
      id: adminAuditLog.id,
      operatorUserId: adminAuditLog.operatorUserId,
      operatorEmail: adminAuditLog.operatorEmail,
      action: adminAuditLog.action,
      accountId: adminAuditLog.accountId,
      accountName: accountDirectory.name,
      targetId: adminAuditLog.targetId,
      reason: adminAuditLog.reason,
      details: adminAuditLog.details,
      createdAt: adminAuditLog.createdAt,
    })
    .from(adminAuditLog)
    .leftJoin(accountDirectory, eq(accountDirectory.id, adminAuditLog.accountId))
    .orderBy(desc(adminAuditLog.createdAt))
    .limit(limit);
}
