import { type AbTestConfig, abTestSize, type CampaignStatus } from '@carteiro/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { asDb, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { findAccount } from '../accounts/accounts.service';
import { reserveForCampaign } from '../billing/reserve-campaign-cost';
import { audienceQuery } from '../contacts/count-recipients';
import { isSenderAllowed } from '../sender-identities/sender-identities';
import { assignVariantsInTurn, enqueueMessagesSql } from '../sending/message-queue';
import { emitCampaignEvent } from '../webhooks/emit-event';
import { campaignAudience } from './campaign-audience';
import { campaignSends } from './campaign-sends.db';
import { writeCampaignStatus } from './campaign-status';
import { assertReadyToSend, findCampaignRow, missingCampaignChecks, throwFirstMissing } from './campaigns';
import { type CampaignRow, campaigns } from './campaigns.db';

export interface StartCampaignSendResult {
  ok: true;
  campaignId: string;
  recipients: number;
  reservedMillis: number;
}

const STARTABLE: CampaignStatus[] = ['draft', 'scheduled'];

export const ALREADY_SENDING = 'Esta campanha já está sendo enviada ou já foi enviada.';

/**
 * Checks that a campaign can be sent by this user now (pt-BR 400/403 otherwise): verified e-mail, active
 * account, subject, audience, content with the unsubscribe link, a verified sender address (ADR 0012), the
 * footer's business identity.
 */
export async function assertCanSend(db: Db, campaign: CampaignRow, user: { emailVerified: boolean }): Promise<void> {
  if (!user.emailVerified) {
    throw new AppError('forbidden', ERROR_TEXT.campaigns.confirmEmailToSend);
  }
  const account = await findAccount(db, campaign.createdBy);
  if (!account) throw notFound('account');
  if (account.status !== 'active') throw new AppError('account_suspended', undefined);
  await assertReadyToSend(db, campaign);
  // The same checklist the web shows before "Continuar" (shared/src/send-checklist.ts): the sender, verified by
  // the one sending rule (403 sender_not_verified), and the business identity of the footer (name, CNPJ/CPF,
  // address) before any campaign goes out.
  const from = campaign.fromEmail?.trim() || account.defaultFromEmail?.trim();
  const isSenderVerified = from ? await isSenderAllowed(db, account.id, from) : undefined;
  throwFirstMissing(missingCampaignChecks(campaign, account, isSenderVerified));
}

/**
 * "Enviar": moves the campaign to sending and, in the same transaction, snapshots its recipients into one
 * message row each and reserves their cost on the ledger. Either all three happen or none (a short balance
 * rolls the status and the snapshot back and answers 409 with the missing amount). A second concurrent send
 * waits for the first's row lock, then finds the status changed and gets 409 — never a second snapshot.
 * `user` is null for the scheduler (the user was checked when the campaign was scheduled); `now` starts the A/B
 * test's wait.
 */
