import {
  AUTOMATION_ENROLLMENT_STATUSES,
  AUTOMATION_STATUSES,
  AUTOMATION_TRIGGER_TYPES,
  AUTOMATION_WAIT_UNITS,
} from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from '../accounts/accounts.db';

/**
 * An automation of an account (Automações, ADR 0021): its trigger (one of three kinds, the columns of the other
 * kinds null), its sender and its status. `enroll_since` is when it was first activated: a list trigger enrolls
 * the contacts who joined (or confirmed the double opt-in) from then on, never the list's existing members.
 * `date_run_on` is the last local day (America/Sao_Paulo) whose date trigger has run.
 */
export const automations = pgTable(
  'automations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status', { enum: AUTOMATION_STATUSES }).notNull().default('draft'),
    triggerType: text('trigger_type', { enum: AUTOMATION_TRIGGER_TYPES }).notNull(),
    listId: uuid('list_id'),
    dateField: text('date_field'),
    sendHour: integer('send_hour'),
    eventName: text('event_name'),
    /**
     * API event triggers: the key of the event's `data` that tells one event from another (the order id). Null:
     * a contact enters once; set: once per distinct value (its occurrence), so each new order enters again.
     */
    eventKeyField: text('event_key_field'),
    fromEmail: text('from_email').notNull(),
    fromName: text('from_name'),
    pausedReason: text('paused_reason'),
    enrollSince: timestamp('enroll_since', { withTimezone: true }),
    dateRunOn: text('date_run_on'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('automations_account_created_idx').on(t.accountId, t.createdAt),
    index('automations_event_idx').on(t.accountId, t.eventName).where(sql`${t.eventName} is not null`),
  ],
);

/** The steps of an automation, in order: wait, then send a template. Ids stay stable when the automation is edited. */
export const automationSteps = pgTable(
  'automation_steps',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    waitAmount: integer('wait_amount').notNull(),
    waitUnit: text('wait_unit', { enum: AUTOMATION_WAIT_UNITS }).notNull(),
    templateId: uuid('template_id').notNull(),
    subject: text('subject'),
  },
  (t) => [uniqueIndex('automation_steps_position_uq').on(t.automationId, t.position)],
);

/**
 * A contact inside an automation: one row per automation × contact × occurrence (`''` for list and event
 * triggers — once per contact —, the year for date triggers). `next_position` is the next step to send and
 * `next_run_at` when; active → completed (every step done) | exited (unsubscribed, suppressed, deleted, left the
 * list).
 */
export const automationEnrollments = pgTable(
  'automation_enrollments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    contactId: uuid('contact_id').notNull(),
    occurrence: text('occurrence').notNull().default(''),
    status: text('status', { enum: AUTOMATION_ENROLLMENT_STATUSES }).notNull().default('active'),
    nextPosition: integer('next_position').notNull().default(1),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    /** The API event's `data` (merge values of the messages). */
    data: jsonb('data').$type<Record<string, unknown>>(),
    exitReason: text('exit_reason'),
    enrolledAt: timestamp('enrolled_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('automation_enrollments_once_uq').on(t.automationId, t.contactId, t.occurrence),
    index('automation_enrollments_due_idx').on(t.nextRunAt).where(sql`${t.status} = 'active'`),
    index('automation_enrollments_contact_idx').on(t.contactId),
  ],
);

/**
 * One step sent (or skipped) to one enrollment. The primary key (enrollment × step) is what makes "never twice"
 * hold across restarts and workers: the row is inserted in the same transaction as the message and its charge.
 * `message_id` links the step to its message of the account's stream (opens and clicks of the report).
 */
export const automationStepRuns = pgTable(
  'automation_step_runs',
  {
    enrollmentId: uuid('enrollment_id')
      .notNull()
      .references(() => automationEnrollments.id, { onDelete: 'cascade' }),
    stepId: uuid('step_id')
      .notNull()
      .references(() => automationSteps.id, { onDelete: 'cascade' }),
    automationId: uuid('automation_id').notNull(),
    messageId: bigint('message_id', { mode: 'number' }),
    /**
     * A person opened / clicked its message (Apple MPP and link scanners left out): set by the trigger on
     * message_events inserts, or from the events already there when the message id is written (migration 0064).
     */
    opened: boolean('opened').notNull().default(false),
    clicked: boolean('clicked').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.enrollmentId, t.stepId] }),
    index('automation_step_runs_step_idx').on(t.stepId),
    // The events' trigger finds a message's run by it; runs without a message (skipped) never enter it.
    index('automation_step_runs_message_idx').on(t.messageId).where(sql`${t.messageId} is not null`),
  ],
);

/**
 * The report's counts as delta rows (the pattern of lists' list_count_deltas, ADR 0041), appended per statement by
 * triggers on enrollments and step runs (migration 0064, ADR 0021 amendment): a row with no step carries
 * enrollments (all, and by status), a step's row its runs with a message (`sent`) and those a person opened or
 * clicked. Read and folded by the report (automation-report.ts), so a poll sums a few rows instead of reading the
 * automation's history.
 */
export const automationReportDeltas = pgTable(
  'automation_report_deltas',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    automationId: uuid('automation_id')
      .notNull()
      .references(() => automations.id, { onDelete: 'cascade' }),
    stepId: uuid('step_id').references(() => automationSteps.id, { onDelete: 'cascade' }),
    enrolled: integer('enrolled').notNull().default(0),
    active: integer('active').notNull().default(0),
    completed: integer('completed').notNull().default(0),
    exited: integer('exited').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    opened: integer('opened').notNull().default(0),
    clicked: integer('clicked').notNull().default(0),
  },
  (t) => [
    index('automation_report_deltas_automation_idx').on(t.automationId),
    index('automation_report_deltas_step_idx').on(t.stepId),
  ],
);

export type AutomationRow = typeof automations.$inferSelect;
export type AutomationStepRow = typeof automationSteps.$inferSelect;
