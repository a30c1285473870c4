import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';
import { contacts } from '../contacts/contacts.db';
import { lists } from '../lists/lists.db';

/**
 * One request for a person's consent to a list: a subscribe form submission (hosted page or embedded snippet), or
 * a sender adding the contact to a double opt-in list (API, dashboard, import: `formId` says which) — the consent
 * evidence (LGPD art. 8 — the controller must prove consent): when, from which IP and user agent, through which
 * form, with which text. `confirmedAt` is set when the double opt-in link is followed (single opt-in: at
 * submission). Erasing the contact erases its evidence (cascade).
 */
export const subscriptionConsents = pgTable(
  'subscription_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    listId: uuid('list_id')
      .notNull()
      .references(() => lists.id, { onDelete: 'cascade' }),
    contactId: uuid('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    /** `<listId>:hospedado` or `<listId>:incorporado`. */
    formId: text('form_id').notNull(),
    consentText: text('consent_text').notNull(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    optIn: text('opt_in', { enum: ['single', 'double'] }).notNull(),
    /**
     * The rows one confirmation e-mail asks about (one per list when a sender adds a contact to several double
     * opt-in lists at once) share the id of the first; its link confirms them together. Null: the row alone.
     */
    requestId: uuid('request_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
  },
  (t) => [
    index('subscription_consents_contact_idx').on(t.contactId),
    index('subscription_consents_request_idx').on(t.requestId).where(sql`${t.requestId} is not null`),
  ],
);
