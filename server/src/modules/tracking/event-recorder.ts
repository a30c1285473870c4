import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { pgTextArray } from '../imports/run-import';

export interface PendingEvent {
  messageToken: string;
  kind: 'open' | 'click';
  linkId: number | null;
  machine: boolean;
  nonBrowser: boolean;
  userAgent: string;
  ip: string;
  at: Date;
}

/**
 * Opens and clicks are answered at once and written in batches: one INSERT … SELECT per flush (every
 * `flushMs` or at `maxBatch` events), joining the message by its token (unique index) and checking that the
 * link belongs to the message's campaign. A flush failure is logged and the batch dropped (tracking is
 * best-effort; the redirect and the pixel never wait for the database). Campaign counters (opened_count,
 * clicked_count: unique human messages) are refreshed at most every `counterMs` per campaign.
 */
export class EventRecorder {
  private queue: PendingEvent[] = [];
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();
  private readonly dirtyCampaigns = new Set<string>();
  private counterTimer: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly db: Db,
    private readonly options: {
      logger: Logger;
      flushMs?: number;
      maxBatch?: number;
      machineWindowSeconds?: number;
      counterMs?: number;
    },
  ) {}

  record(event: PendingEvent): void {
    if (this.closed) return;
    this.queue.push(event);
    if (this.queue.length >= (this.options.maxBatch ?? 2000)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.flushMs ?? 200);
      this.timer.unref();
    }
  }

  /** Writes everything queued so far; resolves when it is in the database. */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.flushing.then(() => (batch.length > 0 ? this.write(batch) : undefined));
    return this.flushing;
  }

  /** Flushes, refreshes the counters, stops accepting events. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    if (this.counterTimer) clearTimeout(this.counterTimer);
    await this.refreshCounters();
  }

  private async write(batch: PendingEvent[]): Promise<void> {
    const window = this.options.machineWindowSeconds ?? 3;
    try {
      const rows = await queryRows<{ campaign_id: string }>(
        this.db,
        sql`insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, link_id,
                                        user_agent, ip, created_at)
            select m.id, m.campaign_id, m.account_id, m.contact_id, v.kind,
                   v.machine::boolean or (v.non_browser::boolean and m.sent_at is not null
                                          and v.at::timestamptz < m.sent_at + make_interval(secs => ${window})),
                   l.id, nullif(v.ua, ''), v.ip, v.at::timestamptz
              from unnest(${pgTextArray(batch.map((e) => e.messageToken))}::text[],
                          ${pgTextArray(batch.map((e) => e.kind))}::text[],
                          ${pgTextArray(batch.map((e) => (e.linkId === null ? null : String(e.linkId))))}::text[],
                          ${pgTextArray(batch.map((e) => (e.machine ? 't' : 'f')))}::text[],
                          ${pgTextArray(batch.map((e) => (e.nonBrowser ? 't' : 'f')))}::text[],
                          ${pgTextArray(batch.map((e) => e.userAgent.slice(0, 512)))}::text[],
                          ${pgTextArray(batch.map((e) => e.ip))}::text[],
                          ${pgTextArray(batch.map((e) => e.at.toISOString()))}::text[])
                   as v(token, kind, link, machine, non_browser, ua, ip, at)
              join messages m on m.token = v.token
              left join campaign_links l on l.id = v.link::int and l.campaign_id = m.campaign_id
             where v.kind = 'open' or l.id is not null
            returning campaign_id`,
      );
      for (const row of rows) this.dirtyCampaigns.add(row.campaign_id);
      this.scheduleCounters();
    } catch (error) {
      this.options.logger.error({ err: error, events: batch.length }, 'tracking: could not write events');
    }
  }

  private scheduleCounters(): void {
    if (this.counterTimer || this.dirtyCampaigns.size === 0 || this.closed) return;
    this.counterTimer = setTimeout(() => {
      this.counterTimer = null;
      void this.refreshCounters();
    }, this.options.counterMs ?? 5_000);
    this.counterTimer.unref();
  }

  /** campaigns.opened_count / clicked_count = distinct messages with a human open / click. */
  async refreshCounters(): Promise<void> {
    const ids = [...this.dirtyCampaigns];
    this.dirtyCampaigns.clear();
    for (const id of ids) {
      try {
        await refreshCampaignEngagementCounters(this.db, id);
      } catch (error) {
        this.options.logger.warn({ err: error, campaignId: id }, 'tracking: could not refresh counters');
      }
    }
  }
}

export async function refreshCampaignEngagementCounters(db: Db, campaignId: string): Promise<void> {
  await db.execute(
    sql`update campaigns set
          opened_count = (select count(distinct message_id) from message_events
                           where campaign_id = ${campaignId} and kind = 'open' and not machine),
          clicked_count = (select count(distinct message_id) from message_events
                            where campaign_id = ${campaignId} and kind = 'click' and not machine)
        where id = ${campaignId}`,
  );
}
