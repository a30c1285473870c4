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
