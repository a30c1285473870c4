import {
  type AbTestConfig,
  abVariantLetter,
  type CampaignReport,
  type ContactActivity,
  type DashboardStats,
  DEFAULT_TIME_ZONE,
  isSkipReason,
  type RecipientPage,
  skipReasonLabel,
} from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { notFound } from '../../http/not-found';
import { abTestReport } from './ab-report';
import { BOUNCE_CLASS_PREFIX, DELIVERED_CLASS, LINK_CLASS_PREFIX, REPORT_CLASS } from './report-classes';

export type { CampaignReport };

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function assertCampaign(db: Db, accountId: string, campaignId: string): Promise<{ name: string; ab: boolean }> {
  if (!UUID_RE.test(campaignId)) throw notFound('campaign');
  const [row] = await queryRows<{ name: string; ab: boolean }>(
    db,
    sql`select name, ab_test is not null as ab from campaigns where id = ${campaignId} and created_by = ${accountId}`,
  );
  if (!row) throw notFound('campaign');
  return row;
}

const n = (v: unknown) => Number(v ?? 0);

/** campaigns.skipped_by_reason as read (jsonb: an object on pg, a string on some drivers), known codes only. */
function skipCounts(value: CampaignReport['skippedByReason'] | string | undefined): CampaignReport['skippedByReason'] {
  const parsed = typeof value === 'string' ? (JSON.parse(value) as Record<string, unknown>) : (value ?? {});
  const counts: CampaignReport['skippedByReason'] = {};
  for (const [reason, count] of Object.entries(parsed)) if (isSkipReason(reason)) counts[reason] = Number(count);
  return counts;
}

/** What a campaign report counts of its message events (the rest comes from the campaign's counters). */
export interface CampaignEventCounts {
  /** Messages with at least one human open; machine opens and every open as events. */
  humanOpens: number;
  machineOpens: number;
  totalOpens: number;
  /** Messages with at least one human click; machine clicks and every click as events. */
  uniqueClicks: number;
  machineClicks: number;
  totalClicks: number;
  /** Messages unsubscribed, bounced (asynchronous reports, by kind) and complained about. */
  unsubscribes: number;
  bounces: { hard: number; soft: number; policy: number };
  complaints: number;
  /** Every tracked link of the campaign: human clicks and messages that clicked it, most clicked first. */
  links: CampaignReport['links'];
  /** Per UTC hour with any event: human opens and clicks, unsubscribes, bounces, complaints (events). */
  series: CampaignReport['series'];
}

/**
 * A campaign's event counts from its rollup (reports.db.ts): the classes' totals over the hours, and the series
 * by hour — reads of the campaign's hours × classes rows, however many events the campaign has.
 */
