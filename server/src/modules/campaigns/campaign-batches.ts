import type { SkipReason } from '@carteiro/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { prebuildStatement, queryPrebuilt, queryRows } from '../../db/database';
import { audienceLists } from '../contacts/count-recipients';
import { ineligibilityReasonSql } from '../contacts/recipient-eligibility';
import { carveBatchSql, claimDueBatchSql } from '../sending/message-queue';
import { campaignAudience } from './campaign-audience';
import { campaigns } from './campaigns.db';

/**
 * The campaigns in status sending, asked on every tick of every worker (an idle one ticks every pollMs): its text
 * built once per process, not through drizzle's query builder on each tick (~100 µs of the worker's CPU per tick in
 * bench:api's profile, more than the query itself).
 */
const SENDING_CAMPAIGNS = prebuildStatement(
  'campaign_batches_sending_campaigns',
  {},
  () => sql`select ${campaigns.id} as id from ${campaigns} where ${campaigns.status} = 'sending'`,
);

/** A batch this worker holds (message_batches row, status sending) and its messages due now. */
export interface ClaimedBatch {
  id: number;
  firstMessageId: number;
  lastMessageId: number;
  messages: ClaimedMessage[];
}

export interface ClaimedMessage {
  id: number;
  email: string;
  token: string;
  attempts: number;
  /** The message row's created_at, ms since the epoch (the retry window starts there). */
  created_ms: number;
  name: string | null;
  fields: Record<string, unknown> | null;
  /** Why the recipient may no longer receive it (the eligibility rule, asked again at the claim); null: send it. */
  skip_reason: SkipReason | null;
  /** A/B test variant (0 = the campaign as written); null for a normal campaign. */
  variant: number | null;
}

type AudienceLists = ReturnType<typeof audienceLists>;

/**
 * The campaign claim source of the delivery pipeline: a batch of one campaign in status sending — a queued one
 * whose retry is due (FOR UPDATE SKIP LOCKED), else the next batch carved from the campaign's cursor
 * (`campaign_sends.next_message_id`) under its row lock, so any number of workers share a campaign without
 * overlap — with its messages due now and the eligibility rule asked again for each.
 */
export class CampaignBatches {
  private readonly lists = new Map<string, Promise<AudienceLists>>();

  constructor(
    private readonly db: Db,
    private readonly workerId: string,
    private readonly batchSize: number,
  ) {}

  /** The campaigns in status sending: the ones the lanes claim from. */
  async sendingCampaigns(): Promise<string[]> {
    const rows = await queryPrebuilt<{ id: string }, Record<string, never>>(
      this.db,
      SENDING_CAMPAIGNS,
      {},
      {
        named: true,
      },
    );
    return rows.map((row) => row.id);
  }

  /** Drops what is cached about a finished campaign. */
  forget(campaignId: string): void {
    this.lists.delete(campaignId);
  }

  /** A queued batch whose retry is due, else a new batch carved from the cursor; null when none is left. */
  async claim(campaignId: string): Promise<ClaimedBatch | null> {
    const lists = await this.audienceLists(campaignId);
    return (await this.claimQueuedBatch(campaignId, lists)) ?? (await this.carveBatch(campaignId, lists));
  }

  /** The campaign's audience lists as the eligibility rule reads them (fixed once sending started; cached). */
  private audienceLists(campaignId: string): Promise<AudienceLists> {
    let lists = this.lists.get(campaignId);
    if (!lists) {
      lists = (async () => {
        const [row] = await this.db.select().from(campaigns).where(eq(campaigns.id, campaignId));
        if (!row) throw new Error(`campaign ${campaignId} not found`);
        return audienceLists(await campaignAudience(this.db, row.createdBy, row));
      })();
      lists.catch(() => this.lists.delete(campaignId));
      this.lists.set(campaignId, lists);
    }
    return lists;
  }

  /** Retries and expired leases: the oldest due queued batch no other worker holds. */
  private claimQueuedBatch(campaignId: string, lists: AudienceLists): Promise<ClaimedBatch | null> {
    return this.readBatch(
      campaignId,
      lists,
      sql`batch as (${claimDueBatchSql({
        streamId: campaignId,
        workerId: this.workerId,
        onlyIf: sql`exists (select 1 from campaigns c where c.id = ${campaignId} and c.status = 'sending')`,
      })})`,
    );
  }

