import { randomUUID } from 'node:crypto';
import {
  type AbTestConfig,
  assertTransition,
  type CampaignCreateInput,
  type CampaignStatus,
  type CampaignUpdateInput,
  DEFAULT_TIME_ZONE,
  isDeletable,
  isEditable,
  missingSendChecks,
  type SendCheckInput,
  type SendCheckItem,
} from '@carteiro/shared';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { notFound } from '../../http/not-found';
import { findAccount } from '../accounts/accounts.service';
import { findCustomFieldNames } from '../contacts/custom-field-names';
import { findListSummaries } from '../lists/list-directory';
import { assertOwnSegments } from '../segments/segments';
import { assertSenderAllowed, isSenderAllowed } from '../sender-identities/sender-identities';
import { findTemplate } from '../templates/templates';
import { assertHasUnsubscribeLink, assertValidTemplate } from '../templates/validate-template';
import { writeCampaignStatus } from './campaign-status';
import { type CampaignView, toCampaignView } from './campaign-view';
import { type CampaignRow, campaigns } from './campaigns.db';
import { zonedLocalToDate } from './zoned-time';

const notEditable = (message: string) => new AppError('campaign_not_editable', message);

/** The account's campaigns (spec §6: created_by = account), most recently updated first (spec §9). */
export async function findCampaigns(db: Db, accountId: string): Promise<CampaignView[]> {
  const rows = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.createdBy, accountId), eq(campaigns.kind, 'campaign')))
    .orderBy(desc(campaigns.updatedAt), desc(campaigns.id));
  return rows.map(toCampaignView);
}

/** The row of one campaign of the account; 404 (never 403) when it is another account's. */
export async function findCampaignRow(db: Db, accountId: string, id: string): Promise<CampaignRow> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.createdBy, accountId), eq(campaigns.id, id), eq(campaigns.kind, 'campaign')));
  if (!row) throw notFound('campaign');
  return row;
}

export async function findCampaign(db: Db, accountId: string, id: string): Promise<CampaignView> {
  return toCampaignView(await findCampaignRow(db, accountId, id));
}

async function assertOwnLists(db: Db, accountId: string, ids: string[]): Promise<void> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return;
  const found = await findListSummaries(db, unique, accountId);
  if (found.length !== unique.length) throw new AppError('validation_failed', ERROR_TEXT.lists.unknownChosen);
}

async function assertTemplateParts(
  db: Db,
  accountId: string,
  parts: { subject?: string; preheader?: string; template?: string; abTest?: AbTestConfig | null },
): Promise<void> {
  const variants = parts.abTest?.variants ?? [];
  if (
    parts.subject === undefined &&
    parts.preheader === undefined &&
    parts.template === undefined &&
    variants.length === 0
  )
    return;
  const fieldNames = await findCustomFieldNames(db, accountId);
  assertValidTemplate({ subject: parts.subject, preheader: parts.preheader, html: parts.template }, fieldNames);
  // A/B variants: their subjects and own content are Liquid too (the same limits and custom fields).
  for (const variant of variants) {
    assertValidTemplate({ subject: variant.subject, html: variant.template ?? undefined }, fieldNames);
  }
}

/** Copies a library template's HTML and builder project (and subject, when the campaign has none). */
async function withLibraryTemplate<T extends { templateId?: string; template?: string; subject?: string }>(
  db: Db,
  accountId: string,
  input: T,
): Promise<Omit<T, 'templateId'> & { templateProject?: Record<string, unknown> | null }> {
  const { templateId, ...rest } = input;
  if (!templateId) return rest;
  const library = await findTemplate(db, accountId, templateId);
  return {
    ...rest,
    template: library.html,
    templateProject: library.builderProject,
    subject: rest.subject || library.subject || rest.subject,
  };
}

/**
 * Creates a draft owned by the account (created_by is the caller's account, never the body's). 409 when the
 * client uuid is already used; 400 for lists of another account or broken Liquid.
 */
