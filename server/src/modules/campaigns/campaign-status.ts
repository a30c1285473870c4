import { type CampaignStatus, canTransition } from '@carteiro/shared';
import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { type CampaignRow, campaigns } from './campaigns.db';

/**
 * Throws when the status machine (shared/src/campaign-status.ts) does not allow every `from` → `to`: every
 * status change of a campaign passes here, so a change the table forbids is a bug caught at once, not a campaign
 * in an impossible state.
 */
export function assertCampaignTransitions(from: readonly CampaignStatus[], to: CampaignStatus): void {
  for (const status of from) {
    if (!canTransition(status, to)) throw new Error(`campaign status ${status} → ${to} is not an allowed transition`);
  }
}

/**
 * The one writer of `campaigns.status` (the campaigns module owns the table): a compare-and-set from one of
 * `from` to `to`, checked against the status machine, scoped to the account when one is given; `extra` columns are
 * set in the same statement. Returns the updated row, or null when the campaign was not in one of `from` (another
 * change won). The dashboard (pt-BR 409s, campaigns.ts), the engine (start, pause on errors, finish) and the
 * operator/bounce protections all call it.
 */
export async function writeCampaignStatus(
  db: Db,
  change: {
    campaignId: string;
    accountId?: string;
    from: readonly CampaignStatus[];
    to: CampaignStatus;
    extra?: Partial<typeof campaigns.$inferInsert>;
  },
): Promise<CampaignRow | null> {
  assertCampaignTransitions(change.from, change.to);
  const [row] = await db
    .update(campaigns)
    .set({ ...change.extra, status: change.to, updatedAt: new Date() })
    .where(
      and(
        eq(campaigns.id, change.campaignId),
        change.accountId === undefined ? undefined : eq(campaigns.createdBy, change.accountId),
        inArray(campaigns.status, [...change.from]),
      ),
    )
    .returning();
  return row ?? null;
}