  /**
   * The next batchSize message ids of the snapshot, from campaign_sends.next_message_id: pure arithmetic on the
   * cursor, no scan (a snapshot is one INSERT, so its ids are one ascending run; ids of another campaign's
   * concurrent snapshot inside the range only make the batch smaller). The cursor row is locked for the
   * statement: a concurrent carve waits, then reads the advanced cursor (READ COMMITTED re-reads a row it
   * waited for), so ranges never overlap; a cancel moves the cursor past the end.
   */
  private carveBatch(campaignId: string, lists: AudienceLists): Promise<ClaimedBatch | null> {
    return this.readBatch(
      campaignId,
      lists,
      sql`cursor as (
            select cs.next_message_id as first_id,
                   least(cs.next_message_id + ${this.batchSize - 1}, cs.last_message_id) as last_id
              from campaign_sends cs
             where cs.campaign_id = ${campaignId} and cs.next_message_id <= cs.last_message_id
               and exists (select 1 from campaigns c where c.id = ${campaignId} and c.status = 'sending')
               for update of cs),
          advanced as (
            update campaign_sends cs set next_message_id = cursor.last_id + 1
              from cursor
             where cs.campaign_id = ${campaignId}
            returning cs.campaign_id),
          batch as (${carveBatchSql({
            streamId: campaignId,
            workerId: this.workerId,
            from: sql`cursor, advanced`,
            firstId: sql`cursor.first_id`,
            lastId: sql`cursor.last_id`,
          })})`,
    );
  }

  /**
   * Runs a claim (the CTE named `batch`) and reads the batch's messages that are due: the contact is re-read
   * here, so personalisation uses current data, and the eligibility rule the snapshot applied is asked again, so a
   * recipient who stopped being eligible since (unsubscribed, suppressed, deleted, left the lists) is skipped with
   * its reason. A batch with no message due comes back with an empty list (it is released by record()).
   */
  private async readBatch(campaignId: string, lists: AudienceLists, claim: SQL): Promise<ClaimedBatch | null> {
    const rows = await queryRows<ClaimedMessage & { batch_id: number; first_id: number; last_id: number }>(
      this.db,
      sql`with ${claim}
          select batch.id as batch_id, batch.first_message_id as first_id, batch.last_message_id as last_id,
                 m.id, m.email, m.token, m.attempts, m.variant,
                 (extract(epoch from m.created_at) * 1000)::float8 as created_ms, ct.name, ct.fields,
                 ${ineligibilityReasonSql({
                   accountId: sql`m.account_id`,
                   email: sql`m.email`,
                   contact: 'ct',
                   stream: 'marketing',
                   lists,
                 })} as skip_reason
            from batch
            left join lateral (
                 select m.id, m.email, m.token, m.attempts, m.created_at, m.contact_id, m.account_id, m.variant
                   from messages m
                  where m.id between batch.first_message_id and batch.last_message_id and m.campaign_id = ${campaignId}
                    and m.status = 'queued' and m.next_attempt_at <= now()) m on true
            -- LIMIT keeps each lookup a per-message index probe: joined freely, the planner hashed the whole
            -- account's contacts and memberships for every batch (EXPLAIN: 10.7 ms per 500 at 20k contacts).
            left join lateral (
                 select ct.id, ct.name, ct.fields, ct.status from contacts ct where ct.id = m.contact_id limit 1) ct on true
           order by m.id`,
    );
    const first = rows[0];
    if (!first) return null;
    const messages: ClaimedMessage[] = [];
    // bigint ids arrive as number (pg) or bigint/string (PGlite): one type from here on.
    for (const row of rows) {
      if (row.id === null) continue;
      row.id = Number(row.id);
      row.attempts = Number(row.attempts);
      row.created_ms = Number(row.created_ms);
      row.variant = row.variant === null || row.variant === undefined ? null : Number(row.variant);
      messages.push(row);
    }
    return {
      id: Number(first.batch_id),
      firstMessageId: Number(first.first_id),
      lastMessageId: Number(first.last_id),
      messages,
    };
  }
}
