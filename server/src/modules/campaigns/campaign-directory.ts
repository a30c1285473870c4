import { getTableColumns } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
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
