import type { CampaignAlert } from '@carteiro/shared';
import type { Db } from '../../db/database';
import { notFound } from '../../http/not-found';
import { type OperatorRef, recordAdminAction } from '../billing/record-admin-action';
import {
  acknowledgeCampaignAlert as acknowledgeAlert,
  type CampaignAlertKind,
  listCampaignAlerts,
} from '../bounces/campaign-alerts';

export type { CampaignAlertKind };

/** The shared `CampaignAlert` answer as the server holds it, with its times as dates. */
export type OperatorCampaignAlert = Omit<CampaignAlert, 'createdAt' | 'acknowledgedAt'> & {
  createdAt: Date;
  acknowledgedAt: Date | null;
};

/**
 * Campaigns flagged for the operator (product §5: paused by bounce/complaint protection, policy rejections),
 * open alerts first, newest first; `includeReviewed` also lists those already marked reviewed.
 */
export async function listCampaignAlertsForOperator(
  db: Db,
  opts: { includeReviewed?: boolean; limit?: number } = {},
): Promise<OperatorCampaignAlert[]> {
  const rows = await listCampaignAlerts(db, opts);
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
    const result = await acknowledgeAlert(tx, input.alertId);
    if (!result?.alert.acknowledgedAt) throw notFound('alert');
    const { alert, changed } = result;
    if (!changed) return { acknowledgedAt: result.alert.acknowledgedAt, changed: false };
    await recordAdminAction(tx, {
      operator: input.operator,
      action: 'campaign_alert.review',
      accountId: alert.accountId,
      targetId: alert.campaignId,
      reason: input.note ?? null,
      details: { alertId: alert.id, kind: alert.kind },
    });
    return { acknowledgedAt: result.alert.acknowledgedAt, changed: true };
  });
}
