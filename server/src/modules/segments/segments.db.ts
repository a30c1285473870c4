import type { SegmentGroup } from '@carteiro/shared';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

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
