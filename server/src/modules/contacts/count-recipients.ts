import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { isEligibleSql } from './recipient-eligibility';

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
  /**
   * A follow-up's original lists: who left one of them since (an unsubscribe from the original) is not mailed again,
   * though the lists are not a source of the follow-up.
   */
  followUpListIds?: string[];
}

/**
 * The SQL (select contact id, email, name, fields) of a campaign audience: distinct contacts of the account that
 * are subscribed in at least one included list (membership status subscribed, so pending double opt-in is out), or
 * match one of the included segments, or are non-openers of the campaign followed up; that are in no excluded list;
 * and that the eligibility rule (recipient-eligibility.ts) lets receive marketing mail. One row per contact however
 * many sources it matches. The cost preview counts it and the sending engine snapshots recipients from it; the
 * engine's claim asks the same eligibility rule again.
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
      and (${sql.join(sources, sql` or `)})
      ${
        exclude.length > 0
          ? sql`and not exists (select 1 from list_memberships x where x.contact_id = c.id
                  and x.list_id in (${sql.join(exclude, sql`, `)}))`
          : sql``
      }
      and ${isEligibleSql({
        accountId: sql`${accountId}::uuid`,
        email: sql`c.email`,
        contact: 'c',
        stream: 'marketing',
        lists: audienceLists(audience),
      })}`;
}

/**
 * The lists of an audience as the eligibility rule sees them (its own and, for a follow-up, the original's): `only`
 * when its lists are its one source (no segment, no follow-up).
 */
export function audienceLists(audience: Audience): { ids: string[]; only: boolean } {
  return {
    ids: [...new Set([...audience.includeListIds, ...(audience.followUpListIds ?? [])])],
    only: (audience.segmentConditions ?? []).length === 0 && !audience.nonOpenersOfCampaignId,
  };
}

/** Exact number of recipients of an audience (for the cost preview before sending). */
export async function countRecipients(db: Db, accountId: string, audience: Audience): Promise<number> {
  const [row] = await queryRows<{ n: number | string }>(
    db,
    sql`select count(*)::int as n from (${audienceQuery(accountId, audience)}) a`,
  );
  return Number(row?.n ?? 0);
}
