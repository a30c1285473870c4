import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { lockBillingAccount, setBillingTerms } from '../accounts/account-balance';
import { type OperatorRef, recordAdminAction } from '../billing/record-admin-action';
import { transitionCampaignStatus } from '../campaigns/campaign-controls';
import { campaignDirectory } from '../campaigns/campaign-directory';
import { setCampaignPausedReason } from '../campaigns/campaign-records';

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