export async function campaignEventCounts(db: Db, campaignId: string): Promise<CampaignEventCounts> {
  const classes = await queryRows<{ class: string; events: string | number; uniques: string | number }>(
    db,
    sql`select class, sum(events) as events, sum(uniques) as uniques
          from campaign_report_counts where campaign_id = ${campaignId}
         group by class`,
  );
  const linkRows = await queryRows<{ id: number; url: string }>(
    db,
    sql`select id, url from campaign_links where campaign_id = ${campaignId}`,
  );
  const series = await queryRows<Record<string, unknown>>(
    db,
    sql`select to_char(hour at time zone 'UTC', 'YYYY-MM-DD"T"HH24":00:00Z"') as hour,
               coalesce(sum(events) filter (where class = ${REPORT_CLASS.humanOpen}), 0) as opens,
               coalesce(sum(events) filter (where class = ${REPORT_CLASS.humanClick}), 0) as clicks,
               coalesce(sum(events) filter (where class = ${REPORT_CLASS.unsubscribe}), 0) as unsubscribes,
               coalesce(sum(events) filter (where starts_with(class, ${BOUNCE_CLASS_PREFIX})), 0) as bounces,
               coalesce(sum(events) filter (where class = ${REPORT_CLASS.complaint}), 0) as complaints
          from campaign_report_counts where campaign_id = ${campaignId} and class <> ${DELIVERED_CLASS}
         group by hour order by hour`,
  );
  const byClass = new Map(classes.map((c) => [c.class, { events: n(c.events), uniques: n(c.uniques) }]));
  const events = (cls: string) => byClass.get(cls)?.events ?? 0;
  const uniques = (cls: string) => byClass.get(cls)?.uniques ?? 0;
  const links = linkRows
    .map((l) => {
      const id = Number(l.id);
      return {
        id,
        url: l.url,
        clicks: events(`${LINK_CLASS_PREFIX}${id}`),
        uniqueClicks: uniques(`${LINK_CLASS_PREFIX}${id}`),
      };
    })
    .sort((a, b) => b.clicks - a.clicks || a.id - b.id);
  return {
    humanOpens: uniques(REPORT_CLASS.humanOpen),
    machineOpens: events(REPORT_CLASS.machineOpen),
    totalOpens: events(REPORT_CLASS.humanOpen) + events(REPORT_CLASS.machineOpen),
    uniqueClicks: uniques(REPORT_CLASS.humanClick),
    machineClicks: events(REPORT_CLASS.machineClick),
    totalClicks: events(REPORT_CLASS.humanClick) + events(REPORT_CLASS.machineClick),
    unsubscribes: uniques(REPORT_CLASS.unsubscribe),
    bounces: {
      hard: uniques(REPORT_CLASS.hardBounce),
      soft: uniques(REPORT_CLASS.softBounce),
      policy: uniques(REPORT_CLASS.policyBounce),
    },
    complaints: uniques(REPORT_CLASS.complaint),
    links,
    series: series.map((s) => ({
      hour: String(s.hour),
      opens: n(s.opens),
      clicks: n(s.clicks),
      unsubscribes: n(s.unsubscribes),
      bounces: n(s.bounces),
      complaints: n(s.complaints),
    })),
  };
}

/**
 * A campaign's results: messages by status, unique human opens (machine opens apart), unique clicks and per
 * link, unsubscribes, bounces by kind (asynchronous DSN/provider bounces plus synchronous 5xx refusals),
 * complaints, and an hourly series for the charts. Rates are over delivered messages.
 */
export async function campaignReport(db: Db, accountId: string, campaignId: string): Promise<CampaignReport> {
  await assertCampaign(db, accountId, campaignId);
  // Messages by outcome from the campaign's counters, which the engine keeps equal to the rows (a count over
  // the campaign's message rows would read a million rows on every refresh of a big send).
  const [m] = await queryRows<
    Record<string, number> & { skipped_by_reason: CampaignReport['skippedByReason'] | string }
  >(
    db,
    sql`select coalesce(cs.recipients, c.recipients_count) as recipients, c.sent_count as delivered,
               c.failed_count as failed, c.skipped_count as skipped, c.skipped_by_reason,
               case when cs.campaign_id is null then 0
                    else greatest(cs.recipients - c.sent_count - c.failed_count - c.skipped_count, 0) end as pending,
               c.rejected_count as sync_hard, c.policy_rejected_count as sync_policy
          from campaigns c left join campaign_sends cs on cs.campaign_id = c.id
         where c.id = ${campaignId}`,
  );
  const e = await campaignEventCounts(db, campaignId);
  const [paused] = await queryRows<{ paused_reason: string | null }>(
    db,
    sql`select paused_reason from campaign_sends where campaign_id = ${campaignId}`,
  );
  const [campaign] = await queryRows<{ subject: string; from_name: string | null; ab_test: AbTestConfig | null }>(
    db,
    sql`select subject, from_name, ab_test from campaigns where id = ${campaignId}`,
  );
  const abTest = campaign?.ab_test
    ? await abTestReport(db, {
        id: campaignId,
        subject: campaign.subject,
        fromName: campaign.from_name,
        abTest: campaign.ab_test,
      })
    : null;
  const delivered = n(m?.delivered);
  const rate = (x: number, of: number) => (of > 0 ? Math.round((x / of) * 10_000) / 10_000 : 0);
  return {
    campaignId,
    recipients: n(m?.recipients),
    delivered,
    failed: n(m?.failed),
    skipped: n(m?.skipped),
    skippedByReason: skipCounts(m?.skipped_by_reason),
    pending: n(m?.pending),
    opens: {
      uniqueHuman: e.humanOpens,
      machine: e.machineOpens,
      total: e.totalOpens,
      rate: rate(e.humanOpens, delivered),
    },
    clicks: {
      unique: e.uniqueClicks,
      machine: e.machineClicks,
      total: e.totalClicks,
      rate: rate(e.uniqueClicks, delivered),
      clickToOpenRate: rate(e.uniqueClicks, e.humanOpens),
    },
    links: e.links,
    unsubscribes: e.unsubscribes,
    bounces: {
      hard: e.bounces.hard + n(m?.sync_hard),
      soft: e.bounces.soft,
      policy: e.bounces.policy + n(m?.sync_policy),
    },
    complaints: e.complaints,
    pausedReason: paused?.paused_reason ?? null,
    abTest,
    series: e.series,
  };
}