export async function createCampaign(db: Db, accountId: string, input: CampaignCreateInput): Promise<CampaignView> {
  const values = await withLibraryTemplate(db, accountId, input);
  await assertOwnLists(db, accountId, [...(values.includeListIds ?? []), ...(values.excludeListIds ?? [])]);
  await assertOwnSegments(db, accountId, values.includeSegmentIds ?? []);
  await assertTemplateParts(db, accountId, values);
  const [row] = await db
    .insert(campaigns)
    .values({ ...values, uuid: values.uuid ?? randomUUID(), createdBy: accountId, status: 'draft' })
    .onConflictDoNothing({ target: campaigns.uuid })
    .returning();
  if (!row) throw new AppError('campaign_exists');
  return toCampaignView(row);
}

const NOT_EDITABLE = 'Esta campanha já começou a ser enviada e não pode mais ser editada.';

/**
 * Updates a draft or scheduled campaign (updated_at set). 409 once sending has started (status checked in the
 * same UPDATE, so a campaign that starts sending meanwhile is not modified).
 */
export async function updateCampaign(
  db: Db,
  accountId: string,
  id: string,
  input: CampaignUpdateInput,
): Promise<CampaignView> {
  const current = await findCampaignRow(db, accountId, id);
  if (!isEditable(current.status)) throw notEditable(NOT_EDITABLE);
  const values = await withLibraryTemplate(db, accountId, input);
  await assertOwnLists(db, accountId, [...(values.includeListIds ?? []), ...(values.excludeListIds ?? [])]);
  await assertOwnSegments(db, accountId, values.includeSegmentIds ?? []);
  await assertTemplateParts(db, accountId, values);
  const [row] = await db
    .update(campaigns)
    .set({ ...values, updatedAt: new Date() })
    .where(
      and(eq(campaigns.createdBy, accountId), eq(campaigns.id, id), inArray(campaigns.status, ['draft', 'scheduled'])),
    )
    .returning();
  if (!row) throw notEditable(NOT_EDITABLE);
  return toCampaignView(row);
}

/** Deletes a draft; 409 for any other status (cancel instead), 404 when not the account's. */
export async function deleteCampaign(db: Db, accountId: string, id: string): Promise<void> {
  const current = await findCampaignRow(db, accountId, id);
  const refusal = 'Só rascunhos podem ser excluídos. Cancele a campanha em vez de excluí-la.';
  if (!isDeletable(current.status)) throw notEditable(refusal);
  const rows = await db
    .delete(campaigns)
    .where(and(eq(campaigns.createdBy, accountId), eq(campaigns.id, id), eq(campaigns.status, 'draft')))
    .returning({ id: campaigns.id });
  if (rows.length === 0) throw notEditable(refusal);
}

/**
 * What a new draft made from another campaign carries over as the message itself (beside its subject, which each
 * maker decides): the duplicate and the resend to non-openers both start from it, so a content column added to
 * campaigns is added here once.
 */
export function messageContentOf(original: CampaignRow) {
  return {
    preheader: original.preheader,
    fromName: original.fromName,
    fromEmail: original.fromEmail,
    replyTo: original.replyTo,
    template: original.template,
    templateProject: original.templateProject,
    trackOpens: original.trackOpens,
    trackClicks: original.trackClicks,
  };
}

/** A new draft with the same content, named "Cópia de …", a new uuid, no schedule and zero counters. */
export async function duplicateCampaign(db: Db, accountId: string, id: string): Promise<CampaignView> {
  const original = await findCampaignRow(db, accountId, id);
  const [row] = await db
    .insert(campaigns)
    .values({
      uuid: crypto.randomUUID(),
      createdBy: accountId,
      name: `Cópia de ${original.name}`.slice(0, 200),
      subject: original.subject,
      ...messageContentOf(original),
      includeListIds: original.includeListIds,
      excludeListIds: original.excludeListIds,
      includeSegmentIds: original.includeSegmentIds,
      resendOfCampaignId: original.resendOfCampaignId,
      abTest: original.abTest,
      status: 'draft',
    })
    .returning();
  if (!row) throw new Error('campaign insert returned nothing');
  return toCampaignView(row);
}

/**
 * What the shared send checklist (shared/src/send-checklist.ts) finds missing in a campaign row; with the account,
 * its sender (filled in and, when `isSenderVerified` is given, passing `isSenderAllowed`) and footer identity too.
 * The web shows the same list before "Continuar".
 */
