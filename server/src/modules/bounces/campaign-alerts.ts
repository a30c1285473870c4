import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/database';
import { accountDirectory } from '../accounts/account-directory';
import { campaignDirectory } from '../campaigns/campaign-directory';
import { campaignAlerts } from './bounces.db';

export type CampaignAlertKind = (typeof campaignAlerts.$inferSelect)['kind'];
export type CampaignAlertRow = typeof campaignAlerts.$inferSelect;

/**
 * Campaigns flagged for the operator (paused by the bounce/complaint protection, policy rejections) with their
 * account and the campaign's counters now, in one statement: open alerts first, newest first.
 */
export async function listCampaignAlerts(db: Db, opts: { includeReviewed?: boolean; limit?: number } = {}) {
  return db
    .select({
      id: campaignAlerts.id,
      kind: campaignAlerts.kind,
      reason: campaignAlerts.reason,
      createdAt: campaignAlerts.createdAt,
      acknowledgedAt: campaignAlerts.acknowledgedAt,
      accountId: campaignAlerts.accountId,
      accountName: accountDirectory.name,
      accountStatus: accountDirectory.status,
      ownerEmail: accountDirectory.ownerEmail,
      campaignId: campaignAlerts.campaignId,
      campaignName: campaignDirectory.name,
      campaignStatus: campaignDirectory.status,
      sent: campaignDirectory.sentCount,
      bounced: campaignDirectory.bouncedCount,
      complained: campaignDirectory.complainedCount,
    })
    .from(campaignAlerts)
    .innerJoin(campaignDirectory, eq(campaignDirectory.id, campaignAlerts.campaignId))
    .innerJoin(accountDirectory, eq(accountDirectory.id, campaignAlerts.accountId))
    .where(opts.includeReviewed ? undefined : isNull(campaignAlerts.acknowledgedAt))
    .orderBy(sql`${campaignAlerts.acknowledgedAt} is not null`, desc(campaignAlerts.createdAt))
    .limit(opts.limit ?? 200);
}

/**
 * Marks the alert reviewed, once: `changed` is false when it already was (the alert as it is), null when there is
 * no such alert.
 */
export async function acknowledgeCampaignAlert(
  tx: DbOrTx,
  alertId: number,
): Promise<{ alert: CampaignAlertRow; changed: boolean } | null> {
  const [moved] = await tx
    .update(campaignAlerts)
    .set({ acknowledgedAt: sql`now()` })
    .where(and(eq(campaignAlerts.id, alertId), isNull(campaignAlerts.acknowledgedAt)))
    .returning();
  if (moved) return { alert: moved, changed: true };
  const [existing] = await tx.select().from(campaignAlerts).where(eq(campaignAlerts.id, alertId));
  return existing ? { alert: existing, changed: false } : null;
}
