import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/database';
import { type CampaignRow, campaigns } from './campaigns.db';

export type { CampaignRow };

/**
 * The campaigns module's read model for other modules' joins (the operator's alerts, an account's suspension): a
 * campaign's account, kind, name, status and report counters. A subquery PostgreSQL pulls up into the caller's one
 * statement; read-only by construction.
 */
export const campaignDirectory = new QueryBuilder()
  .select({
    id: campaigns.id,
    accountId: campaigns.createdBy,
    kind: campaigns.kind,
    name: campaigns.name,
    status: campaigns.status,
    sentCount: campaigns.sentCount,
    bouncedCount: campaigns.bouncedCount,
    complainedCount: campaigns.complainedCount,
  })
  .from(campaigns)
  .as('campaign_directory');

/**
 * Every column of a campaign, as the compatibility API's documents show them (spec §7: the old client filters and
 * orders on the stored fields).
 */
export const campaignRows = new QueryBuilder().select(getTableColumns(campaigns)).from(campaigns).as('campaign_rows');

/**
 * The ids of the account's `limit` most recent sent campaigns, newest start first (ties: the greater id first).
 * Segments' "últimas N campanhas" (ADR 0016): handed to segments as its `RecentSentCampaigns`.
 */
export async function recentSentCampaignIds(db: Db, accountId: string, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.createdBy, accountId), eq(campaigns.status, 'sent')))
    .orderBy(sql`${campaigns.startedAt} desc nulls last`, desc(campaigns.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * The name of a draft or scheduled campaign of the account that targets the segment, or null (a segment in use
 * is not deleted). Handed to segments as its `CampaignUsingSegment`.
 */
export async function campaignUsingSegment(db: Db, accountId: string, segmentId: string): Promise<string | null> {
  const [used] = await db
    .select({ name: campaigns.name })
    .from(campaigns)
    .where(
      and(
        eq(campaigns.createdBy, accountId),
        inArray(campaigns.status, ['draft', 'scheduled']),
        sql`${segmentId}::uuid = any(${campaigns.includeSegmentIds})`,
      ),
    )
    .limit(1);
  return used?.name ?? null;
}
