/** Response shapes shared with the server. */
export type { CampaignSummary, CampaignView as Campaign } from '@carteiro/shared';

export interface RenderedPreview {
  subject: string;
  html: string;
  text: string;
  preheader?: string;
  contact: { email: string; name: string | null; fields: Record<string, string> };
}

export const CAMPAIGNS_KEY = ['campaigns'] as const;
