import type { SegmentGroup } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import { boolean, index, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { campaigns } from '../campaigns/campaigns.db';

/**
 * A saved segment (Contatos → Segmentos): a validated condition tree (shared/src/schemas/segments.ts), compiled
 * to parameterised SQL each time it is counted, previewed or snapshotted into a campaign — a segment is live,
 * never a stored list of contacts.
 */
export const segments = pgTable(
  'segments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    conditions: jsonb('conditions').$type<SegmentGroup>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('segments_account_name_idx').on(t.accountId, t.name)],
);

export type SegmentRow = typeof segments.$inferSelect;

/**
 * Segments' read model: the contact's segment row, one per existing contact of the account (migration 0066, ADR
 * 0043). Its engagement: the most recent *sent* campaign (by start, then id — the order of "as últimas N
 * campanhas") it opened, the one it clicked, as a person (machine opens and clicks left out), and the one delivered
 * to it (a `sent` message). "Abriu/clicou em alguma das últimas N" ⇔ that campaign is one of the last N; "não abriu
 * nenhuma" ⇔ the last delivered one is and the last opened one is not — column checks on one row, instead of a hash
 * of every human event (or delivery) of N campaigns built per count. Null (ever_opened false) for a contact never
 * mailed. Written by a campaign's fold (the first count after it is `sent` reads its events and deliveries once —
 * its outcomes are final then, segment-engagement.ts) and, for events arriving after that, by the statement-level
 * trigger on message_events (migration 0044; the delivered fact, migration 0047); both skip a contact that no
 * longer exists, whose deletion took its row (migration 0059).
 * Beside it, the contact's own columns as a count's conditions read them — status, creation, lower-cased e-mail,
 * name and field texts, typed fields, subscribed lists — kept by the triggers on contacts and list_memberships in the
 * writer's transaction, so a count reads one row per contact and joins nothing (compile-segment.ts, compileRows).
 */
export const segmentEngagement = pgTable(
  'segment_engagement',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id').notNull(),
    lastOpenedCampaignId: uuid('last_opened_campaign_id'),
    lastOpenedCampaignAt: timestamp('last_opened_campaign_at', { withTimezone: true }),
    lastClickedCampaignId: uuid('last_clicked_campaign_id'),
    lastClickedCampaignAt: timestamp('last_clicked_campaign_at', { withTimezone: true }),
    lastDeliveredCampaignId: uuid('last_delivered_campaign_id'),
    lastDeliveredCampaignAt: timestamp('last_delivered_campaign_at', { withTimezone: true }),
    /**
     * Whether the contact ever opened any message as a person (any campaign, sent or not — tracking's
     * contact_first_opens, kept by the same trigger): "nunca abriu" in a tree that reads this row anyway is a
     * column check instead of a second hash of every opener (migration 0049).
     */
    everOpened: boolean('ever_opened').notNull().default(false),
    // The contact's side of the row (migration 0066, ADR 0043), kept by the triggers on contacts and
    // list_memberships in the writer's own transaction: what a count's conditions read, already lowered or typed.
    contactStatus: text('contact_status'),
    contactCreatedAt: timestamp('contact_created_at', { withTimezone: true }),
    emailLower: text('email_lower'),
    nameLower: text('name_lower'),
    /** Each custom field's text, lower-cased (a count's text conditions compare lower-cased values). */
    fieldTexts: jsonb('field_texts').$type<Record<string, string | null>>().notNull().default({}),
    /** The fields that read as a number (contact_field_number), as JSON numbers. */
    fieldNumbers: jsonb('field_numbers').$type<Record<string, number>>().notNull().default({}),
    /** The fields that read as a date (contact_field_day), as AAAA-MM-DD. */
    fieldDays: jsonb('field_days').$type<Record<string, string>>().notNull().default({}),
    /** The lists the contact is subscribed to, in id order. */
    listIds: uuid('list_ids').array().notNull().default(sql`'{}'::uuid[]`),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.contactId] })],
);

/** The sent campaigns whose events and deliveries are folded into segment_engagement (once each). */
export const segmentEngagementFolds = pgTable('segment_engagement_folds', {
  campaignId: uuid('campaign_id')
    .primaryKey()
    .references(() => campaigns.id, { onDelete: 'cascade' }),
  foldedAt: timestamp('folded_at', { withTimezone: true }).notNull().defaultNow(),
});
