import { and, eq } from 'drizzle-orm';
import type { Db } from '../../db/database';
import type { Audience } from '../contacts/count-recipients';
import { segmentConditions } from '../segments/segments';
import { recentSentCampaignIds } from './campaign-directory';
import { campaigns } from './campaigns.db';

/** The audience parts of a campaign row: lists, segments, and the campaign a follow-up resends to. */
export interface CampaignAudienceSource {
  includeListIds: string[];
  excludeListIds: string[];
  includeSegmentIds: string[];
  resendOfCampaignId: string | null;
}

/**
 * A campaign's audience with its segments compiled (for the cost preview, the send snapshot and the engine's
 * claim). All three read the same function, so the count shown before "Enviar" is the number snapshotted, and the
 * claim asks the eligibility rule about the same lists. Segments sit below campaigns: what they read of campaigns
 * (the last sent ones) is handed to them here.
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
    segmentConditions: await segmentConditions(db, accountId, campaign.includeSegmentIds, recentSentCampaignIds, now),
    nonOpenersOfCampaignId: campaign.resendOfCampaignId,
    followUpListIds: campaign.resendOfCampaignId ? await originalLists(db, accountId, campaign.resendOfCampaignId) : [],
  };
}

/** The lists the original of a follow-up was sent to (its recipients may have left them since). */
async function originalLists(db: Db, accountId: string, campaignId: string): Promise<string[]> {
  const [row] = await db
    .select({ lists: campaigns.includeListIds })
    .from(campaigns)
    .where(and(eq(campaigns.id, campaignId), eq(campaigns.createdBy, accountId)));
  return row?.lists ?? [];
}
