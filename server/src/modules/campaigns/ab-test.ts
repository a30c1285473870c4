import { type AbTestConfig, abWinnerReason, pickAbWinner } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { asDb, queryRows } from '../../db/database';
import { abVariantStats } from '../reports/ab-report';
import { writeHeldVariant } from '../sending/message-queue';
import type { AbDecision } from './campaign-sends.db';

export interface AbDecisionResult {
  campaignId: string;
  winner: number;
  reason: string;
  /** Held recipients now given the winner and queued. */
  released: number;
}

/**
 * The A/B tests whose waiting time is over (ab_decide_at ≤ now) and whose campaign is sending: each decided
 * once (decideAbTest). A paused campaign is decided after it resumes; a cancelled one never (its held rows
 * were skipped by the cancel). Called by every worker's tick.
 */
export async function decideDueAbTests(db: Db, now = new Date()): Promise<AbDecisionResult[]> {
  const due = await queryRows<{ campaign_id: string }>(
    db,
    sql`select cs.campaign_id from campaign_sends cs join campaigns c on c.id = cs.campaign_id
         where cs.ab_decided_at is null and cs.ab_decide_at <= ${now.toISOString()} and c.status = 'sending'`,
  );
  const decided: AbDecisionResult[] = [];
  for (const row of due) {
    const result = await decideAbTest(db, row.campaign_id, now);
    if (result) decided.push(result);
  }
  return decided;
}

/**
 * Picks the winner of one A/B test and sends it to the rest, exactly once: under the campaign_sends row lock
 * (a second worker waits, then finds ab_decided_at set and does nothing), in one transaction —
 * 1. the per-variant counts of the test share (reports/ab-report.ts, the report's own rule: unique human opens
 *    or unique clicks over delivered), the winner (shared pickAbWinner: highest rate, tie → lowest index) and
 *    its pt-BR reason;
 * 2. the held rows (ids after the test share, variant null) get the winner's index;
 * 3. the cursor's end moves to the last held id, so the lanes carve their batches like any other;
 * 4. the decision is stamped (ab_decided_at, ab_winner, ab_decision with the counts and the reason).
 * Returns null when there is nothing to decide (not due yet, already decided, campaign not sending).
 */
export async function decideAbTest(db: Db, campaignId: string, now = new Date()): Promise<AbDecisionResult | null> {
  return db.transaction(async (tx) => {
    const t = asDb(tx);
    const [send] = await queryRows<{
      decide_at: string | Date | null;
      decided_at: string | Date | null;
      test_last: number | string;
      held_last: number | string;
      status: string;
      ab_test: AbTestConfig | null;
    }>(
      t,
      sql`select cs.ab_decide_at as decide_at, cs.ab_decided_at as decided_at, cs.ab_test_last_message_id as test_last,
                 cs.ab_held_last_message_id as held_last, c.status, c.ab_test
            from campaign_sends cs join campaigns c on c.id = cs.campaign_id
           where cs.campaign_id = ${campaignId}
             for update of cs`,
    );
    if (!send?.decide_at || send.decided_at || !send.ab_test || send.status !== 'sending') return null;
    if (new Date(send.decide_at).getTime() > now.getTime()) return null;
    const ab = send.ab_test;
    const testLast = Number(send.test_last);
    const heldLast = Number(send.held_last);
    const stats = await abVariantStats(t, campaignId, ab.variants.length + 1, testLast);
    const winner = pickAbWinner(stats, ab.criterion);
    const reason = abWinnerReason(stats, ab.criterion, winner);
    const released = await writeHeldVariant(t, campaignId, { afterId: testLast, lastId: heldLast }, winner);
    const decision: AbDecision = {
      reason,
      criterion: ab.criterion,
      variants: stats.map(({ index, delivered, uniqueOpens, uniqueClicks }) => ({
        index,
        delivered,
        uniqueOpens,
        uniqueClicks,
      })),
    };
    await t.execute(
      sql`update campaign_sends
             set ab_decided_at = ${now.toISOString()}, ab_winner = ${winner}, ab_decision = ${JSON.stringify(decision)}::jsonb,
                 last_message_id = greatest(last_message_id, ${heldLast})
           where campaign_id = ${campaignId} and ab_decided_at is null`,
    );
    return { campaignId, winner, reason, released };
  });
}