export async function startCampaignSend(
  db: Db,
  accountId: string,
  campaignId: string,
  user: { emailVerified: boolean } | null,
  now: Date = new Date(),
): Promise<StartCampaignSendResult> {
  const campaign = await findCampaignRow(db, accountId, campaignId);
  if (campaign.status !== 'draft' && campaign.status !== 'scheduled') {
    throw new AppError(
      'campaign_already_sending',
      campaign.status === 'paused' ? 'Esta campanha está pausada: use "Retomar".' : ALREADY_SENDING,
    );
  }
  await assertCanSend(db, campaign, user ?? { emailVerified: true });

  return db.transaction(async (tx) => {
    // Compare-and-set: only one transaction can move the row out of draft/scheduled.
    const started = await writeCampaignStatus(asDb(tx), {
      campaignId,
      accountId,
      from: STARTABLE,
      to: 'sending',
      extra: { startedAt: now },
    });
    if (!started) throw new AppError('campaign_already_sending', ALREADY_SENDING);

    // The snapshot: the audience query already yields each contact once (distinct across included lists and
    // segments). One
    // statement, so the campaign's ids are one ascending run (other campaigns' snapshots may interleave ids);
    // the engine carves its batches from the first to the last.
    const audience = await campaignAudience(asDb(tx), accountId, started);
    // An A/B test snapshots the audience in a shuffled order (md5 of contact and campaign: fixed for the
    // campaign, unrelated to the list order), so the test share taken from the first ids is a random sample.
    const order = started.abTest ? sql`order by md5(a.id::text || ${campaignId})` : sql``;
    const [inserted] = await queryRows<{ n: number | string; first: number | string; last: number | string }>(
      asDb(tx),
      sql`with inserted as (${enqueueMessagesSql({
        streamId: campaignId,
        accountId,
        columns: { contactId: sql`a.id`, email: sql`a.email` },
        from: sql`from (${audienceQuery(accountId, audience)}) a ${order}`,
        skipDuplicates: true,
        returning: sql`id`,
      })})
          select count(*)::int as n, coalesce(min(id), 0) as first, coalesce(max(id), 0) as last from inserted`,
    );
    const recipients = Number(inserted?.n ?? 0);
    if (recipients === 0) {
      throw new AppError(
        'campaign_not_ready',
        'Nenhum destinatário: as listas e segmentos escolhidos não têm contatos inscritos.',
      );
    }

    const reservation = await reserveForCampaign(asDb(tx), {
      accountId,
      campaignId,
      recipients,
      campaignName: started.name,
    });
    const first = Number(inserted?.first);
    const last = Number(inserted?.last);
    // A/B test: the variants of the test share are written in this transaction, with the snapshot.
    const ab = started.abTest ? await assignTestVariants(asDb(tx), started, recipients, last) : null;
    await tx.insert(campaignSends).values({
      campaignId,
      accountId,
      recipients,
      reservedMillis: reservation.reservedMillis,
      nextMessageId: first,
      lastMessageId: ab ? ab.testLastMessageId : last,
      ...(ab
        ? {
            abDecideAt: new Date(now.getTime() + (started.abTest?.waitHours ?? 0) * 3_600_000),
            abTestLastMessageId: ab.testLastMessageId,
            abHeldLastMessageId: last,
          }
        : {}),
    });
    await tx.update(campaigns).set({ recipientsCount: recipients }).where(eq(campaigns.id, campaignId));
    await emitCampaignEvent(tx, campaignId, 'campaign.started', { recipients }); // outbound webhook
    return { ok: true as const, campaignId, recipients, reservedMillis: reservation.reservedMillis };
  });
}

/**
 * The A/B split, in the snapshot's transaction (ADR 0020): the first `abTestSize` message ids of the campaign
 * (the snapshot is shuffled, so they are a random sample) get variants 0, 1, 2… in turn — an even split, sizes
 * differing by at most one. The rest keep variant null ("held"): the cursor stops at the last test id, so no
 * batch holds them until the winner is chosen. Written once, here: a recipient's row (unique per campaign and
 * contact) carries its one variant whatever happens to the workers.
 */
async function assignTestVariants(
  db: Db,
  campaign: CampaignRow,
  recipients: number,
  last: number,
): Promise<{ testLastMessageId: number }> {
  const ab = campaign.abTest as AbTestConfig;
  const variantCount = ab.variants.length + 1;
  const testSize = abTestSize(recipients, ab.testPercent, variantCount);
  const boundary = await assignVariantsInTurn(db, campaign.id, testSize, variantCount);
  return { testLastMessageId: boundary ?? last };
}

/**
 * Starts every scheduled campaign whose time has come (the sweep, every SENDING_SCHEDULE_SWEEP_SECONDS in
 * each worker). Lost races and campaigns that can no longer be sent are logged and left to the owner:
 * a campaign refused here (short balance, emptied lists) goes back to draft so it does not retry forever.
 */
export async function startDueCampaigns(
  db: Db,
  onRefused: (campaignId: string, error: unknown) => void,
  now = new Date(),
): Promise<string[]> {
  const due = await db
    .select({ id: campaigns.id, accountId: campaigns.createdBy })
    .from(campaigns)
    .where(and(eq(campaigns.status, 'scheduled'), sql`${campaigns.scheduledAt} <= ${now.toISOString()}`));
  const started: string[] = [];
  for (const campaign of due) {
    try {
      await startCampaignSend(db, campaign.accountId, campaign.id, null, now);
      started.push(campaign.id);
    } catch (error) {
      if (error instanceof AppError && error.code === 'campaign_already_sending') continue; // another worker started it
      onRefused(campaign.id, error);
      await writeCampaignStatus(db, { campaignId: campaign.id, from: ['scheduled'], to: 'draft' });
    }
  }
  return started;
}
