import { type CampaignStatus, formatBRL } from '@carteiro/shared';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { Mailer } from '../../mail/mailer';
import { accounts } from '../accounts/accounts.db';
import { authUsers } from '../auth/auth.db';
import { assertAccountCanSend } from '../billing/account-status';
import { settleCampaign } from '../billing/settle-campaign';
import { findCampaignRow } from '../campaigns/campaigns';
import { campaigns } from '../campaigns/campaigns.db';
import { campaignSends } from './messages.db';

const CHANGED = 'A campanha mudou de situação enquanto você a alterava. Recarregue e tente de novo.';

/** Compare-and-set of a campaign's status: true when this call moved it from one of `from` to `to`. */
export async function transitionCampaignStatus(
  db: Db,
  campaignId: string,
  from: CampaignStatus[],
  to: CampaignStatus,
  extra: Partial<typeof campaigns.$inferInsert> = {},
): Promise<boolean> {
  const rows = await db
    .update(campaigns)
    .set({ ...extra, status: to, updatedAt: new Date() })
    .where(and(eq(campaigns.id, campaignId), inArray(campaigns.status, from)))
    .returning({ id: campaigns.id });
  return rows.length === 1;
}

/** Pause (manual): no new batch is claimed; the batches in flight finish and are recorded. */
export async function pauseCampaign(db: Db, accountId: string, campaignId: string): Promise<{ status: 'paused' }> {
  const campaign = await findCampaignRow(db, accountId, campaignId);
  if (campaign.status !== 'sending') throw new AppError('conflict', 'Só é possível pausar uma campanha em envio.');
  if (!(await transitionCampaignStatus(db, campaignId, ['sending'], 'paused'))) throw new AppError('conflict', CHANGED);
  await db.update(campaignSends).set({ pausedReason: null }).where(eq(campaignSends.campaignId, campaignId));
  return { status: 'paused' };
}

/** Resume: back to sending; messages waiting for a retry because the relay was down are due again at once. */
export async function resumeCampaign(db: Db, accountId: string, campaignId: string): Promise<{ status: 'sending' }> {
  const campaign = await findCampaignRow(db, accountId, campaignId);
  if (campaign.status !== 'paused') throw new AppError('conflict', 'Só é possível retomar uma campanha pausada.');
  await db.transaction(async (tx) => {
    // A suspended account cannot resume (share lock on the account: a concurrent suspension waits for us).
    await assertAccountCanSend(tx, accountId);
    const moved = await tx
      .update(campaigns)
      .set({ status: 'sending', updatedAt: new Date() })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'paused')))
      .returning({ id: campaigns.id });
    if (moved.length !== 1) throw new AppError('conflict', CHANGED);
    await tx
      .update(campaignSends)
      .set({ pausedReason: null, consecutiveErrors: 0 })
      .where(eq(campaignSends.campaignId, campaignId));
    await tx.execute(
      sql`update messages set next_attempt_at = now()
          where campaign_id = ${campaignId} and status = 'queued'
            and (smtp_code is null or smtp_code = 421 or smtp_code >= 500) and next_attempt_at > now()`,
    );
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
    throw new AppError('conflict', 'Esta campanha já terminou e não pode ser cancelada.');
  }
  await db.transaction(async (tx) => {
    const moved = await tx
      .update(campaigns)
      .set({ status: 'cancelled', updatedAt: new Date() })
      .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, campaign.status)))
      .returning({ id: campaigns.id });
    if (moved.length !== 1) throw new AppError('conflict', CHANGED);
    await tx.execute(
      sql`update messages set status = 'skipped', response = 'campanha cancelada', claimed_by = null, claimed_at = null
          where campaign_id = ${campaignId} and status = 'queued'`,
    );
  });
  await finish(campaignId);
  return { status: 'cancelled' };
}

export interface CampaignProgress {
  status: CampaignStatus;
  recipients: number;
  sent: number;
  failed: number;
  skipped: number;
  remaining: number;
  /** Messages accepted per second over the last minute. */
  ratePerSecond: number;
  /** ISO time the remaining messages should be done at the current rate; null when unknown or done. */
  estimatedEnd: string | null;
  pausedReason: string | null;
  startedAt: string | null;
  finishedAt: string | null;
}

