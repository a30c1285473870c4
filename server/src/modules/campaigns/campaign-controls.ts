import { type CampaignProgress, type CampaignStatus, formatBRL } from '@carteiro/shared';
import { eq, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { asDb, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import type { Mailer } from '../../mail/mailer';
import { accountDirectory } from '../accounts/account-directory';
import { assertAccountCanSend } from '../billing/account-status';
import { settleCampaign } from '../billing/settle-campaign';
import { closeQueuedWorkCtes, makeQueuedWorkDue } from '../sending/message-queue';
import { emitCampaignEvent } from '../webhooks/emit-event';
import { addSkipReasonsSql } from './campaign-counters';
import { campaignSends } from './campaign-sends.db';
import { writeCampaignStatus } from './campaign-status';
import { findCampaignRow } from './campaigns';
import { campaigns } from './campaigns.db';

const CHANGED = 'A campanha mudou de situação enquanto você a alterava. Recarregue e tente de novo.';

export { assertCampaignTransitions } from './campaign-status';

/**
 * Compare-and-set of a campaign's status through the campaigns module's one writer: true when this call moved it
 * from one of `from` to `to`.
 */
export async function transitionCampaignStatus(
  db: Db,
  campaignId: string,
  from: CampaignStatus[],
  to: CampaignStatus,
  extra: Partial<typeof campaigns.$inferInsert> = {},
): Promise<boolean> {
  return (await writeCampaignStatus(db, { campaignId, from, to, extra })) !== null;
}

/** Pause (manual): no new batch is claimed; the batches in flight finish and are recorded. */
export async function pauseCampaign(db: Db, accountId: string, campaignId: string): Promise<{ status: 'paused' }> {
  const campaign = await findCampaignRow(db, accountId, campaignId);
  if (campaign.status !== 'sending') throw new AppError('campaign_not_editable', ERROR_TEXT.campaigns.pauseOnlySending);
  if (!(await transitionCampaignStatus(db, campaignId, ['sending'], 'paused')))
    throw new AppError('campaign_not_editable', CHANGED);
  await db.update(campaignSends).set({ pausedReason: null }).where(eq(campaignSends.campaignId, campaignId));
  await emitCampaignEvent(db, campaignId, 'campaign.paused', { reason: 'Pausada manualmente.' }); // outbound webhook
  return { status: 'paused' };
}

/** Resume: back to sending; messages waiting for a retry because the relay was down are due again at once. */
export async function resumeCampaign(db: Db, accountId: string, campaignId: string): Promise<{ status: 'sending' }> {
  const campaign = await findCampaignRow(db, accountId, campaignId);
  if (campaign.status !== 'paused') throw new AppError('campaign_not_editable', ERROR_TEXT.campaigns.resumeOnlyPaused);
  await db.transaction(async (tx) => {
    // A suspended account cannot resume (share lock on the account: a concurrent suspension waits for us).
    await assertAccountCanSend(tx, accountId);
    if (!(await transitionCampaignStatus(asDb(tx), campaignId, ['paused'], 'sending'))) {
      throw new AppError('campaign_not_editable', CHANGED);
    }
    await tx
      .update(campaignSends)
      .set({ pausedReason: null, consecutiveErrors: 0 })
      .where(eq(campaignSends.campaignId, campaignId));
    // Retries live in queued batches: those become due, and so do their messages that failed at the relay.
    await makeQueuedWorkDue(asDb(tx), campaignId);
  });
  return { status: 'sending' };
}

/**
 * Cancel: a draft or scheduled campaign simply becomes cancelled; a sending or paused one also has its queued
 * messages marked skipped (never sent, never charged). The reservation is settled once no message is in flight.
 */
export async function cancelCampaign(
  db: Db,
  accountId: string,
  campaignId: string,
  finish: (campaignId: string) => Promise<unknown>,
): Promise<{ status: 'cancelled' }> {
  const campaign = await findCampaignRow(db, accountId, campaignId);
  if (!['draft', 'scheduled', 'sending', 'paused'].includes(campaign.status)) {
    throw new AppError('campaign_not_editable', ERROR_TEXT.campaigns.cancelFinished);
  }
  await db.transaction(async (tx) => {
    if (!(await transitionCampaignStatus(asDb(tx), campaignId, [campaign.status], 'cancelled'))) {
      throw new AppError('campaign_not_editable', CHANGED);
    }
    await skipUnsentMessages(asDb(tx), campaignId);
  });
  await finish(campaignId);
  return { status: 'cancelled' };
}

/**
 * A cancelled campaign's messages that no worker holds become skipped (never sent, never charged): the ones not
 * carved into a batch yet (the cursor moves past the end, so no new batch is carved) and those of queued
 * batches (closed). Batches in flight are left to their worker, which records what it delivered; their retries
 * are skipped by the next call (finishCampaignIfDone calls it again). The batch rows are locked as they are
 * updated, and a claim takes them with SKIP LOCKED, so a batch is either closed here or delivered, never both.
 */
export async function skipUnsentMessages(db: Db, campaignId: string): Promise<void> {
  await db.execute(
    // An A/B test still waiting for its winner also has held rows after last_message_id: skipped too.
    sql`with cursor as (
          select next_message_id as first_id,
                 greatest(last_message_id, coalesce(ab_held_last_message_id, 0)) as last_id
            from campaign_sends where campaign_id = ${campaignId} for update),
        moved as (
          update campaign_sends cs set next_message_id = cursor.last_id + 1
            from cursor where cs.campaign_id = ${campaignId} and cursor.first_id <= cursor.last_id
          returning 1),
        ${closeQueuedWorkCtes({
          streamId: campaignId,
          unbatched: sql`select first_id, last_id from cursor where first_id <= last_id`,
          reason: 'campaign_cancelled',
          response: 'campanha cancelada',
        })}
        update campaigns c set skipped_count = c.skipped_count + (select count(*) from skipped),
                               skipped_by_reason = ${addSkipReasonsSql(sql`c.skipped_by_reason`, sql`skipped`)}
         where c.id = ${campaignId} and exists (select 1 from skipped)`,
  );
}

/**
 * Live progress of a campaign (the view page polls it every 2 s): from the campaign's counters, kept equal to
 * the message rows by the statements that write them, and the rate from the batches recorded in the last
 * minute — never a count over the campaign's messages (a million rows per poll).
 */
export async function campaignProgress(db: Db, accountId: string, campaignId: string): Promise<CampaignProgress> {
  const campaign = await findCampaignRow(db, accountId, campaignId);
  const [recent] = await queryRows<{ last_minute: number | string | null; first_recent: string | Date | null }>(
    db,
    sql`select sum(sent_count)::int as last_minute, min(recorded_at) as first_recent
          from message_batches
         where campaign_id = ${campaignId} and recorded_at > now() - interval '60 seconds'`,
  );
  const [send] = await db.select().from(campaignSends).where(eq(campaignSends.campaignId, campaignId));
  const recipients = send?.recipients ?? campaign.recipientsCount;
  const { sentCount: sent, failedCount: failed, skippedCount: skipped } = campaign;
  const remaining = send ? Math.max(0, recipients - sent - failed - skipped) : 0;
  const lastMinute = Number(recent?.last_minute ?? 0);
  const firstRecent = recent?.first_recent ? new Date(recent.first_recent).getTime() : null;
  const window = firstRecent ? Math.max(1, (Date.now() - firstRecent) / 1000) : 60;
  const rate = lastMinute > 0 ? lastMinute / Math.min(60, window) : 0;
  const abWaiting = send?.abDecideAt && !send.abDecidedAt ? send.abDecideAt.toISOString() : null;
  return {
    status: campaign.status,
    recipients,
    sent,
    failed,
    skipped,
    remaining,
    ratePerSecond: Math.round(rate * 10) / 10,
    estimatedEnd:
      remaining > 0 && rate > 0 && campaign.status === 'sending' && !abWaiting
        ? new Date(Date.now() + (remaining / rate) * 1000).toISOString()
        : null,
    pausedReason: campaign.status === 'paused' ? (send?.pausedReason ?? null) : null,
    startedAt: send?.startedAt.toISOString() ?? campaign.startedAt?.toISOString() ?? null,
    finishedAt: send?.finishedAt?.toISOString() ?? null,
    abTestDecideAt: abWaiting,
  };
}

/**
 * The end of a send, exactly once per campaign: when a sending campaign has no message left to carve and no
 * batch queued or in flight it becomes sent; a cancelled one waits for its batches in flight. Then, in the same transaction, the
 * reservation is settled for the messages marked sent (failed and skipped cost nothing) and the send is
 * stamped settled. Returns the status finished with, or null when there is nothing to do yet.
 */
export async function finishCampaignIfDone(
  db: Db,
  campaignId: string,
): Promise<{ status: 'sent' | 'cancelled'; sent: number; chargedMillis: number } | null> {
  return db.transaction(async (tx) => {
    // The row lock makes concurrent finishers (several workers) wait; the second then sees settled_at.
    const [send] = await queryRows<{ settled_at: unknown }>(
      asDb(tx),
      sql`select settled_at from campaign_sends where campaign_id = ${campaignId} for update`,
    );
    if (!send || send.settled_at) return null;
    const [campaign] = await tx
      .select({ status: campaigns.status })
      .from(campaigns)
      .where(eq(campaigns.id, campaignId));
    if (!campaign || (campaign.status !== 'sending' && campaign.status !== 'cancelled')) return null;
    if (campaign.status === 'cancelled') await skipUnsentMessages(asDb(tx), campaignId);
    // Left: messages not carved into a batch yet, or a batch queued (a retry) or in flight.
    const [left] = await queryRows<{ left: boolean }>(
      asDb(tx),
      sql`select exists (select 1 from campaign_sends
                          where campaign_id = ${campaignId} and next_message_id <= last_message_id)
                 -- Two probes, each of its partial index: \`status in (…)\` matched neither and read every batch of
                 -- the campaign (20,000 done ones: 3.7–5.4 ms per worker tick).
                 or exists (select 1 from message_batches where campaign_id = ${campaignId} and status = 'queued')
                 or exists (select 1 from message_batches where campaign_id = ${campaignId} and status = 'sending')
                 ${
                   // An A/B test waiting for its winner: the held recipients are still to be sent.
                   campaign.status === 'sending'
                     ? sql`or exists (select 1 from campaign_sends where campaign_id = ${campaignId}
                                        and ab_decide_at is not null and ab_decided_at is null)`
                     : sql``
                 } as left`,
    );
    if (left?.left) return null;
    const [sent] = await queryRows<{ n: number | string }>(
      asDb(tx),
      sql`select count(*)::int as n from messages where campaign_id = ${campaignId} and status = 'sent'`,
    );
    const sentCount = Number(sent?.n ?? 0);
    const status = campaign.status === 'sending' ? 'sent' : 'cancelled';
    if (status === 'sent') {
      await transitionCampaignStatus(asDb(tx), campaignId, ['sending'], 'sent', { finishedAt: new Date() });
    } else {
      await tx.update(campaigns).set({ finishedAt: new Date() }).where(eq(campaigns.id, campaignId));
    }
    const settlement = await settleCampaign(asDb(tx), { campaignId, sentCount });
    // Outbound webhook (ADR 0015), in the same transaction as the settlement.
    await emitCampaignEvent(tx, campaignId, 'campaign.finished', { status, costMillis: settlement.chargedMillis });
    await tx
      .update(campaignSends)
      .set({ settledAt: new Date(), finishedAt: new Date(), chargedMillis: settlement.chargedMillis })
      .where(eq(campaignSends.campaignId, campaignId));
    return { status, sent: sentCount, chargedMillis: settlement.chargedMillis };
  });
}

/** The pt-BR "campanha enviada" notice to the account owner. Failures are logged, never thrown. */
export async function notifyCampaignSent(
  db: Db,
  mailer: Mailer | null,
  logger: Logger,
  campaignId: string,
  result: { sent: number; chargedMillis: number },
  publicUrl: string,
): Promise<void> {
  if (!mailer) return;
  try {
    const [row] = await db
      .select({ name: campaigns.name, email: accountDirectory.ownerEmail, failed: campaigns.failedCount })
      .from(campaigns)
      .innerJoin(accountDirectory, eq(accountDirectory.id, campaigns.createdBy))
      .where(eq(campaigns.id, campaignId));
    // No owner left to tell (the owner's user is gone).
    if (!row?.email) return;
    const url = `${publicUrl}/dashboard/campaigns/${campaignId}/view`;
    const subject = `Campanha enviada: ${row.name}`;
    const text = [
      `Sua campanha "${row.name}" foi enviada.`,
      '',
      `E-mails entregues ao servidor: ${result.sent}`,
      `Falhas: ${row.failed}`,
      `Valor cobrado: ${formatBRL(result.chargedMillis)} (falhas e destinatários ignorados não são cobrados).`,
      '',
      `Veja o relatório: ${url}`,
    ].join('\n');
    const html = text
      .split('\n')
      .map((line) => (line ? `<p>${line.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>` : ''))
      .join('');
    await mailer.send({ to: row.email, subject, text, html });
  } catch (error) {
    logger.error({ err: error, campaignId }, 'could not send the "campanha enviada" notice');
  }
}

/**
 * One more batch of the campaign failed at the connection level (the relay, not a recipient); past
 * `pauseAfterErrors` in a row the campaign pauses with a pt-BR reason. The outcome recorder resets the streak
 * when a batch gets a reply.
 */
export async function countRelayFailure(
  db: Db,
  campaignId: string,
  pauseAfterErrors: number,
  lastResponse: string | undefined,
  logger: Logger,
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .update(campaignSends)
      .set({ consecutiveErrors: sql`${campaignSends.consecutiveErrors} + 1` })
      .where(eq(campaignSends.campaignId, campaignId))
      .returning({ errors: campaignSends.consecutiveErrors });
    if (!row || row.errors < pauseAfterErrors) return;
    const reason = `Pausada automaticamente: o servidor de envio falhou ${row.errors} vezes seguidas (${(lastResponse ?? 'sem resposta').slice(0, 200)}). Verifique o servidor SMTP e retome a campanha.`;
    if (await transitionCampaignStatus(asDb(tx), campaignId, ['sending'], 'paused')) {
      await tx.update(campaignSends).set({ pausedReason: reason }).where(eq(campaignSends.campaignId, campaignId));
      await emitCampaignEvent(tx, campaignId, 'campaign.paused', { reason }); // outbound webhook
      logger.error({ campaignId, errors: row.errors, lastResponse }, 'campaign paused: relay failing');
    }
  });
}

/** Cancelled campaigns not settled yet: finished once their in-flight messages are recorded. */
export async function unsettledCancelledCampaigns(db: Db): Promise<string[]> {
  const rows = await queryRows<{ campaign_id: string }>(
    db,
    sql`select cs.campaign_id from campaign_sends cs join campaigns c on c.id = cs.campaign_id
         where cs.settled_at is null and c.status = 'cancelled'`,
  );
  return rows.map((r) => r.campaign_id);
}
