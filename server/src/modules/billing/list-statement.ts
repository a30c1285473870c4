import { DEFAULT_TIME_ZONE } from '@carteiro/shared';
import { and, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';
import { ledgerEntries } from './billing.db';
import type { LedgerEntry } from './ledger';

export interface StatementFilter {
  accountId: string;
  /** Inclusive dates (AAAA-MM-DD) in `timeZone`. */
  from?: string;
  to?: string;
  /** Entries with seq below this (the previous page's nextCursor). */
  cursor?: number;
  limit: number;
  timeZone?: string;
}

/** The account's ledger entries, newest first, each with its running balance; nextCursor null on the last page. */
export async function listStatement(
  db: Db,
  filter: StatementFilter,
): Promise<{ entries: LedgerEntry[]; nextCursor: number | null }> {
  const tz = filter.timeZone ?? DEFAULT_TIME_ZONE;
  const conditions: SQL[] = [eq(ledgerEntries.accountId, filter.accountId)];
  if (filter.from)
    conditions.push(gte(ledgerEntries.createdAt, sql`(${filter.from}::date)::timestamp at time zone ${tz}`));
  if (filter.to)
    conditions.push(lt(ledgerEntries.createdAt, sql`(${filter.to}::date + 1)::timestamp at time zone ${tz}`));
  if (filter.cursor) conditions.push(lt(ledgerEntries.seq, filter.cursor));
  const rows = await db
    .select()
    .from(ledgerEntries)
    .where(and(...conditions))
    .orderBy(desc(ledgerEntries.seq))
    .limit(filter.limit + 1);
  const entries = rows.slice(0, filter.limit);
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > filter.limit && last ? last.seq : null };
}

/** A line of the dashboard's extrato: one ledger entry, or every entry of one campaign send folded into one. */
export interface StatementLine extends LedgerEntry {
  /** The campaign's name (from the campaigns module's table, read only), null for lines without a campaign. */
  campaignName: string | null;
}

interface StatementLineRow {
  id: string;
  seq: string | number;
  account_id: string;
  amount_millis: string | number;
  kind: LedgerEntry['kind'];
  campaign_id: string | null;
  topup_id: string | null;
  refund_id: string | null;
  operator_user_id: string | null;
  email_count: number | null;
  price_millis: number | null;
  description: string;
  balance_after_millis: string | number;
  created_at: string | Date;
  campaign_name: string | null;
}

/** The kinds of ledger entry a campaign's line folds: at most one of each per campaign (unique partial indexes). */
const CAMPAIGN_LINE_KINDS = ['reservation', 'release', 'send'] as const;

/**
 * The extrato as a shop owner reads it: a campaign's reservation, release and send (three ledger entries, kept
 * as they are for the API and audits) become one line — its net cost, the send's description (or the
 * reservation's while it is still sending), the balance after its last entry, dated by that entry, with the
 * campaign's name. Other entries are one line each. Newest first by the last entry; the cursor is that entry's seq.
 *
 * A page costs its own lines, not the account's history (a busy account has millions of entries, one per
 * transactional send): the entries that end a line are walked newest first down (account_id, seq) until there
 * are limit + 1 of them, and only those lines' entries are read and folded — a campaign's others by its id.
 */