/** Live progress of a campaign (the view page polls it). */
export async function campaignProgress(db: Db, accountId: string, campaignId: string): Promise<CampaignProgress> {
  const campaign = await findCampaignRow(db, accountId, campaignId);
  const [counts] = await queryRows<Record<string, number | string>>(
    db,
    sql`select count(*) filter (where status = 'sent')::int as sent,
               count(*) filter (where status = 'failed')::int as failed,
               count(*) filter (where status = 'skipped')::int as skipped,
               count(*) filter (where status in ('queued', 'sending'))::int as remaining,
               count(*) filter (where status = 'sent' and sent_at > now() - interval '60 seconds')::int as last_minute,
               min(sent_at) filter (where sent_at > now() - interval '60 seconds') as first_recent
          from messages where campaign_id = ${campaignId}`,
  );
  const [send] = await db.select().from(campaignSends).where(eq(campaignSends.campaignId, campaignId));
  const remaining = Number(counts?.remaining ?? 0);
  const lastMinute = Number(counts?.last_minute ?? 0);
  const firstRecent = counts?.first_recent ? new Date(String(counts.first_recent)).getTime() : null;
  const window = firstRecent ? Math.max(1, (Date.now() - firstRecent) / 1000) : 60;
  const rate = lastMinute > 0 ? lastMinute / Math.min(60, window) : 0;
  return {
    status: campaign.status,
    recipients: send?.recipients ?? campaign.recipientsCount,
    sent: Number(counts?.sent ?? 0),
    failed: Number(counts?.failed ?? 0),
    skipped: Number(counts?.skipped ?? 0),
    remaining,
    ratePerSecond: Math.round(rate * 10) / 10,
    estimatedEnd:
      remaining > 0 && rate > 0 && campaign.status === 'sending'
        ? new Date(Date.now() + (remaining / rate) * 1000).toISOString()
        : null,
    pausedReason: campaign.status === 'paused' ? (send?.pausedReason ?? null) : null,
    startedAt: send?.startedAt.toISOString() ?? campaign.startedAt?.toISOString() ?? null,
    finishedAt: send?.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The end of a send, exactly once per campaign: when a sending campaign has no queued or in-flight message
 * left it becomes sent; a cancelled one waits for its in-flight messages. Then, in the same transaction, the
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
      tx as unknown as Db,
      sql`select settled_at from campaign_sends where campaign_id = ${campaignId} for update`,
    );
    if (!send || send.settled_at) return null;
    const [campaign] = await tx
      .select({ status: campaigns.status })
      .from(campaigns)
      .where(eq(campaigns.id, campaignId));
    if (!campaign || (campaign.status !== 'sending' && campaign.status !== 'cancelled')) return null;
    const [left] = await queryRows<{ left: boolean }>(
      tx as unknown as Db,
      sql`select exists (select 1 from messages where campaign_id = ${campaignId} and status in ('queued', 'sending')) as left`,
    );
    if (left?.left) return null;
    const [sent] = await queryRows<{ n: number | string }>(
      tx as unknown as Db,
      sql`select count(*)::int as n from messages where campaign_id = ${campaignId} and status = 'sent'`,
    );
    const sentCount = Number(sent?.n ?? 0);
    const status = campaign.status === 'sending' ? 'sent' : 'cancelled';
    if (status === 'sent') {
      await tx
        .update(campaigns)
        .set({ status: 'sent', finishedAt: new Date(), updatedAt: new Date() })
        .where(and(eq(campaigns.id, campaignId), eq(campaigns.status, 'sending')));
    } else {
      await tx.update(campaigns).set({ finishedAt: new Date() }).where(eq(campaigns.id, campaignId));
    }
    const settlement = await settleCampaign(tx as unknown as Db, { campaignId, sentCount });
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
      .select({ name: campaigns.name, email: authUsers.email, failed: campaigns.failedCount })
      .from(campaigns)
      .innerJoin(accounts, eq(accounts.id, campaigns.createdBy))
      .innerJoin(authUsers, eq(authUsers.id, accounts.ownerUserId))
      .where(eq(campaigns.id, campaignId));
    if (!row) return;
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
