import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/database';
import { queryRows } from '../../../db/database';
import type { AbVariantStats } from '../ab-report';
import type { CampaignEventCounts } from '../reports';

/*
 * The campaign report's counts read straight from message_events — the queries the report ran before its rollup
 * (count(distinct message_id) per kind over every event of the campaign). Tests only: the oracle the rollup must
 * equal field by field. Never a production path (it reads every event of the campaign).
 */

const n = (v: unknown) => Number(v ?? 0);

export async function rawCampaignEventCounts(db: Db, campaignId: string): Promise<CampaignEventCounts> {
  const [e] = await queryRows<Record<string, number>>(
    db,
    sql`select count(distinct message_id) filter (where kind = 'open' and not machine)::int as human_opens,
               count(*) filter (where kind = 'open' and machine)::int as machine_opens,
               count(*) filter (where kind = 'open')::int as total_opens,
               count(distinct message_id) filter (where kind = 'click' and not machine)::int as unique_clicks,
               count(*) filter (where kind = 'click' and machine)::int as machine_clicks,
               count(*) filter (where kind = 'click')::int as total_clicks,
               count(distinct message_id) filter (where kind = 'unsubscribe')::int as unsubscribes,
               count(distinct message_id) filter (where kind = 'bounce' and bounce_kind = 'hard')::int as hard,
               count(distinct message_id) filter (where kind = 'bounce' and bounce_kind = 'soft')::int as soft,
               count(distinct message_id) filter (where kind = 'bounce' and bounce_kind = 'policy')::int as policy,
               count(distinct message_id) filter (where kind = 'complaint')::int as complaints
          from message_events where campaign_id = ${campaignId}`,
  );
  const links = await queryRows<{ id: number; url: string; clicks: number; unique_clicks: number }>(
    db,
    sql`select l.id, l.url,
               count(e.id) filter (where not e.machine)::int as clicks,
               count(distinct e.message_id) filter (where not e.machine)::int as unique_clicks
          from campaign_links l
          left join message_events e on e.campaign_id = l.campaign_id and e.kind = 'click' and e.link_id = l.id
         where l.campaign_id = ${campaignId}
         group by l.id, l.url order by clicks desc, l.id`,
  );
  const series = await queryRows<Record<string, unknown>>(
    db,
    sql`select to_char(date_trunc('hour', created_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24":00:00Z"') as hour,
               count(*) filter (where kind = 'open' and not machine)::int as opens,
               count(*) filter (where kind = 'click' and not machine)::int as clicks,
               count(*) filter (where kind = 'unsubscribe')::int as unsubscribes,
               count(*) filter (where kind = 'bounce')::int as bounces,
               count(*) filter (where kind = 'complaint')::int as complaints
          from message_events where campaign_id = ${campaignId}
         group by 1 order by 1`,
  );
  return {
    humanOpens: n(e?.human_opens),
    machineOpens: n(e?.machine_opens),
    totalOpens: n(e?.total_opens),
    uniqueClicks: n(e?.unique_clicks),
    machineClicks: n(e?.machine_clicks),
    totalClicks: n(e?.total_clicks),
    unsubscribes: n(e?.unsubscribes),
    bounces: { hard: n(e?.hard), soft: n(e?.soft), policy: n(e?.policy) },
    complaints: n(e?.complaints),
    links: links.map((l) => ({ id: Number(l.id), url: l.url, clicks: n(l.clicks), uniqueClicks: n(l.unique_clicks) })),
    series: series.map((s) => ({
      hour: String(s.hour),
      opens: n(s.opens),
      clicks: n(s.clicks),
      unsubscribes: n(s.unsubscribes),
      bounces: n(s.bounces),
      complaints: n(s.complaints),
    })),
  };
}

/** The A/B variants' unique human opens and clicks of the test share, from every open and click event. */
export async function rawAbVariantCounts(
  db: Db,
  campaignId: string,
  testLastMessageId: number,
): Promise<Array<Pick<AbVariantStats, 'index' | 'uniqueOpens' | 'uniqueClicks'>>> {
  const rows = await queryRows<{ variant: number; opens: number; clicks: number }>(
    db,
    sql`select m.variant,
               count(distinct e.message_id) filter (where e.kind = 'open' and not e.machine)::int as opens,
               count(distinct e.message_id) filter (where e.kind = 'click' and not e.machine)::int as clicks
          from message_events e join messages m on m.id = e.message_id
         where e.campaign_id = ${campaignId} and e.kind in ('open', 'click')
           and m.campaign_id = ${campaignId} and m.id <= ${testLastMessageId} and m.variant is not null
         group by m.variant order by m.variant`,
  );
  return rows.map((r) => ({ index: n(r.variant), uniqueOpens: n(r.opens), uniqueClicks: n(r.clicks) }));
}
