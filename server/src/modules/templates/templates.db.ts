import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

/**
 * The template library of an account (product §4 Template): HTML with Liquid merge tags, the visual builder's
 * project beside it (so re-editing keeps the design) and an optional hand-written text version.
 */
export const templates = pgTable(
  'templates',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    subject: text('subject'),
    html: text('html').notNull(),
    builderProject: jsonb('builder_project').$type<Record<string, unknown>>(),
    text: text('text'),
    /** The per-message variables the template takes (`{{ dados.<nome> }}`), each required in a send's `data`. */
    variables: text('variables').array().notNull().default(sql`'{}'::text[]`),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('templates_account_updated_idx').on(t.accountId, t.updatedAt.desc())],
);
