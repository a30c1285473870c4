import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import type { Config } from '../../config';
import { asDb, type Db, queryRows } from '../../db/database';
import { transitionCampaignStatus } from '../campaigns/campaign-controls';
import { countCampaignOutcome, setCampaignPausedReason } from '../campaigns/campaign-records';
import { markContactUndeliverable } from '../contacts/contact-status';
import { suppressEmail } from '../contacts/suppression';
import { unsubscribeMemberships } from '../lists/memberships';
import { campaignUniqueMessagesSql, REPORT_CLASS } from '../reports/report-classes';
import { findMessageByToken, type MessageFacts } from '../sending/find-message';
import { type BounceKind, recordMessageEventOnce } from '../tracking/message-events';
import { emitCampaignEvent, emitMessageEvent } from '../webhooks/emit-event';
import { campaignAlerts } from './bounces.db';

const formatPercent = (rate: number) => `${(rate * 100).toLocaleString('pt-BR', { maximumFractionDigits: 2 })}%`;

/** The BOUNCE_* and PROTECTION_* settings (config.ts) in the units this module uses. */
export function reportSettingsFrom(config: Config): ReportSettings {
  return {
    softBounceLimit: config.BOUNCE_SOFT_LIMIT,
    protectionMinDeliveries: config.PROTECTION_MIN_DELIVERIES,
    protectionHardBounceRate: config.PROTECTION_HARD_BOUNCE_RATE,
    protectionComplaintRate: config.PROTECTION_COMPLAINT_RATE,
  };
}

export interface ReportSettings {
  /** Soft bounces of one contact (any campaign) after which the contact is treated as bounced. */
  softBounceLimit: number;
  /** Auto-pause: only once a campaign has at least this many deliveries. */
  protectionMinDeliveries: number;
  /** Auto-pause when hard bounces / deliveries exceeds this (0.05 = 5%). */
  protectionHardBounceRate: number;
  /** Auto-pause when complaints / deliveries exceeds this (0.001 = 0.1%). */
  protectionComplaintRate: number;
}

export const DEFAULT_REPORT_SETTINGS: ReportSettings = {
  softBounceLimit: 3,
  protectionMinDeliveries: 500,
  protectionHardBounceRate: 0.05,
  protectionComplaintRate: 0.001,
};

export type DeliveryReport =
  | { type: 'bounce'; bounceKind: BounceKind; status: string | null; diagnostic: string | null; source: string }
  | { type: 'complaint'; feedbackType: string; source: string };

export type ReportOutcome =
  | { recorded: false; reason: 'unknown_message' | 'duplicate' }
  | { recorded: true; messageId: number; campaignId: string; suppressed: boolean; paused: boolean };

/** Marks the contact bounced/complained and suppresses the address for every stream (complaints: off every list too). */
async function suppressContact(db: Db, message: MessageFacts, reason: 'bounced' | 'complained'): Promise<void> {
  await db.transaction(async (tx) => {
    const t = asDb(tx);
    if (message.contact_id) {
      await markContactUndeliverable(t, message.account_id, message.contact_id, reason);
      if (reason === 'complained') await unsubscribeMemberships(t, message.contact_id);
    }
    // Every stream (shared SUPPRESSION_SCOPE), beside any earlier reason of the address (an unsubscribe stays).
    await suppressEmail(t, message.account_id, message.email, reason);
  });
}

/**
 * Applies a bounce or complaint to the message it names (by its opaque token; an unknown token is ignored):
 * records the event once per message and kind, then
 * - hard: contact bounced + address suppressed;
 * - soft: suppressed once the contact has `softBounceLimit` soft bounces;
 * - policy (5.7.x): recorded and flagged for the operator, the mailbox is not marked invalid;
 * - complaint: contact complained, unsubscribed from every list of the account, address suppressed;
 * and finally checks the campaign's protection thresholds.
 */
