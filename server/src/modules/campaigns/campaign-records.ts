import { eq, type SQL, sql } from 'drizzle-orm';
import { asDb, type DbOrTx } from '../../db/database';
import { campaignSends } from './campaign-sends.db';

/**
 * What other modules record on a campaign, each in one statement on the caller's handle or transaction: the report
 * counters that events after the send move (bounces, complaints, unsubscribes; the opens and clicks recount), and
 * the reason shown for a protective pause. The engine's counters are `campaign-counters.ts` (folded into the
 * outcome statement) and the status is `campaign-status.ts`.
 */

const OUTCOME_COUNTER = {
  bounced: sql.raw('bounced_count'),
  complained: sql.raw('complained_count'),
  unsubscribed: sql.raw('unsubscribed_count'),
} as const;

/** One more hard bounce, complaint or unsubscribe in the campaign's report. */
export async function countCampaignOutcome(
  db: DbOrTx,
  campaignId: string,
  outcome: keyof typeof OUTCOME_COUNTER,
): Promise<void> {
  const column = OUTCOME_COUNTER[outcome];
  await asDb(db).execute(sql`update campaigns set ${column} = ${column} + 1 where id = ${campaignId}`);
}

/**
 * Sets the campaign's opened and clicked counters to the given recounts (tracking's subqueries over its events,
 * folded into this one statement). A campaign's only: no page shows a transactional stream's counters, and the
 * recounts sum every hour of the report rollup — a stream's whole life (58 ms at two years, every few seconds
 * while its messages are opened); its report reads the rollup itself.
 */
export async function writeEngagementCounters(
  db: DbOrTx,
  campaignId: string,
  counts: { opened: SQL; clicked: SQL },
): Promise<void> {
  await asDb(db).execute(
    sql`update campaigns set opened_count = (${counts.opened}), clicked_count = (${counts.clicked})
         where id = ${campaignId} and kind = 'campaign'`,
  );
}

/** The pt-BR reason the sender sees on a campaign paused by a protection (bounces, an operator's suspension). */
export async function setCampaignPausedReason(db: DbOrTx, campaignId: string, reason: string): Promise<void> {
  await asDb(db).update(campaignSends).set({ pausedReason: reason }).where(eq(campaignSends.campaignId, campaignId));
}
