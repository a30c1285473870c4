import type { SegmentGroup } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
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
    /**
     * Each custom field's text, lower-cased (a count's text conditions compare lower-cased values), but for the
     * fields that have columns of their own below (segment_field_slots); so too the two typed objects.
     */
    fieldTexts: jsonb('field_texts').$type<Record<string, string | null>>().notNull().default({}),
    /**
     * The account's first SEGMENT_FIELD_SLOTS custom fields, one column each per form — the text lower-cased, the
     * number, the date — in the slot segment_field_slots gives the key: a condition reads a plain column instead of
     * a jsonb look-up per row (ADR 0045). The jsonb objects above hold the keys without a slot.
     */
    fieldText1: text('field_text_1'),
    fieldText2: text('field_text_2'),
    fieldText3: text('field_text_3'),
    fieldText4: text('field_text_4'),
    fieldText5: text('field_text_5'),
    fieldText6: text('field_text_6'),
    fieldText7: text('field_text_7'),
    fieldText8: text('field_text_8'),
    fieldNumber1: numeric('field_number_1'),
    fieldNumber2: numeric('field_number_2'),
    fieldNumber3: numeric('field_number_3'),
    fieldNumber4: numeric('field_number_4'),
    fieldNumber5: numeric('field_number_5'),
    fieldNumber6: numeric('field_number_6'),
    fieldNumber7: numeric('field_number_7'),
    fieldNumber8: numeric('field_number_8'),
    fieldDay1: text('field_day_1'),
    fieldDay2: text('field_day_2'),
    fieldDay3: text('field_day_3'),
    fieldDay4: text('field_day_4'),
    fieldDay5: text('field_day_5'),
    fieldDay6: text('field_day_6'),
    fieldDay7: text('field_day_7'),
    fieldDay8: text('field_day_8'),
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

/** How many custom fields of an account have columns of their own on the segment row. */
export const SEGMENT_FIELD_SLOTS = 8;

/**
 * Which custom field each `field_text_<slot>` / `field_number_<slot>` / `field_day_<slot>` column of the account's
 * segment rows holds (ADR 0045). A key takes the next free slot the first time a contact of the account carries it,
 * and keeps it: so a key without a slot only exists once every slot is taken, and it stays in the jsonb objects.
 * Written only by the segment rows' triggers (migration 0068).
 */
export const segmentFieldSlots = pgTable(
  'segment_field_slots',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    slot: smallint('slot').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.accountId, t.key] }),
    unique('segment_field_slots_slot_key').on(t.accountId, t.slot),
    check('segment_field_slots_slot_check', sql`${t.slot} between 1 and 8`),
  ],
);
