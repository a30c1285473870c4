import type { CampaignStatus } from '../campaign-status';

/** Campaign responses: the shapes the server answers and the web reads (one definition for both sides). */

/** A campaign as the API answers it (ISO dates). `createdBy` is the owning account id (spec §3). */
export interface CampaignView {
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
  includeSegmentIds: string[];
  /** A "reenviar para quem não abriu" follow-up: its audience is this campaign's recipients who did not open. */
  resendOfCampaignId: string | null;
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

/** Before the "Enviar" button: recipients, cost at the account's price and the balance left (integer millis). */
export interface CampaignSummary {
  /** Exact recipients after deduplication across lists, exclusions and suppressions. */
  recipients: number;
  priceMillis: number;
  costMillis: number;
  balanceMillis: number;
  balanceAfterMillis: number;
  isBalanceSufficient: boolean;
}

/** A campaign's results (GET /api/campaigns/:id/report); rates are over delivered messages. */
export interface CampaignReport {
  campaignId: string;
  recipients: number;
  delivered: number;
  failed: number;
  skipped: number;
  pending: number;
  opens: { uniqueHuman: number; machine: number; total: number; rate: number };
  clicks: { unique: number; machine: number; total: number; rate: number; clickToOpenRate: number };
  links: Array<{ id: number; url: string; clicks: number; uniqueClicks: number }>;
  unsubscribes: number;
  bounces: { hard: number; soft: number; policy: number };
  complaints: number;
  pausedReason: string | null;
  series: Array<{
    hour: string;
    opens: number;
    clicks: number;
    unsubscribes: number;
    bounces: number;
    complaints: number;
  }>;
}
