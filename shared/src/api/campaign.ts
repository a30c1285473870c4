import type { CampaignStatus } from '../campaign-status';
import type { AbCriterion, AbTestConfig } from '../schemas/campaign';
import type { SkipReason } from '../skip-reasons';

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
  /** The A/B test (variants B–D; A is the campaign itself), or null. */
  abTest: AbTestConfig | null;
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

/** A campaign in a list: without its HTML, builder project and A/B variants' content (read the campaign for those). */
export type CampaignListItem = Omit<CampaignView, 'template' | 'templateProject' | 'abTest'> & {
  /** Whether it is an A/B test. */
  isAbTest: boolean;
};

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
  /** `skipped` by reason (SkipReason → count); messages skipped before reasons were recorded are not in it. */
  skippedByReason: Partial<Record<SkipReason, number>>;
  pending: number;
  opens: { uniqueHuman: number; machine: number; total: number; rate: number };
  clicks: { unique: number; machine: number; total: number; rate: number; clickToOpenRate: number };
  links: Array<{ id: number; url: string; clicks: number; uniqueClicks: number }>;
  unsubscribes: number;
  bounces: { hard: number; soft: number; policy: number };
  complaints: number;
  pausedReason: string | null;
  /** The A/B comparison (null when the campaign is not an A/B test). */
  abTest: AbTestReport | null;
  series: Array<{
    hour: string;
    opens: number;
    clicks: number;
    unsubscribes: number;
    bounces: number;
    complaints: number;
  }>;
}

/** One variant's results in an A/B test; rates are over its delivered messages. */
export interface AbVariantResult {
  /** 0 = A (the campaign), 1 = B… */
  index: number;
  letter: string;
  subject: string;
  fromName: string | null;
  /** Whether the variant has content of its own (otherwise the campaign's). */
  ownContent: boolean;
  /** Recipients of the test share that got this variant (the comparison counts the test share only). */
  recipients: number;
  delivered: number;
  uniqueOpens: number;
  uniqueClicks: number;
  openRate: number;
  clickRate: number;
}

/** The A/B test of a campaign report: the comparison, and the winner with why once decided. */
export interface AbTestReport {
  criterion: AbCriterion;
  testPercent: number;
  waitHours: number;
  /** When the winner is (or was due to be) chosen. */
  decideAt: string;
  decidedAt: string | null;
  /** Index of the winning variant, null while the test runs. */
  winner: number | null;
  /** pt-BR: why the winner won (with the rates at the decision), or what the test is waiting for. */
  reason: string;
  /** Recipients held back for the winner (0 once it was sent to them). */
  held: number;
  variants: AbVariantResult[];
}

/** Live progress of a campaign (GET /api/campaigns/:id/progress; the view page polls it while sending). */
export interface CampaignProgress {
  status: CampaignStatus;
  recipients: number;
  sent: number;
  failed: number;
  skipped: number;
  remaining: number;
  /** Messages accepted per second over the last minute. */
  ratePerSecond: number;
  /** ISO time the remaining messages should be done at the current rate; null when unknown or done. */
  estimatedEnd: string | null;
  pausedReason: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  /**
   * A/B test whose winner is not chosen yet: when it will be (ISO). Meanwhile the held recipients wait, so
   * there is no estimated end.
   */
  abTestDecideAt: string | null;
}

/** One recipient of a campaign with their activity (GET /api/campaigns/:id/recipients). */
export interface RecipientActivity {
  messageId: number;
  contactId: string | null;
  email: string;
  status: string;
  sentAt: string | null;
  opens: number;
  clicks: number;
  lastOpenAt: string | null;
  lastClickAt: string | null;
  unsubscribed: boolean;
  bounce: string | null;
  complained: boolean;
  /** Why a skipped message was not delivered (SkipReason); null for other statuses and older skipped messages. */
  skipReason: SkipReason | null;
  /** A/B test: the letter of the variant the recipient got ("A"…); null for a normal campaign or while held. */
  variant: string | null;
}

/** A keyset page of recipients (cursor = the last message id). */
export interface RecipientPage {
  items: RecipientActivity[];
  nextCursor: string | null;
}
