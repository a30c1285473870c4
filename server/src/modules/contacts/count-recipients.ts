import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { suppressedForStreamSql } from './suppression';

export interface Audience {
  includeListIds: string[];
  excludeListIds?: string[];
  /** Compiled segment conditions over contacts alias `c` (segments module): a contact matching any is included. */
  segmentConditions?: SQL[];
  /**
   * "Reenviar para quem não abriu": contacts the given campaign was delivered to (message sent) with no human
   * open event on that message (machine opens do not count) are included.
   */
  nonOpenersOfCampaignId?: string | null;
}

/**
 * The SQL (select contact id, email, name, fields) of a campaign audience: distinct contacts of the account
 * that are subscribed in at least one included list (membership status subscribed, so pending double opt-in
 * is out), or match one of the included segments, or are non-openers of the campaign followed up; whose contact
 * status is subscribed (not unsubscribed, bounced, complained), that are in no excluded list, and whose address
 * hash is not suppressed. One row per contact however many sources it matches. The sending engine snapshots
 * recipients from it.
 */
export function audienceQuery(accountId: string, audience: Audience): SQL {
  const include = audience.includeListIds.map((id) => sql`${id}::uuid`);
  const exclude = (audience.excludeListIds ?? []).map((id) => sql`${id}::uuid`);
  const sources: SQL[] = [];
  if (include.length > 0) {
    sources.push(sql`exists (select 1 from list_memberships m join lists l on l.id = m.list_id
                  where m.contact_id = c.id and m.status = 'subscribed' and l.account_id = ${accountId}
                    and m.list_id in (${sql.join(include, sql`, `)}))`);
  }
  for (const condition of audience.segmentConditions ?? []) sources.push(condition);
  if (audience.nonOpenersOfCampaignId) {
    sources.push(sql`c.id in (select fm.contact_id from messages fm
                  where fm.campaign_id = ${audience.nonOpenersOfCampaignId}::uuid and fm.account_id = ${accountId}
                    and fm.status = 'sent' and fm.contact_id is not null
                    and not exists (select 1 from message_events fe where fe.message_id = fm.id
                                      and fe.kind = 'open' and not fe.machine))`);
  }
  if (sources.length === 0) return sql`select null::uuid as id, null::text as email where false`;
  return sql`select c.id, c.email, c.name, c.fields
    from contacts c
    where c.account_id = ${accountId}
      and c.status = 'subscribed'
      and (${sql.join(sources, sql` or `)})
      ${
        exclude.length > 0
          ? sql`and not exists (select 1 from list_memberships x where x.contact_id = c.id
                  and x.list_id in (${sql.join(exclude, sql`, `)}))`
          : sql``
      }
      and not ${suppressedForStreamSql(sql`${accountId}::uuid`, sql`c.email`, 'marketing')}`;
}

/** Exact number of recipients of an audience (for the cost preview before sending). */
export async function countRecipients(db: Db, accountId: string, audience: Audience): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*)::int as n from (${audienceQuery(accountId, audience)}) a`,
  );
  return Number(row?.n ?? 0);
}
