import { and, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { accountDirectory } from '../accounts/account-directory';
import { campaignAlerts } from '../bounces/bounces.db';
import { campaigns } from '../campaigns/campaigns.db';
import { type OperatorRef, recordAdminAction } from './record-admin-action';

export type CampaignAlertKind = (typeof campaignAlerts.$inferSelect)['kind'];

export interface OperatorCampaignAlert {
  id: number;
  kind: CampaignAlertKind;
  reason: string;
  createdAt: Date;
  acknowledgedAt: Date | null;
  accountId: string;
  accountName: string;
  accountStatus: 'active' | 'suspended';
  ownerEmail: string | null;
  campaignId: string;
  campaignName: string;
  campaignStatus: string;
  /** The campaign's counters now: messages accepted by the relay, hard bounces, spam complaints. */
  sent: number;
  bounced: number;
  complained: number;
  /** bounced / sent and complained / sent (0 when nothing was sent yet). */
  bounceRate: number;
  complaintRate: number;
}

/**
 * Campaigns flagged for the operator (product §5: paused by bounce/complaint protection, policy rejections),
 * open alerts first, newest first; `includeReviewed` also lists those already marked reviewed.
 */
export async function listCampaignAlertsForOperator(
  db: Db,
  opts: { includeReviewed?: boolean; limit?: number } = {},
): Promise<OperatorCampaignAlert[]> {
  const rows = await db
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
      campaignName: campaigns.name,
      campaignStatus: campaigns.status,
      sent: campaigns.sentCount,
      bounced: campaigns.bouncedCount,
      complained: campaigns.complainedCount,
    })
    .from(campaignAlerts)
    .innerJoin(campaigns, eq(campaigns.id, campaignAlerts.campaignId))
    .innerJoin(accountDirectory, eq(accountDirectory.id, campaignAlerts.accountId))
    .where(opts.includeReviewed ? undefined : isNull(campaignAlerts.acknowledgedAt))
    .orderBy(sql`${campaignAlerts.acknowledgedAt} is not null`, desc(campaignAlerts.createdAt))
    .limit(opts.limit ?? 200);
  return rows.map((r) => ({
    ...r,
    bounceRate: r.sent > 0 ? r.bounced / r.sent : 0,
    complaintRate: r.sent > 0 ? r.complained / r.sent : 0,
  }));
}

/** Marks an alert reviewed by the operator (audited, once: a repeat is a no-op). */
export async function acknowledgeCampaignAlert(
  db: Db,
  input: { alertId: number; operator: OperatorRef; note?: string | null },
): Promise<{ acknowledgedAt: Date; changed: boolean }> {
  return db.transaction(async (tx) => {
    const [moved] = await tx
      .update(campaignAlerts)
      .set({ acknowledgedAt: sql`now()` })
      .where(and(eq(campaignAlerts.id, input.alertId), isNull(campaignAlerts.acknowledgedAt)))
      .returning();
    if (!moved) {
      const [existing] = await tx.select().from(campaignAlerts).where(eq(campaignAlerts.id, input.alertId));
      if (!existing?.acknowledgedAt) throw notFound('alert');
      return { acknowledgedAt: existing.acknowledgedAt, changed: false };
    }
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'campaign_alert.review',
      accountId: moved.accountId,
      targetId: moved.campaignId,
      reason: input.note ?? null,
      details: { alertId: moved.id, kind: moved.kind },
    });
    return { acknowledgedAt: moved.acknowledgedAt ?? new Date(), changed: true };
  });
}
