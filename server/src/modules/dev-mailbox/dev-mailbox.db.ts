import { bigserial, index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/** Messages received by the built-in mail catcher (development only). */
export const devMailMessages = pgTable(
  'dev_mail_messages',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    envelopeFrom: text('envelope_from').notNull(),
    envelopeTo: text('envelope_to').array().notNull(),
    subject: text('subject').notNull().default(''),
    raw: text('raw').notNull(),
  },
  (t) => [index('dev_mail_messages_received_at_idx').on(t.receivedAt)],
);
