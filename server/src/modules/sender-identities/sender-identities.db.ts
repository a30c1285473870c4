import { index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

/**
 * A single From address an account proved it receives mail at (a link sent to it, single use, expires).
 * Only the sha256 of the confirmation token is stored.
 */
export const senderAddresses = pgTable(
  'sender_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash'),
    tokenExpiresAt: timestamp('token_expires_at', { withTimezone: true }),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sender_addresses_account_email_uq').on(t.accountId, t.email),
    uniqueIndex('sender_addresses_token_hash_uq').on(t.tokenHash),
  ],
);

/** One DNS record's state at the last check (found / missing / wrong, with what was found). */
export interface DnsRecordCheck {
  status: 'found' | 'missing' | 'wrong';
  found: string[];
}

/** The last DNS check of a domain, per record kind. */
export interface DomainCheckResult {
  checkedAt: string;
  dkim: DnsRecordCheck;
  dkimEd25519: DnsRecordCheck;
  spf: DnsRecordCheck & { lookups: number | null };
  dmarc: DnsRecordCheck;
  returnPath: DnsRecordCheck;
  tracking: DnsRecordCheck;
}

/**
 * A whole domain an account sends from: its DKIM key pair (RSA-2048 and Ed25519, private halves encrypted
 * with a key derived from AUTH_SECRET — never returned, logged or exported), the last DNS check, and the
 * states: verified (DKIM record found), broken (was verified, record gone), suspended (by the operator).
 */
export const senderDomains = pgTable(
  'sender_domains',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    domain: text('domain').notNull(),
    selector: text('selector').notNull(),
    dkimRsaPrivateEnc: text('dkim_rsa_private_enc').notNull(),
    dkimRsaRecord: text('dkim_rsa_record').notNull(),
    dkimEd25519PrivateEnc: text('dkim_ed25519_private_enc').notNull(),
    dkimEd25519Record: text('dkim_ed25519_record').notNull(),
    status: text('status', { enum: ['pending', 'verified', 'broken'] })
      .notNull()
      .default('pending'),
    /** Ed25519 record found: the second signature is added. */
    ed25519Verified: text('ed25519_verified', { enum: ['yes', 'no'] })
      .notNull()
      .default('no'),
    /** The return-path CNAME found: VERP addresses use `bounces.<domain>` (SPF aligned). */
    returnPathVerified: text('return_path_verified', { enum: ['yes', 'no'] })
      .notNull()
      .default('no'),
    lastCheck: jsonb('last_check').$type<DomainCheckResult>(),
    lastCheckedAt: timestamp('last_checked_at', { withTimezone: true }),
    verifiedAt: timestamp('verified_at', { withTimezone: true }),
    brokenAt: timestamp('broken_at', { withTimezone: true }),
    suspendedAt: timestamp('suspended_at', { withTimezone: true }),
    suspendedReason: text('suspended_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sender_domains_account_domain_uq').on(t.accountId, t.domain),
    index('sender_domains_domain_idx').on(t.domain),
  ],
);