export async function listStatementLines(
  db: Db,
  filter: StatementFilter,
): Promise<{ entries: StatementLine[]; nextCursor: number | null }> {
  const tz = filter.timeZone ?? DEFAULT_TIME_ZONE;
  /** The account's entries of the period, under `alias`. */
  const inStatement = (alias: string): SQL => {
    const t = sql.identifier(alias);
    const conditions: SQL[] = [sql`${t}.account_id = ${filter.accountId}`];
    if (filter.from) conditions.push(sql`${t}.created_at >= (${filter.from}::date)::timestamp at time zone ${tz}`);
    if (filter.to) conditions.push(sql`${t}.created_at < (${filter.to}::date + 1)::timestamp at time zone ${tz}`);
    return sql.join(conditions, sql` and `);
  };
  /**
   * A campaign's entries of the statement: a probe of each kind's unique partial index (there is none on campaign_id
   * alone). The kinds are literals, not parameters: a partial index serves only a predicate the planner can see.
   */
  const campaignEntries = (campaignId: SQL, alias: string): SQL => {
    const t = sql.identifier(alias);
    const probes = CAMPAIGN_LINE_KINDS.map(
      (kind) => sql`select ${t}.* from ledger_entries ${t}
        where ${t}.campaign_id = ${campaignId} and ${t}.kind = ${sql.raw(`'${kind}'`)} and ${inStatement(alias)}`,
    );
    return sql.join(probes, sql` union all `);
  };
  const ofCampaign = sql`le.campaign_id is not null
    and le.kind in (${sql.raw(CAMPAIGN_LINE_KINDS.map((kind) => `'${kind}'`).join(', '))})`;
  const rows = await queryRows<StatementLineRow>(
    db,
    sql`with heads as (
          -- The entries that end a line: all but a campaign's entry with a later one of the same campaign. The
          -- line's seq is its last entry's, so the cursor cuts between heads, and a line whose last entry is on an
          -- earlier page never comes back through its older entries.
          select le.*, ${ofCampaign} as of_campaign
          from ledger_entries le
          where ${inStatement('le')}
            ${filter.cursor ? sql`and le.seq < ${filter.cursor}` : sql``}
            and not (${ofCampaign} and exists (
              select 1 from (${campaignEntries(sql`le.campaign_id`, 'later')}) later where later.seq > le.seq))
          order by le.seq desc
          limit ${filter.limit + 1}
        ), lines as (
          -- An entry outside a campaign is its own line.
          select seq, id, account_id, amount_millis, kind, description, email_count, price_millis, campaign_id,
            topup_id, refund_id, operator_user_id, balance_after_millis, created_at
          from heads where not heads.of_campaign
          union all
          -- A campaign's line folds its entries of the period (the head is the last of them).
          select line.* from heads cross join lateral (
            select max(seq) as seq,
              (array_agg(id order by seq desc))[1] as id,
              (array_agg(account_id))[1] as account_id,
              sum(amount_millis)::bigint as amount_millis,
              (array_agg(kind order by case kind when 'send' then 0 when 'release' then 1 else 2 end, seq desc))[1] as kind,
              (array_agg(description order by case kind when 'send' then 0 when 'release' then 2 else 1 end, seq desc))[1]
                as description,
              (array_agg(email_count order by case kind when 'send' then 0 else 1 end, seq desc))[1] as email_count,
              (array_agg(price_millis order by case kind when 'send' then 0 else 1 end, seq desc))[1] as price_millis,
              (array_agg(campaign_id))[1] as campaign_id,
              (array_agg(topup_id))[1] as topup_id,
              (array_agg(refund_id))[1] as refund_id,
              (array_agg(operator_user_id))[1] as operator_user_id,
              (array_agg(balance_after_millis order by seq desc))[1] as balance_after_millis,
              max(created_at) as created_at
            from (${campaignEntries(sql`heads.campaign_id`, 'c')}) c
          ) line
          where heads.of_campaign
        )
        -- Only the name, of this account's campaign: the campaigns module owns the table.
        select lines.*, c.name as campaign_name
        from lines left join campaigns c on c.id = lines.campaign_id and c.created_by = ${filter.accountId}
        order by lines.seq desc`,
  );
  const entries = rows.slice(0, filter.limit).map(
    (r): StatementLine => ({
      id: r.id,
      seq: Number(r.seq),
      accountId: r.account_id,
      amountMillis: Number(r.amount_millis),
      kind: r.kind,
      campaignId: r.campaign_id,
      topupId: r.topup_id,
      refundId: r.refund_id,
      operatorUserId: r.operator_user_id,
      emailCount: r.email_count,
      priceMillis: r.price_millis,
      description: r.description,
      balanceAfterMillis: Number(r.balance_after_millis),
      createdAt: new Date(r.created_at),
      campaignName: r.campaign_name,
    }),
  );
  const last = entries.at(-1);
  return { entries, nextCursor: rows.length > filter.limit && last ? last.seq : null };
}