export async function recordDeliveryReport(
  db: Db,
  token: string,
  report: DeliveryReport,
  settings: ReportSettings,
  logger?: Logger,
): Promise<ReportOutcome> {
  const message = await findMessageByToken(db, token);
  if (!message) return { recorded: false, reason: 'unknown_message' };
  const kind = report.type;
  const bounceKind = report.type === 'bounce' ? report.bounceKind : null;
  const detail =
    report.type === 'bounce'
      ? [report.status, report.diagnostic].filter(Boolean).join(' ').slice(0, 1000) || null
      : report.feedbackType;
  const recorded = await recordMessageEventOnce(db, {
    messageId: message.id,
    campaignId: message.campaign_id,
    accountId: message.account_id,
    contactId: message.contact_id,
    kind,
    bounceKind,
    detail,
    userAgent: report.source,
  });
  if (!recorded) return { recorded: false, reason: 'duplicate' };
  // Outbound webhooks.
  if (report.type === 'complaint') await emitMessageEvent(db, message.id, 'message.complained');
  else await emitMessageEvent(db, message.id, 'message.bounced', { bounceType: report.bounceKind, reason: detail });

  let suppressed = false;
  if (report.type === 'complaint') {
    await suppressContact(db, message, 'complained');
    await countCampaignOutcome(db, message.campaign_id, 'complained');
    suppressed = true;
  } else if (report.bounceKind === 'hard') {
    await suppressContact(db, message, 'bounced');
    await countCampaignOutcome(db, message.campaign_id, 'bounced');
    suppressed = true;
  } else if (report.bounceKind === 'soft') {
    const [row] = await queryRows<{ n: number }>(
      db,
      message.contact_id
        ? sql`select count(*)::int as n from message_events
              where contact_id = ${message.contact_id} and kind = 'bounce' and bounce_kind = 'soft'`
        : sql`select 0 as n`,
    );
    if (Number(row?.n ?? 0) >= settings.softBounceLimit) {
      await suppressContact(db, message, 'bounced');
      suppressed = true;
    }
  } else {
    await db.insert(campaignAlerts).values({
      campaignId: message.campaign_id,
      accountId: message.account_id,
      kind: 'policy_rejection',
      reason: `Rejeição por política (${report.status ?? '5.7.x'}) do provedor do destinatário: verifique SPF, DKIM, DMARC e a reputação do domínio remetente.`,
    });
  }
  const paused = await checkCampaignProtection(db, message.campaign_id, settings);
  logger?.info(
    { campaignId: message.campaign_id, messageId: message.id, kind, bounceKind, suppressed, paused },
    'delivery report recorded',
  );
  return { recorded: true, messageId: message.id, campaignId: message.campaign_id, suppressed, paused };
}

/**
 * Auto-pause (product §5 E): a sending campaign with at least `protectionMinDeliveries` deliveries pauses
 * when hard bounces or complaints pass their rate. The pt-BR reason goes on campaign_sends.paused_reason
 * (shown to the sender) and a campaign_alerts row flags it for the operator. True when this call paused it.
 */
export async function checkCampaignProtection(db: Db, campaignId: string, settings: ReportSettings): Promise<boolean> {
  const [stats] = await queryRows<{
    status: string;
    account_id: string;
    delivered: number;
    hard: number;
    complaints: number;
  }>(
    db,
    // Deliveries and refusals from the campaign's counters (kept by the engine with the rows; a count over a
    // million message rows for every bounce received would not do), messages bounced and complained about from the
    // campaign report's rollup (the same unique counts the report shows, without reading every bounce event). Only
    // for a sending campaign: the rollup sums read every hour of the campaign, and a transactional stream (never
    // paused, always `sent`) has every hour of its life (~70 ms at two years, for each bounce it received).
    sql`select c.status, c.created_by as account_id, c.sent_count as delivered,
               ${campaignUniqueMessagesSql(sql`c.id`, REPORT_CLASS.hardBounce)} + c.rejected_count as hard,
               ${campaignUniqueMessagesSql(sql`c.id`, REPORT_CLASS.complaint)} as complaints
          from campaigns c where c.id = ${campaignId} and c.status = 'sending'`,
  );
  if (stats?.status !== 'sending') return false;
  const delivered = Number(stats.delivered);
  const attempted = delivered;
  if (attempted < settings.protectionMinDeliveries || attempted === 0) return false;
  const hardRate = Number(stats.hard) / attempted;
  const complaintRate = Number(stats.complaints) / attempted;
  let kind: 'hard_bounce_rate' | 'complaint_rate' | null = null;
  let reason = '';
  if (complaintRate > settings.protectionComplaintRate) {
    kind = 'complaint_rate';
    reason = `Envio pausado automaticamente: a taxa de reclamações de spam chegou a ${formatPercent(complaintRate)} (limite ${formatPercent(settings.protectionComplaintRate)}) após ${delivered} entregas. Revise a origem da lista e o conteúdo antes de retomar.`;
  } else if (hardRate > settings.protectionHardBounceRate) {
    kind = 'hard_bounce_rate';
    reason = `Envio pausado automaticamente: a taxa de devoluções permanentes chegou a ${formatPercent(hardRate)} (limite ${formatPercent(settings.protectionHardBounceRate)}) após ${delivered} entregas. Limpe a lista (endereços inválidos) antes de retomar.`;
  }
  if (!kind) return false;
  if (!(await transitionCampaignStatus(db, campaignId, ['sending'], 'paused'))) return false;
  await setCampaignPausedReason(db, campaignId, reason);
  await emitCampaignEvent(db, campaignId, 'campaign.paused', { reason }); // outbound webhook
  await db.insert(campaignAlerts).values({ campaignId, accountId: stats.account_id, kind, reason });
  return true;
}
