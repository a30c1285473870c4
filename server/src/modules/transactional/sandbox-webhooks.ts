import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { asDb, queryRows } from '../../db/database';
import type { PeriodicJob } from '../../jobs/periodic-jobs';
import { emitWebhookEvent } from '../webhooks/emit-event';

/** A test key's accepted message (or copy), as its webhook tells it. */
export interface SandboxDelivery {
  accountId: string;
  messageId: string;
  /** The account's transactional stream. */
  campaignId: string;
  email: string;
  tags: string[];
  metadata: Record<string, string>;
  /** When a live message would have gone: at acceptance, or at its sendAt. */
  sentAt: string;
}

/**
 * What a live send would tell the account's webhooks, for a test key's message: one `message.delivered` marked
 * `test: true` — nothing was delivered (ADR 0035). Pass the caller's transaction to make it part of it.
 */
export async function emitSandboxDelivered(db: Db, delivery: SandboxDelivery): Promise<void> {
  await emitWebhookEvent(db, delivery.accountId, 'message.delivered', {
    messageId: delivery.messageId,
    campaignId: delivery.campaignId,
    contactId: null,
    email: delivery.email,
    tags: delivery.tags,
    metadata: delivery.metadata,
    sentAt: delivery.sentAt,
    test: true,
  });
}

/** Scheduled test messages whose time came this long ago at most are still announced (a worker down for a while). */
const SANDBOX_DUE_WINDOW = '1 day';
const SANDBOX_BATCH = 500;

/**
 * A test key's scheduled messages whose sendAt has come: each gets its `message.delivered` (test) webhook event now,
 * as a live one would when the engine delivers it at sendAt; marked (`sandbox_notified_at`) in the same
 * transaction, so each is announced once, and locked SKIP LOCKED, so several workers share the work. Returns how
 * many were announced.
 */
export async function announceDueSandboxMessages(db: Db, now = new Date()): Promise<number> {
  return db.transaction(async (tx) => {
    const t = asDb(tx);
    const due = await queryRows<{
      message_id: number | string;
      account_id: string;
      campaign_id: string;
      email: string;
      tags: string[] | null;
      metadata: Record<string, string> | string | null;
      send_at: string;
    }>(
      t,
      sql`select tm.message_id, m.account_id, m.campaign_id, m.email, tm.tags, tm.metadata,
                 to_char(tm.send_at at time zone 'utc', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as send_at
            from transactional_messages tm
            join messages m on m.id = tm.message_id
           where tm.send_at is not null
             and tm.send_at <= ${now.toISOString()}::timestamptz
             and tm.send_at > ${now.toISOString()}::timestamptz - ${SANDBOX_DUE_WINDOW}::interval
             and tm.sandbox_notified_at is null and tm.cancelled_at is null
             and m.skip_reason = 'sandbox'
           order by tm.send_at
           limit ${SANDBOX_BATCH}
             for update of tm skip locked`,
    );
    for (const row of due) {
      await emitSandboxDelivered(t, {
        accountId: row.account_id,
        messageId: String(row.message_id),
        campaignId: row.campaign_id,
        email: row.email,
        tags: row.tags ?? [],
        metadata: (typeof row.metadata === 'string' ? JSON.parse(row.metadata) : row.metadata) ?? {},
        sentAt: row.send_at,
      });
    }
    if (due.length > 0) {
      await queryRows(
        t,
        sql`update transactional_messages set sandbox_notified_at = ${now.toISOString()}::timestamptz
             where message_id = any(${`{${due.map((r) => r.message_id).join(',')}}`}::bigint[])`,
      );
    }
    return due.length;
  });
}

/** The periodic job of announceDueSandboxMessages (worker role, ADR 0034). */
export function sandboxScheduledJob(db: Db, everyMs = 5_000): PeriodicJob {
  return { name: 'transactional.sandbox-scheduled', everyMs, run: (now) => announceDueSandboxMessages(db, now) };
}