export function missingCampaignChecks(
  campaign: CampaignRow,
  account?: SendCheckInput['account'],
  isSenderVerified?: boolean,
): SendCheckItem[] {
  return missingSendChecks({
    campaignId: campaign.id,
    subject: campaign.subject,
    includeListIds: campaign.includeListIds,
    includeSegmentIds: campaign.includeSegmentIds,
    resendOfCampaignId: campaign.resendOfCampaignId,
    html: campaign.template,
    fromEmail: campaign.fromEmail,
    isSenderVerified,
    account,
  });
}

/**
 * The first missing item as its error (409 campaign_not_ready, or 403 sender_not_verified for an unverified From)
 * with its message, and which check and where to fix it.
 */
export function throwFirstMissing(items: SendCheckItem[]): void {
  const [missing] = items;
  if (!missing) return;
  const details = { check: missing.key, fix: missing.fix, ...(missing.key === 'sender' ? { field: 'fromEmail' } : {}) };
  throw new AppError(missing.errorCode, missing.problem, details);
}

/**
 * Throws 409 campaign_not_ready with a pt-BR message when the campaign cannot be sent as it is: no subject,
 * no audience, no HTML, broken Liquid, or no unsubscribe link. Used by scheduling and by the sending engine.
 * Not a validation error of the request (a send names only the campaign): the campaign's stored content is what
 * is missing, so the answer changes once the campaign is fixed — and an Idempotency-Key does not replay it.
 */
export async function assertReadyToSend(db: Db, campaign: CampaignRow): Promise<void> {
  try {
    await checkReadyToSend(db, campaign);
  } catch (error) {
    if (error instanceof AppError && error.code === 'validation_failed') {
      throw new AppError('campaign_not_ready', error.message, error.details);
    }
    throw error;
  }
}

async function checkReadyToSend(db: Db, campaign: CampaignRow): Promise<void> {
  // Subject, audience and content: the shared checklist the web shows before sending (same messages).
  throwFirstMissing(missingCampaignChecks(campaign).filter((item) => item.key !== 'unsubscribe')); // checked below
  assertValidTemplate(
    { subject: campaign.subject, preheader: campaign.preheader, html: campaign.template },
    await findCustomFieldNames(db, campaign.createdBy),
  );
  assertHasUnsubscribeLink(campaign.template);
  // An A/B test decided by opens (clicks) needs them tracked, or every variant scores 0 and A always wins.
  if (campaign.abTest?.criterion === 'opens' && !campaign.trackOpens) {
    throw new AppError(
      'validation_failed',
      'O teste A/B escolhe o vencedor pelas aberturas: ligue o rastreamento de aberturas (etapa Rastreamento).',
    );
  }
  if (campaign.abTest?.criterion === 'clicks' && !campaign.trackClicks) {
    throw new AppError(
      'validation_failed',
      'O teste A/B escolhe o vencedor pelos cliques: ligue o rastreamento de cliques (etapa Rastreamento).',
    );
  }
  // A/B variants with content of their own: the same Liquid check and the unsubscribe link in each.
  const fieldNames = campaign.abTest ? await findCustomFieldNames(db, campaign.createdBy) : [];
  for (const variant of campaign.abTest?.variants ?? []) {
    assertValidTemplate({ subject: variant.subject, html: variant.template ?? undefined }, fieldNames);
    if (variant.template) assertHasUnsubscribeLink(variant.template);
  }
}

/**
 * Moves a campaign to `to` through the status machine (409 with a pt-BR reason when not allowed), guarded by
 * the status it was read with so two concurrent changes cannot both win. `extra` columns are set alongside.
 */
export async function transitionCampaign(
  db: Db,
  accountId: string,
  id: string,
  to: CampaignStatus,
  extra: Partial<typeof campaigns.$inferInsert> = {},
): Promise<CampaignView> {
  const current = await findCampaignRow(db, accountId, id);
  assertTransition(current.status, to, notEditable);
  const row = await writeCampaignStatus(db, { campaignId: id, accountId, from: [current.status], to, extra });
  if (!row) throw notEditable('A campanha mudou de situação enquanto você a alterava. Recarregue e tente de novo.');
  return toCampaignView(row);
}

const MIN_SCHEDULE_LEAD_MS = 60_000;

/**
 * Schedules (or reschedules) a draft or scheduled campaign. `scheduledAt` without offset is read in the
 * account's time zone; it must be at least a minute ahead. The campaign must be ready to send, from a verified
 * sender.
 */
