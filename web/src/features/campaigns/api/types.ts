/** Response shapes shared with the server. */
export type { CampaignSummary, CampaignView as Campaign, RenderedPreview } from '@carteiro/shared';

export const CAMPAIGNS_KEY = ['campaigns'] as const;
