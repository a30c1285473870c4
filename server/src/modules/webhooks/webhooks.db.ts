import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

/**
 * Outbound webhook endpoints of an account (ADR 0015). The signing secret (`whsec_` + base64 of 24 random
 * bytes) is kept encrypted (AES-256-GCM, key derived from AUTH_SECRET) because the owner may reveal it again;
 * after a rotation the previous secret keeps signing alongside the new one until `previous_secret_expires_at`.
 * `failing_since` is the first failed attempt of the current run of failures (cleared by a success): an
 * endpoint failing longer than WEBHOOKS_DISABLE_AFTER_HOURS is disabled and the account is told by e-mail.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description').notNull().default(''),
    eventTypes: text('event_types').array().notNull(),
    enabled: boolean('enabled').notNull().default(true),
    disabledReason: text('disabled_reason'),
    secretCiphertext: text('secret_ciphertext').notNull(),
    previousSecretCiphertext: text('previous_secret_ciphertext'),
    previousSecretExpiresAt: timestamp('previous_secret_expires_at', { withTimezone: true }),
    failingSince: timestamp('failing_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('webhook_endpoints_account_id_idx').on(t.accountId)],
);

/**
 * The outbox: one row per event, written by the event sources (cheaply, in or beside their own statements, and
 * only when the account has an enabled endpoint wanting that type). The dispatcher turns undispatched rows into
 * deliveries in batches. `endpoint_id` set = a test event for that endpoint only.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: text('id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').notNull(),
    endpointId: uuid('endpoint_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (t) => [index('webhook_events_undispatched_idx').on(t.createdAt).where(sql`${t.dispatchedAt} is null`)],
);

/**
 * The coalesced outbox of the sending engine: one row per delivered batch (up to SENDING_BATCH_SIZE message ids),
 * written by the engine's outcome statement only when the account has an endpoint wanting `message.delivered`.
 * The dispatcher expands each row into one `webhook_events` row per message, off the engine's path.
 */
export const webhookEventBatches = pgTable(
  'webhook_event_batches',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    accountId: uuid('account_id').notNull(),
    type: text('type').notNull(),
    messageIds: bigint('message_ids', { mode: 'number' }).array().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
  },
  (t) => [index('webhook_event_batches_undispatched_idx').on(t.id).where(sql`${t.dispatchedAt} is null`)],
);

/** A successful first attempt kept on its delivery row (`first_attempt`), as the log shows it. */
export interface InlineAttempt {
  attemptedAt: string;
  statusCode: number;
  durationMs: number;
  responseBody: string;
}

export const WEBHOOK_DELIVERY_STATUS = ['pending', 'succeeded', 'failed'] as const;

/**
 * One event to one endpoint: the unit of retry, and the delivery queue itself (ADR 0026). A pending delivery is
 * due at `next_attempt_at`; a worker claims due ones with FOR UPDATE SKIP LOCKED, stamping `claim_token` and
 * moving `next_attempt_at` one lease ahead (WEBHOOKS_LEASE_SECONDS): if the worker dies mid-attempt the delivery
 * is due again when the lease ends. The outcome settles it (succeeded / failed) or schedules the next retry.
 * `attempts` counts every attempt (the log); `run_attempts` those since the last "reenviar" (the retry budget).
 * `first_attempt`: a first attempt that succeeded is kept here instead of as a `webhook_attempts` row (the
 * common case of the hot path: one row fewer per event); the delivery log shows it as an attempt.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id').notNull(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    eventType: text('event_type').notNull(),
    status: text('status', { enum: WEBHOOK_DELIVERY_STATUS }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    runAttempts: integer('run_attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
    claimToken: uuid('claim_token'),
    firstAttempt: jsonb('first_attempt').$type<InlineAttempt>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().default(sql`clock_timestamp()`),
  },
  (t) => [
    index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt),
    // The claim: per endpoint, its due pending deliveries in order (settled ones leave the index).
    index('webhook_deliveries_due_idx')
      .on(t.endpointId, t.nextAttemptAt, t.createdAt)
      .where(sql`${t.status} = 'pending'`),
    // The retention sweep asks "does any delivery still refer to this event?" (retention.ts).
    index('webhook_deliveries_event_idx').on(t.eventId),
    // The delivery log filtered to failures, newest first (delivery-log.ts): a few among an endpoint's month.
    index('webhook_deliveries_failed_idx').on(t.endpointId, t.createdAt).where(sql`${t.status} = 'failed'`),
  ],
);

/** Every HTTP attempt of a delivery: the delivery log. */
export const webhookAttempts = pgTable(
  'webhook_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    deliveryId: uuid('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    attemptedAt: timestamp('attempted_at', { withTimezone: true }).notNull(),
    statusCode: integer('status_code'),
    durationMs: integer('duration_ms').notNull(),
    error: text('error'),
    responseBody: text('response_body').notNull().default(''),
  },
  (t) => [index('webhook_attempts_delivery_idx').on(t.deliveryId, t.attemptedAt)],
);