export async function scheduleCampaign(
  db: Db,
  accountId: string,
  id: string,
  scheduledAtText: string,
  now = new Date(),
): Promise<CampaignView> {
  const account = await findAccount(db, accountId);
  const scheduledAt = zonedLocalToDate(scheduledAtText, account?.timeZone ?? DEFAULT_TIME_ZONE);
  if (Number.isNaN(scheduledAt.getTime()))
    throw new AppError('validation_failed', ERROR_TEXT.campaigns.invalidDateTime);
  if (scheduledAt.getTime() < now.getTime() + MIN_SCHEDULE_LEAD_MS)
    throw new AppError('validation_failed', ERROR_TEXT.campaigns.pastDateTime);
  const current = await findCampaignRow(db, accountId, id);
  // The From must be a confirmed address or at a verified domain now, not only when the time comes (ADR 0012).
  const assertSender = async () => {
    const fromEmail = current.fromEmail ?? account?.defaultFromEmail;
    if (fromEmail) await assertSenderAllowed(db, accountId, fromEmail);
  };
  if (current.status === 'scheduled') {
    await assertReadyToSend(db, current);
    await assertSender();
    const [row] = await db
      .update(campaigns)
      .set({ scheduledAt, updatedAt: new Date() })
      .where(and(eq(campaigns.id, id), eq(campaigns.createdBy, accountId), eq(campaigns.status, 'scheduled')))
      .returning();
    if (!row) throw notEditable('A campanha mudou de situação enquanto você a alterava. Recarregue e tente de novo.');
    return toCampaignView(row);
  }
  assertTransition(current.status, 'scheduled', notEditable);
  await assertReadyToSend(db, current);
  // The footer identity too, so a scheduled campaign does not fail for it when its time comes.
  throwFirstMissing(missingCampaignChecks(current, account ?? {}).filter((item) => item.key === 'identity'));
  await assertSender();
  return transitionCampaign(db, accountId, id, 'scheduled', { scheduledAt });
}

/** Back to draft, schedule cleared; 409 unless scheduled. */
export async function unscheduleCampaign(db: Db, accountId: string, id: string): Promise<CampaignView> {
  return transitionCampaign(db, accountId, id, 'draft', { scheduledAt: null });
}

/** What the calendar shows: campaigns waiting for their time and those sent or being sent. */
const CALENDAR_STATUSES: CampaignStatus[] = ['scheduled', 'sending', 'paused', 'sent'];

/**
 * Campaigns whose send time (scheduled_at, else started_at) is in [from, to) — for the calendar. Drafts,
 * cancelled and failed campaigns are left out even when they still carry a past schedule.
 */
export async function findCampaignsBetween(db: Db, accountId: string, from: Date, to: Date): Promise<CampaignView[]> {
  const rows = await db
    .select()
    .from(campaigns)
    .where(
      and(
        eq(campaigns.createdBy, accountId),
        inArray(campaigns.status, CALENDAR_STATUSES),
        sql`coalesce(${campaigns.scheduledAt}, ${campaigns.startedAt}) >= ${from.toISOString()}`,
        sql`coalesce(${campaigns.scheduledAt}, ${campaigns.startedAt}) < ${to.toISOString()}`,
      ),
    )
    .orderBy(sql`coalesce(${campaigns.scheduledAt}, ${campaigns.startedAt})`);
  return rows.map(toCampaignView);
}

/**
 * From addresses of the account's campaigns still to be sent (draft, scheduled, paused) that are not allowed
 * now: the dashboard notice after the migration ("confirme antes do próximo envio").
 */
export async function unverifiedCampaignSenders(db: Db, accountId: string): Promise<string[]> {
  const account = await findAccount(db, accountId);
  const pending = (await findCampaigns(db, accountId)).filter((c) =>
    ['draft', 'scheduled', 'paused'].includes(c.status),
  );
  const emails = new Set<string>();
  for (const c of pending) {
    const from = c.fromEmail ?? account?.defaultFromEmail;
    if (from) emails.add(from.toLowerCase());
  }
  const out: string[] = [];
  for (const email of emails) if (!(await isSenderAllowed(db, accountId, email))) out.push(email);
  return out.sort();
}
