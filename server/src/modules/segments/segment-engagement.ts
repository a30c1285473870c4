import { sql } from 'drizzle-orm';
import { asDb, type Db, queryRows } from '../../db/database';
import { pgTextArray } from '../../db/pg-text-array';

/**
 * The advisory lock class of an account's engagement fold (the key's second half is hashtext(account id)). The
 * trigger on message_events (migration 0044) holds it shared until its insert commits; a fold, and a deletion of
 * contacts (which takes their rows, migration 0059), hold it alone.
 */
const ENGAGEMENT_LOCK_CLASS = 2611;

/**
 * Folds the account's sent campaigns among `campaignIds` that are not folded yet into segment_engagement: each
 * contact with a human open (click) of a campaign gets it as its newest opened (clicked) campaign, and each
 * contact it was delivered to (a `sent` message) as its newest delivered campaign, unless it already has a newer
 * one. Events inserted after a campaign is `sent` are folded by the trigger on
 * message_events; this reads the ones from before, once per campaign (marked folded in the same transaction).
 * The account's exclusive advisory lock makes the fold wait for inserts in flight — whose trigger may have seen
 * the campaign before it was `sent` — to commit, so it reads them; inserts after it wait, then see it `sent`.
 * Returns the campaigns folded.
 */
export async function foldEngagement(db: Db, accountId: string, campaignIds: readonly string[]): Promise<number> {
  if (campaignIds.length === 0) return 0;
  // Most counts find every campaign folded already: one indexed probe per id, no lock, no transaction.
  const pending = await queryRows<{ id: string }>(
    db,
    sql`select k.id from campaigns k
         where k.id = any(${pgTextArray(campaignIds)}::uuid[]) and k.created_by = ${accountId} and k.status = 'sent'
           and not exists (select 1 from segment_engagement_folds f where f.campaign_id = k.id)`,
  );
  let folded = 0;
  for (const { id } of pending) {
    folded += await db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ENGAGEMENT_LOCK_CLASS}, hashtext(${accountId}::text))`);
      const marked = await queryRows<{ campaign_id: string }>(
        asDb(tx),
        sql`insert into segment_engagement_folds (campaign_id) values (${id}) on conflict do nothing
            returning campaign_id`,
      );
      if (marked.length === 0) return 0; // a concurrent fold did it
      // One campaign: its start is every fact's; message_events_engagement_idx answers it index-only.
      await tx.execute(
        sql`select segment_engagement_merge(array_agg(f))
              from (select (${accountId}::uuid, e.contact_id,
                            case when bool_or(e.kind = 'open') then k.id end,
                            case when bool_or(e.kind = 'open') then k.at end,
                            case when bool_or(e.kind = 'click') then k.id end,
                            case when bool_or(e.kind = 'click') then k.at end,
                            null::uuid, null::timestamptz, bool_or(e.kind = 'open'))::segment_engagement_fact as f
                      from (select id, coalesce(started_at, '-infinity') as at from campaigns where id = ${id}) k
                      join message_events e on e.campaign_id = k.id
                     where e.kind in ('open', 'click') and not e.machine and e.contact_id is not null
                     group by e.contact_id, k.id, k.at) facts`,
      );
      // Its deliveries (`sent` messages — final once the campaign is sent): the newest delivered campaign of each
      // recipient, unless it already has a newer one (one message per contact and campaign: messages_campaign_contact_idx).
      // Recipients since deleted are skipped: the table holds existing contacts only (migration 0059, ADR 0042).
      await tx.execute(
        sql`insert into segment_engagement as g
                   (account_id, contact_id, last_delivered_campaign_id, last_delivered_campaign_at)
            select ${accountId}::uuid, m.contact_id, k.id, k.at
              from (select id, coalesce(started_at, '-infinity') as at from campaigns where id = ${id}) k
              join messages m on m.campaign_id = k.id
             where m.status = 'sent' and m.contact_id is not null
               and exists (select 1 from contacts c where c.id = m.contact_id)
            on conflict (account_id, contact_id) do update
               set last_delivered_campaign_id = excluded.last_delivered_campaign_id,
                   last_delivered_campaign_at = excluded.last_delivered_campaign_at
             where segment_engagement_newer(excluded.last_delivered_campaign_at, excluded.last_delivered_campaign_id,
                                            g.last_delivered_campaign_at, g.last_delivered_campaign_id)`,
      );
      return 1;
    });
  }
  return folded;
}
