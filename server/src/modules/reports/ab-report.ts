import {
  type AbTestConfig,
  type AbTestReport,
  type AbVariantCounts,
  abCriterionLabel,
  abVariantLetter,
  plural,
} from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { REPORT_CLASS, VARIANT_CLASS_PREFIX, variantClass } from './report-classes';

export interface AbVariantStats extends AbVariantCounts {
  /** Test-share recipients of the variant. */
  recipients: number;
}

const n = (v: unknown) => Number(v ?? 0);

/**
 * Per variant of an A/B test, over the test share only (message ids up to the campaign's
 * `ab_test_last_message_id`, so the winner's later sends to the rest do not tilt the comparison): recipients,
 * delivered (marked sent), unique human opens and unique clicks — the campaign report's own rule (messages with a
 * human open / click), from the rollup's per-variant firsts (`variant:<n>:open|click`): hours × variants rows.
 */
export async function abVariantStats(
  db: Db,
  campaignId: string,
  variantCount: number,
  testLastMessageId: number,
): Promise<AbVariantStats[]> {
  const sent = await queryRows<{ variant: number; recipients: number; delivered: number }>(
    db,
    sql`select variant, count(*)::int as recipients, count(*) filter (where status = 'sent')::int as delivered
          from messages
         where campaign_id = ${campaignId} and id <= ${testLastMessageId} and variant is not null
         group by variant`,
  );
  const firsts = await queryRows<{ class: string; uniques: number | string }>(
    db,
    sql`select class, sum(uniques) as uniques from campaign_report_counts
         where campaign_id = ${campaignId} and starts_with(class, ${VARIANT_CLASS_PREFIX})
         group by class`,
  );
  const unique = (index: number, cls: string) => n(firsts.find((r) => r.class === variantClass(index, cls))?.uniques);
  return Array.from({ length: variantCount }, (_, index) => {
    const s = sent.find((r) => n(r.variant) === index);
    return {
      index,
      recipients: n(s?.recipients),
      delivered: n(s?.delivered),
      uniqueOpens: unique(index, REPORT_CLASS.humanOpen),
      uniqueClicks: unique(index, REPORT_CLASS.humanClick),
    };
  });
}

const rate = (x: number, of: number) => (of > 0 ? Math.round((x / of) * 10_000) / 10_000 : 0);

/** The A/B part of a campaign report, or null when the campaign is not an A/B test (or has not started). */
export async function abTestReport(
  db: Db,
  campaign: { id: string; subject: string; fromName: string | null; abTest: AbTestConfig | null },
): Promise<AbTestReport | null> {
  const ab = campaign.abTest;
  if (!ab) return null;
  const [send] = await queryRows<{
    decide_at: string | Date | null;
    decided_at: string | Date | null;
    winner: number | null;
    reason: string | null;
    test_last: number | string | null;
    held: number | string | null;
  }>(
    db,
    sql`select ab_decide_at as decide_at, ab_decided_at as decided_at, ab_winner as winner,
               ab_decision->>'reason' as reason, ab_test_last_message_id as test_last,
               case when ab_decided_at is null
                    then (select count(*) from messages m
                           where m.campaign_id = cs.campaign_id and m.id > cs.ab_test_last_message_id)
                    else 0 end as held
          from campaign_sends cs where cs.campaign_id = ${campaign.id} and cs.ab_decide_at is not null`,
  );
  if (!send?.decide_at) return null;
  const variants = [
    { subject: campaign.subject, fromName: campaign.fromName, template: null as string | null },
    ...ab.variants.map((v) => ({ subject: v.subject, fromName: v.fromName ?? null, template: v.template ?? null })),
  ];
  const stats = await abVariantStats(db, campaign.id, variants.length, n(send.test_last));
  const decideAt = new Date(send.decide_at);
  const hours = `${ab.waitHours} ${plural(ab.waitHours, 'hora', 'horas')}`;
  const waiting = `Teste em andamento: após ${hours} de espera, a variante com a maior ${abCriterionLabel(ab.criterion)} vai para o restante do público.`;
  return {
    criterion: ab.criterion,
    testPercent: ab.testPercent,
    waitHours: ab.waitHours,
    decideAt: decideAt.toISOString(),
    decidedAt: send.decided_at ? new Date(send.decided_at).toISOString() : null,
    winner: send.winner === null ? null : n(send.winner),
    reason: send.reason ?? waiting,
    held: n(send.held),
    variants: variants.map((v, index) => {
      const s = stats[index] as AbVariantStats;
      return {
        index,
        letter: abVariantLetter(index),
        subject: v.subject,
        fromName: v.fromName,
        ownContent: Boolean(v.template),
        recipients: s.recipients,
        delivered: s.delivered,
        uniqueOpens: s.uniqueOpens,
        uniqueClicks: s.uniqueClicks,
        openRate: rate(s.uniqueOpens, s.delivered),
        clickRate: rate(s.uniqueClicks, s.delivered),
      };
    }),
  };
}
