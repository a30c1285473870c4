import type { SQL } from 'drizzle-orm';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { campaignUniqueMessagesSql, REPORT_CLASS } from '../reports/report-classes';
import { engagementOutboxCte } from '../webhooks/emit-event';

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

export interface EventRecorderOptions {
  logger: Logger;
  /**
   * Writes a campaign's opened and clicked counters from tracking's recounts: the campaigns module's writer, passed
   * in by buildApp (tracking sits below campaigns, which builds tracked messages).
   */
  writeEngagementCounters(db: Db, campaignId: string, counts: { opened: SQL; clicked: SQL }): Promise<void>;
  /** A batch is written this long after its first event (TRACKING_FLUSH_MS). */
  flushMs?: number;
  /** …or as soon as it holds this many events. */
  maxBatch?: number;
  /** Events waiting (queued + being written) beyond which new ones are dropped: the database is not keeping up. */
  maxPending?: number;
  machineWindowSeconds?: number;
  counterMs?: number;
}

const DEFAULT_FLUSH_MS = 200;
const DEFAULT_MAX_BATCH = 2000;
const DEFAULT_MAX_PENDING = 200_000;
const USER_AGENT_MAX = 512;

/** One element of a PostgreSQL text[] literal, quoted (the fast path skips the regex: tokens, ips, numbers). */
function element(value: string): string {
  return value.indexOf('"') === -1 && value.indexOf('\\') === -1
    ? `"${value}"`
    : `"${value.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
}

/**
 * A batch being collected, already encoded as the bodies of one text[] literal per column: each event costs a
 * few string appends when it is recorded, so a flush does not stall the event loop serialising thousands of
 * rows at once (that stall is what the requests queued behind it would see as tail latency).
 */
class Batch {
  size = 0;
  token = '';
  kind = '';
  link = '';
  machine = '';
  nonBrowser = '';
  userAgent = '';
  ip = '';
  at = '';

  add(e: PendingEvent): void {
    const sep = this.size === 0 ? '' : ',';
    this.token += sep + element(e.messageToken);
    this.kind += sep + e.kind;
    this.link += sep + (e.linkId === null ? 'NULL' : String(e.linkId));
    this.machine += sep + (e.machine ? 't' : 'f');
    this.nonBrowser += sep + (e.nonBrowser ? 't' : 'f');
    this.userAgent +=
      sep + element(e.userAgent.length > USER_AGENT_MAX ? e.userAgent.slice(0, USER_AGENT_MAX) : e.userAgent);
    this.ip += sep + element(e.ip);
    this.at += sep + String(e.at.getTime());
    this.size++;
  }
}

const array = (body: string) => `{${body}}`;

/**
 * Opens and clicks are answered at once and written in batches: the pixel and the redirect only append the
 * event to the current batch in memory; one INSERT … SELECT per batch (every `flushMs`, or at `maxBatch`
 * events) joins the messages by token (unique index), keeps a click only when its link belongs to the
 * message's campaign, and inserts in arrival order (ids follow time). Batches are written one after another
 * (never two INSERTs of this process at once); when the database falls `maxPending` events behind, new events
 * are dropped and counted (tracking is best-effort: the redirect and the pixel never wait for the database).
 * A write failure is logged and its batch dropped. close() — on the app's onClose, i.e. after the HTTP server
 * stopped taking requests — writes what is left. Campaign counters (opened_count, clicked_count: unique human
 * messages) are recounted at most every `counterMs` (longer for campaigns with very many events), and at close.
 */
export class EventRecorder {
  private batch = new Batch();
  private timer: NodeJS.Timeout | null = null;
  private writing: Promise<void> = Promise.resolve();
  /** Events handed to a write that has not finished yet. */
  private inFlight = 0;
  private readonly dirtyCampaigns = new Set<string>();
  private counterTimer: NodeJS.Timeout | null = null;
  private lastRefreshMs = 0;
  private closed = false;
  private droppedSinceWarning = 0;
  private lastDropWarning = 0;
  /** Totals since start (tests, diagnostics). */
  readonly stats = { recorded: 0, written: 0, dropped: 0, failedBatches: 0 };

  constructor(
    private readonly db: Db,
    private readonly options: EventRecorderOptions,
  ) {}

  /** Events accepted and not yet written. */
  get pending(): number {
    return this.batch.size + this.inFlight;
  }

  record(event: PendingEvent): void {
    if (this.closed) return;
    if (this.pending >= (this.options.maxPending ?? DEFAULT_MAX_PENDING)) {
      this.dropped();
      return;
    }
    this.batch.add(event);
    this.stats.recorded++;
    if (this.batch.size >= (this.options.maxBatch ?? DEFAULT_MAX_BATCH)) void this.flush();
    else if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.options.flushMs ?? DEFAULT_FLUSH_MS);
      this.timer.unref();
    }
  }

  /** Writes everything recorded so far; resolves when it is in the database (or its write failed and was logged). */
  flush(): Promise<void> {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
    const batch = this.batch;
    if (batch.size > 0) {
      this.batch = new Batch();
      this.inFlight += batch.size;
      this.writing = this.writing.then(() => this.write(batch));
    }
    return this.writing;
  }

  /** Stops accepting events, writes the last batch and refreshes the counters. Safe to call twice. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    await this.flush(); // anything recorded while the first flush was being written
    if (this.counterTimer) clearTimeout(this.counterTimer);
    this.counterTimer = null;
    await this.refreshCounters();
  }

  private dropped(): void {
    this.stats.dropped++;
    this.droppedSinceWarning++;
    const now = Date.now();
    if (now - this.lastDropWarning >= 10_000) {
      this.options.logger.warn(
        { dropped: this.droppedSinceWarning, pending: this.pending },
        'tracking: the database is not keeping up, events dropped',
      );
      this.lastDropWarning = now;
      this.droppedSinceWarning = 0;
    }
  }

  private async write(batch: Batch): Promise<void> {
    const window = this.options.machineWindowSeconds ?? 3;
    try {
      const rows = await queryRows<{ campaign_id: string }>(
        this.db,
        sql`with ins as (
              insert into message_events (message_id, campaign_id, account_id, contact_id, kind, machine, link_id,
                                          user_agent, ip, created_at)
              select m.id, m.campaign_id, m.account_id, m.contact_id, v.kind,
                     v.machine or (v.non_browser and m.sent_at is not null
                                   and v.at < m.sent_at + make_interval(secs => ${window})),
                     l.id, nullif(v.ua, ''), v.ip, v.at
                from (select u.n, u.token, u.kind, u.link::int as link, u.machine::boolean as machine,
                             u.non_browser::boolean as non_browser, u.ua, u.ip,
                             to_timestamp(u.at::bigint / 1000.0) as at
                        from unnest(${array(batch.token)}::text[], ${array(batch.kind)}::text[],
                                    ${array(batch.link)}::text[], ${array(batch.machine)}::text[],
                                    ${array(batch.nonBrowser)}::text[], ${array(batch.userAgent)}::text[],
                                    ${array(batch.ip)}::text[], ${array(batch.at)}::text[])
                             with ordinality as u(token, kind, link, machine, non_browser, ua, ip, at, n)) v
                -- lateral … limit 1: one index probe per event (messages_token_idx, the links' primary key)
                -- whatever the batch size; a plain join lets the planner hash the whole messages table
                -- once a batch has a few thousand rows.
                cross join lateral (select id, campaign_id, account_id, contact_id, sent_at from messages
                                     where token = v.token limit 1) m
                left join lateral (select id from campaign_links
                                    where id = v.link and campaign_id = m.campaign_id limit 1) l on true
               where v.kind = 'open' or l.id is not null
               order by v.n
              returning campaign_id, message_id, account_id, kind, machine, link_id),
            -- Outbound webhooks: message.opened / message.clicked into the outbox, same statement.
            ${engagementOutboxCte()}
            select distinct campaign_id from ins`,
      );
      for (const row of rows) this.dirtyCampaigns.add(row.campaign_id);
      this.stats.written += batch.size;
      this.scheduleCounters();
    } catch (error) {
      this.stats.failedBatches++;
      this.options.logger.error({ err: error, events: batch.size }, 'tracking: could not write events');
    } finally {
      this.inFlight -= batch.size;
    }
  }

  private scheduleCounters(): void {
    if (this.counterTimer || this.dirtyCampaigns.size === 0 || this.closed) return;
    // Should a recount ever be slow, it runs less often, so that it never takes more than ~5% of the time (20 × its
    // last duration between two runs).
    const delay = Math.max(this.options.counterMs ?? 5_000, 20 * this.lastRefreshMs);
    this.counterTimer = setTimeout(() => {
      this.counterTimer = null;
      void this.refreshCounters();
    }, delay);
    this.counterTimer.unref();
  }

  /** campaigns.opened_count / clicked_count = messages with a human open / click (the report's unique counts). */
  async refreshCounters(): Promise<void> {
    const ids = [...this.dirtyCampaigns];
    this.dirtyCampaigns.clear();
    const started = performance.now();
    for (const id of ids) {
      try {
        await refreshCampaignEngagementCounters(this.db, id, this.options.writeEngagementCounters);
      } catch (error) {
        this.options.logger.warn({ err: error, campaignId: id }, 'tracking: could not refresh counters');
      }
    }
    this.lastRefreshMs = performance.now() - started;
  }
}

async function refreshCampaignEngagementCounters(
  db: Db,
  campaignId: string,
  writeEngagementCounters: EventRecorderOptions['writeEngagementCounters'],
): Promise<void> {
  // The report rollup's unique counts (reports/report-classes.ts): a few rows per hour of the campaign, so the
  // recount stays cheap however many events the campaign has.
  await writeEngagementCounters(db, campaignId, {
    opened: campaignUniqueMessagesSql(sql`${campaignId}::uuid`, REPORT_CLASS.humanOpen),
    clicked: campaignUniqueMessagesSql(sql`${campaignId}::uuid`, REPORT_CLASS.humanClick),
  });
}
