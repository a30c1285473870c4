import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../db/database';

/**
 * Folds the account's sent campaigns among `campaignIds` that are not folded yet into segment_deliveries: each
 * contact a campaign was delivered to (a `sent` message) gets that campaign's start as its last delivered
 * campaign, unless it already has a later one. One statement per campaign, marked folded in the same statement,
 * so a campaign is folded exactly once — a concurrent fold of the same campaign waits on the mark, then does
 * nothing. Only `sent` campaigns are folded: their outcomes are final. Returns the contacts written.
 */
export async function foldDeliveries(db: Db, accountId: string, campaignIds: readonly string[]): Promise<number> {
  let written = 0;
  for (const campaignId of campaignIds) {
    const [row] = await queryRows<{ n: number }>(
      db,
      sql`with c as (
            select id, started_at from campaigns
             where id = ${campaignId} and created_by = ${accountId} and status = 'sent' and started_at is not null
               and not exists (select 1 from segment_folded_campaigns f where f.campaign_id = ${campaignId})),
          marked as (
            insert into segment_folded_campaigns (campaign_id) select id from c
            on conflict do nothing returning campaign_id),
          folded as (
            insert into segment_deliveries as d (account_id, contact_id, last_delivered_campaign_at)
            select ${accountId}::uuid, m.contact_id, c.started_at
              from marked join c on c.id = marked.campaign_id
              join messages m on m.campaign_id = c.id
             where m.status = 'sent' and m.contact_id is not null
            on conflict (account_id, contact_id) do update
               set last_delivered_campaign_at = excluded.last_delivered_campaign_at
             where d.last_delivered_campaign_at < excluded.last_delivered_campaign_at
            returning 1)
          select count(*)::int as n from folded`,
    );
    written += Number(row?.n ?? 0);
  }
  return written;
}
