import type { MessageStream } from '../message-streams';
import type { CONTACT_STATUS_VALUES, ContactBulkInput, SuppressionReason } from '../schemas/audience';

/** Contacts, suppression list and contact history responses: the shapes the server answers and the web reads. */

export type ContactStatus = (typeof CONTACT_STATUS_VALUES)[number];

/** A contact as the API answers it (ISO dates). */
export interface ContactView {
  id: string;
  email: string;
  name: string | null;
  fields: Record<string, string>;
  status: ContactStatus;
  consent: {
    legalBasis: string | null;
    source: string | null;
    ip: string | null;
    at: string | null;
    text: string | null;
  };
  createdAt: string;
  updatedAt: string;
}

/** One page of GET /api/contacts. */
export interface ContactPage {
  items: ContactView[];
  /** Opaque cursor of the next page; null on the last page. */
  nextCursor: string | null;
}

/** GET /api/contacts/:id: the contact with its list memberships. */
export interface ContactDetail extends ContactView {
  lists: Array<{ listId: string; status: string; createdAt: string }>;
}

/** POST /api/contacts/bulk: how many contacts the action changed. */
export type ContactBulkResult =
  | {
      action: 'add_to_list';
      /** Memberships created: subscribed plus pending. */
      affected: number;
      /** Memberships created subscribed (single opt-in lists). */
      subscribed: number;
      /** Memberships created pending (double opt-in lists), waiting for the person's confirmation. */
      pending: number;
      /** Contacts left out: unsubscribed, bounced, complained or suppressed. */
      skipped: number;
      /** Confirmation e-mails queued or sent. */
      confirmationsSent: number;
    }
  | { action: Exclude<ContactBulkInput['action'], 'add_to_list'>; affected: number };

/** GET /api/contacts/:id/activity: the contact's history across campaigns, newest first. */
export interface ContactActivity {
  messages: Array<{
    messageId: number;
    campaignId: string;
    campaignName: string;
    status: string;
    sentAt: string | null;
  }>;
  events: Array<{
    kind: string;
    machine: boolean;
    bounceKind: string | null;
    detail: string | null;
    url: string | null;
    campaignId: string;
    campaignName: string;
    at: string;
  }>;
}

/** GET /api/suppressions: counts by reason (the list keeps hashes, never the addresses). */
export interface SuppressionSummary {
  /** Each address once. */
  total: number;
  /** An address unsubscribed and later bounced counts under both. */
  byReason: Record<SuppressionReason, number>;
}

/** POST /api/suppressions */
export interface AddSuppressionsResult {
  added: number;
  alreadySuppressed: number;
  /** The lines that are not e-mail addresses, as typed (first 100). */
  invalid: string[];
  invalidCount: number;
}

/** POST /api/suppressions/lookup */
export interface SuppressionLookup {
  email: string;
  suppressed: boolean;
  /** The strongest of its reasons (SUPPRESSION_REASON_PRECEDENCE). */
  reason: SuppressionReason | null;
  /** Every reason the address carries. */
  reasons: SuppressionReason[];
  /** The streams its reasons cover together (an unsubscribe alone: marketing). */
  streams: MessageStream[];
  /** When the strongest reason was recorded. */
  createdAt: string | null;
}
