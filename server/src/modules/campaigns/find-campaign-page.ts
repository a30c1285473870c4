import type { CampaignListItem, CampaignQuery } from '@carteiro/shared';
import { and, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { afterKeysetCursorSql, cursorTimestampSql, keysetPage } from '../../db/keyset';
import { containsPattern } from '../../db/like';
import { toCampaignView } from './campaign-view';
import { campaigns } from './campaigns.db';

/**
 * One page of the account's campaigns, newest created first (keyset on created_at, id: a campaign edited while a
 * client pages never moves), filtered by status and by a part of the name. Items leave out the HTML, its builder
 * project and the A/B variants' content (read one campaign for those).
 */
export async function findCampaignPage(
  db: Db,
  accountId: string,
  query: CampaignQuery,
): Promise<{ items: CampaignListItem[]; nextCursor: string | null }> {
  const limit = query.limit ?? 50;
  const conditions: SQL[] = [eq(campaigns.createdBy, accountId), eq(campaigns.kind, 'campaign')];
  if (query.status?.length) conditions.push(inArray(campaigns.status, query.status));
  if (query.search) conditions.push(sql`${campaigns.name} ilike ${containsPattern(query.search)}`);
  if (query.cursor)
    conditions.push(afterKeysetCursorSql(sql`${campaigns.createdAt}`, sql`${campaigns.id}`, query.cursor));
  const rows = await db
    .select({ campaign: campaigns, cursor_at: cursorTimestampSql(sql`${campaigns.createdAt}`), id: campaigns.id })
    .from(campaigns)
    .where(and(...conditions))
    .orderBy(desc(campaigns.createdAt), desc(campaigns.id))
    .limit(limit + 1);
  const page = keysetPage(rows, limit);
  return {
    items: page.rows.map(({ campaign }) => {
      const { template: _html, templateProject: _project, abTest, ...view } = toCampaignView(campaign);
      return { ...view, isAbTest: abTest !== null };
    }),
    nextCursor: page.nextCursor,
  };
}
