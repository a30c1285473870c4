import type { Db } from '../../db/database';
import type { Audience } from '../contacts/count-recipients';
import { segmentConditions } from './segments';

/** The audience parts of a campaign row: lists, segments, and the campaign a follow-up resends to. */
export interface CampaignAudienceSource {
  includeListIds: string[];
  excludeListIds: string[];
  includeSegmentIds: string[];
  resendOfCampaignId: string | null;
}

/**
 * A campaign's audience with its segments compiled (for the cost preview and the send snapshot). Both read the
 * same function, so the count shown before "Enviar" is the number snapshotted.
 */
export async function campaignAudience(
  db: Db,
  accountId: string,
  campaign: CampaignAudienceSource,
  now = new Date(),
): Promise<Audience> {
  return {
    includeListIds: campaign.includeListIds,
    excludeListIds: campaign.excludeListIds,
    segmentConditions: await segmentConditions(db, accountId, campaign.includeSegmentIds, now),
    nonOpenersOfCampaignId: campaign.resendOfCampaignId,
  };
}

/** Whether a campaign names any audience at all (lists, segments, or the campaign it follows up). */
export function hasAudience(campaign: CampaignAudienceSource): boolean {
  return campaign.includeListIds.length > 0 || campaign.includeSegmentIds.length > 0 || !!campaign.resendOfCampaignId;
}
