import type { CampaignStatus } from '@carteiro/shared';

export interface Campaign {
  id: string;
  uuid: string;
  createdBy: string;
  name: string;
  subject: string;
  preheader: string;
  fromName: string | null;
  fromEmail: string | null;
  replyTo: string | null;
  includeListIds: string[];
  excludeListIds: string[];
  template: string;
  templateProject: Record<string, unknown> | null;
  trackOpens: boolean;
  trackClicks: boolean;
  status: CampaignStatus;
  scheduledAt: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  counters: {
    recipients: number;
    sent: number;
    failed: number;
    bounced: number;
    opened: number;
    clicked: number;
    unsubscribed: number;
    complained: number;
  };
  createdAt: string;
  updatedAt: string;
}

export interface CampaignSummary {
  recipients: number;
  priceMillis: number;
  costMillis: number;
  balanceMillis: number;
  balanceAfterMillis: number;
  isBalanceSufficient: boolean;
}

export interface RenderedPreview {
  subject: string;
  html: string;
  text: string;
  preheader?: string;
  contact: { email: string; name: string | null; fields: Record<string, string> };
}

export const CAMPAIGNS_KEY = ['campaigns'] as const;
