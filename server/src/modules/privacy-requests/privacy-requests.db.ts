import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * A data subject's request from the public page /privacidade/solicitar (LGPD art. 18): access (a copy of what
 * every account holds, sent by e-mail) or deletion (erased from every account, only the suppression hash
 * kept). pending → (e-mail link) → done | failed; the address itself is cleared once a deletion is done, the
 * sha256 stays for the audit trail.
 */
export const privacyRequests = pgTable(
  'privacy_requests',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind', { enum: ['access', 'deletion'] }).notNull(),
    status: text('status', { enum: ['pending', 'done', 'failed'] })
      .notNull()
      .default('pending'),
    email: text('email'),
    emailHash: text('email_hash').notNull(),
    requestIp: text('request_ip'),
    confirmIp: text('confirm_ip'),
    /** What was done: accounts and contacts touched (counts and account ids, no personal data). */
    result: jsonb('result').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('privacy_requests_email_hash_idx').on(t.emailHash)],
);
