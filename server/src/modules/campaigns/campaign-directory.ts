import { QueryBuilder } from 'drizzle-orm/pg-core';
import { campaigns } from './campaigns.db';

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
