import type { CampaignView } from '@carteiro/shared';
import type { CampaignRow } from './campaigns.db';

export type { CampaignView };

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toCampaignView(row: CampaignRow): CampaignView {
  return {
    id: row.id,
    uuid: row.uuid,
    createdBy: row.createdBy,
    name: row.name,
    subject: row.subject,
    preheader: row.preheader,
    fromName: row.fromName,
    fromEmail: row.fromEmail,
    replyTo: row.replyTo,
    includeListIds: row.includeListIds,
    excludeListIds: row.excludeListIds,
    includeSegmentIds: row.includeSegmentIds,
    resendOfCampaignId: row.resendOfCampaignId,
    template: row.template,
    templateProject: row.templateProject ?? null,
    trackOpens: row.trackOpens,
    trackClicks: row.trackClicks,
    abTest: row.abTest ?? null,
    status: row.status,
    scheduledAt: iso(row.scheduledAt),
    startedAt: iso(row.startedAt),
    finishedAt: iso(row.finishedAt),
    counters: {
      recipients: row.recipientsCount,
      sent: row.sentCount,
      failed: row.failedCount,
      bounced: row.bouncedCount,
      opened: row.openedCount,
      clicked: row.clickedCount,
      unsubscribed: row.unsubscribedCount,
      complained: row.complainedCount,
    },
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}