/** Per-recipient activity, e-mail prefix search, keyset by message id (cursor = last id). */
export async function campaignRecipients(
  db: Db,
  accountId: string,
  campaignId: string,
  options: { search?: string; cursor?: number; limit?: number },
): Promise<RecipientPage> {
  await assertCampaign(db, accountId, campaignId);
  const limit = Math.min(Math.max(options.limit ?? 50, 1), 10_000);
  const search = (options.search ?? '').trim().toLowerCase();
  const rows = await queryRows<Record<string, unknown>>(
    db,
    sql`select m.id, m.contact_id, m.email, m.status, m.sent_at, m.variant, m.skip_reason, e.*
          -- The page's messages first, then the events of each message by one probe of the events index (an
          -- aggregate in a LATERAL subquery runs per message whatever the statistics): a join of the messages
          -- with the events let the planner merge-join by walking the events of every earlier message (47 s for
          -- a 5,000-row page at 2M recipients), so a CSV export grew with the square of the campaign.
          from (select id, contact_id, email, status, sent_at, variant, skip_reason from messages m
                 where m.campaign_id = ${campaignId}
                   ${search ? sql`and m.email like ${`%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}` : sql``}
                   ${options.cursor ? sql`and m.id > ${options.cursor}` : sql``}
                 order by m.id limit ${limit + 1}) m
          cross join lateral (
            select count(*) filter (where e.kind = 'open' and not e.machine)::int as opens,
                   count(*) filter (where e.kind = 'click' and not e.machine)::int as clicks,
                   max(e.created_at) filter (where e.kind = 'open' and not e.machine) as last_open_at,
                   max(e.created_at) filter (where e.kind = 'click' and not e.machine) as last_click_at,
                   bool_or(e.kind = 'unsubscribe') as unsubscribed,
                   max(e.bounce_kind) filter (where e.kind = 'bounce') as bounce,
                   bool_or(e.kind = 'complaint') as complained
              from message_events e where e.message_id = m.id) e
         order by m.id`,
  );
  const items = rows.slice(0, limit).map((r) => ({
    messageId: Number(r.id),
    contactId: (r.contact_id as string | null) ?? null,
    email: String(r.email),
    status: String(r.status),
    sentAt: r.sent_at ? new Date(r.sent_at as string).toISOString() : null,
    opens: n(r.opens),
    clicks: n(r.clicks),
    lastOpenAt: r.last_open_at ? new Date(r.last_open_at as string).toISOString() : null,
    lastClickAt: r.last_click_at ? new Date(r.last_click_at as string).toISOString() : null,
    unsubscribed: Boolean(r.unsubscribed),
    bounce: (r.bounce as string | null) ?? null,
    complained: Boolean(r.complained),
    skipReason: isSkipReason(r.skip_reason) ? r.skip_reason : null,
    variant: r.variant === null || r.variant === undefined ? null : abVariantLetter(Number(r.variant)),
  }));
  const last = items[items.length - 1];
  return { items, nextCursor: rows.length > limit && last ? String(last.messageId) : null };
}

const STATUS_PT: Record<string, string> = {
  queued: 'na fila',
  sending: 'enviando',
  sent: 'entregue',
  failed: 'falhou',
  skipped: 'ignorada',
};

/** The per-recipient export's columns, in pt-BR like the other exports (contacts, extrato). */
export const REPORT_CSV_HEADER = [
  'E-mail',
  'Situação',
  'Enviada em',
  'Aberturas',
  'Cliques',
  'Última abertura',
  'Último clique',
  'Descadastrou',
  'Devolução',
  'Reclamação',
  'Motivo de não envio',
] as const;

const LOCAL_TIME = new Intl.DateTimeFormat('pt-BR', {
  timeZone: DEFAULT_TIME_ZONE,
  day: '2-digit',
  month: '2-digit',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** "25/11/2026 14:03:00" in São Paulo time (the comma Intl puts after the date would make a spreadsheet read text). */
function localTime(iso: string | null): string {
  return iso ? LOCAL_TIME.format(new Date(iso)).replace(', ', ' ') : '';
}

/** A file name a person recognises: the campaign's name in plain letters and the day it was exported. */
export function reportCsvFileName(campaignName: string, now = new Date()): string {
  const slug = campaignName
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: DEFAULT_TIME_ZONE }).format(now);
  return `relatorio-${slug || 'campanha'}-${day}.csv`;
}

function csvCell(value: string): string {
  // Spreadsheet formula injection: a leading = + - @ is neutralised.
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[";\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/**
 * The per-recipient report as CSV (`;`-separated, UTF-8 with BOM, like the contacts export): the campaign is
 * checked first (another account's → 404), then the rows are streamed page by page (keyset, 5,000 recipients per
 * query), so memory stays flat however many recipients — at ten million the whole file would be ~1.5 GB.
 */
export async function campaignReportCsv(
  db: Db,
  accountId: string,
  campaignId: string,
): Promise<{ name: string; rows: AsyncGenerator<string> }> {
  const campaign = await assertCampaign(db, accountId, campaignId);
  return { name: campaign.name, rows: reportCsvRows(db, accountId, campaignId, campaign.ab) };
}

async function* reportCsvRows(db: Db, accountId: string, campaignId: string, ab: boolean): AsyncGenerator<string> {
  // An A/B campaign's export also says which variant each recipient got (a last column, so the normal export's
  // columns stay as they are).
  yield `\ufeff${[...REPORT_CSV_HEADER, ...(ab ? ['Variante'] : [])].join(';')}\r\n`;
  let cursor: number | undefined;
  for (;;) {
    const page = await campaignRecipients(db, accountId, campaignId, { cursor, limit: 5_000 });
    let chunk = '';
    for (const r of page.items) {
      chunk += `${[
        r.email,
        STATUS_PT[r.status] ?? r.status,
        localTime(r.sentAt),
        String(r.opens),
        String(r.clicks),
        localTime(r.lastOpenAt),
        localTime(r.lastClickAt),
        r.unsubscribed ? 'sim' : 'não',
        r.bounce ?? '',
        r.complained ? 'sim' : 'não',
        skipReasonLabel(r.skipReason),
        ...(ab ? [r.variant ?? ''] : []),
      ]
        .map(csvCell)
        .join(';')}\r\n`;
    }
    if (chunk) yield chunk;
    if (!page.nextCursor) return;
    cursor = Number(page.nextCursor);
  }
}

/** A contact's history across campaigns (newest first): what the contact detail page shows. */
export async function contactActivity(db: Db, accountId: string, contactId: string): Promise<ContactActivity> {
  if (!UUID_RE.test(contactId)) throw notFound('contact');
  const [contact] = await queryRows<{ id: string }>(
    db,
    sql`select id from contacts where id = ${contactId} and account_id = ${accountId}`,
  );
  if (!contact) throw notFound('contact');
  const messages = await queryRows<Record<string, unknown>>(
    db,
    // messages has no index on the contact: the contact's messages are one probe of (campaign, contact) per campaign
    // of the account — of the account's only, or the join read every campaign of the service (54 ms with 50k
    // campaigns of another account beside 20 of this one, 0.2 ms scoped: docs/benchmarks.md session 14).
    sql`select m.id, m.campaign_id, c.name as campaign_name, m.status, m.sent_at
          from messages m join campaigns c on c.id = m.campaign_id and c.created_by = ${accountId}
         where m.contact_id = ${contactId} and m.account_id = ${accountId}
         order by m.id desc limit 200`,
  );
  const events = await queryRows<Record<string, unknown>>(
    db,
    sql`select e.kind, e.machine, e.bounce_kind, e.detail, e.created_at, e.campaign_id, c.name as campaign_name, l.url
          from message_events e join campaigns c on c.id = e.campaign_id
          left join campaign_links l on l.id = e.link_id
         where e.contact_id = ${contactId} and e.account_id = ${accountId}
         order by e.created_at desc, e.id desc limit 500`,
  );
  return {
    messages: messages.map((r) => ({
      messageId: Number(r.id),
      campaignId: String(r.campaign_id),
      campaignName: String(r.campaign_name),
      status: String(r.status),
      sentAt: r.sent_at ? new Date(r.sent_at as string).toISOString() : null,
    })),
    events: events.map((r) => ({
      kind: String(r.kind),
      machine: Boolean(r.machine),
      bounceKind: (r.bounce_kind as string | null) ?? null,
      detail: (r.detail as string | null) ?? null,
      url: (r.url as string | null) ?? null,
      campaignId: String(r.campaign_id),
      campaignName: String(r.campaign_name),
      at: new Date(r.created_at as string).toISOString(),
    })),
  };
}

/**
 * Dashboard home: messages delivered this calendar month (UTC) and since the start, and the human open/click rates
 * over the messages delivered since the start of the previous month — from the rollup's hours of the account's
 * campaigns (deliveries, first human opens and clicks) and the campaigns' counters, so a home page reads rows per
 * campaign and hour, never the account's messages and events (at 100M events those reads took minutes and scanned
 * every account's rows: docs/benchmarks.md). A rate's numerator is the messages whose first human open (click)
 * fell in the window: for the messages delivered in it, the ones opened.
 */
export async function dashboardStats(db: Db, accountId: string): Promise<DashboardStats> {
  const [window] = await queryRows<{
    month: number | string;
    delivered: number | string;
    opened: number | string;
    clicked: number | string;
  }>(
    db,
    sql`select coalesce(sum(r.events) filter (where r.class = ${DELIVERED_CLASS}
                                                and r.hour >= date_trunc('month', now(), 'UTC')), 0) as month,
               coalesce(sum(r.events) filter (where r.class = ${DELIVERED_CLASS}), 0) as delivered,
               coalesce(sum(r.uniques) filter (where r.class = ${REPORT_CLASS.humanOpen}), 0) as opened,
               coalesce(sum(r.uniques) filter (where r.class = ${REPORT_CLASS.humanClick}), 0) as clicked
          from campaigns c
          join campaign_report_counts r
            on r.campaign_id = c.id
           and r.hour >= date_trunc('month', now(), 'UTC') - interval '1 month'
           and r.class in (${DELIVERED_CLASS}, ${REPORT_CLASS.humanOpen}, ${REPORT_CLASS.humanClick})
         where c.created_by = ${accountId}`,
  );
  // Every delivery since the start: the campaigns' counters, which the engine keeps equal to their message rows.
  const [sent] = await queryRows<{ total: number | string }>(
    db,
    sql`select coalesce(sum(sent_count), 0) as total from campaigns where created_by = ${accountId}`,
  );
  const delivered = n(window?.delivered);
  const rate = (x: number) => (delivered > 0 ? Math.round((x / delivered) * 10_000) / 10_000 : 0);
  return {
    sentThisMonth: n(window?.month),
    sentTotal: n(sent?.total),
    openRate: rate(n(window?.opened)),
    clickRate: rate(n(window?.clicked)),
    /** Rates cover messages delivered since the start of the previous month. */
    rateWindowDelivered: delivered,
  };
}
