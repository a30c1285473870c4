import { sql } from 'drizzle-orm';
import { type Db, queryRows } from '../../../db/database';

/**
 * The report as it was counted before migration 0064, from the automation's history: every enrollment, and per
 * step its runs with a message, each probed for a person's open and click among its message's events. The oracle.
 */
export async function countedFromHistory(db: Db, automationId: string) {
  const [counts] = await queryRows<{ enrolled: number; active: number; completed: number; exited: number }>(
    db,
    sql`select count(*)::int as enrolled,
               (count(*) filter (where status = 'active'))::int as active,
               (count(*) filter (where status = 'completed'))::int as completed,
               (count(*) filter (where status = 'exited'))::int as exited
          from automation_enrollments where automation_id = ${automationId}`,
  );
  const steps = await queryRows<{ id: string; sent: number; opens: number; clicks: number }>(
    db,
    sql`select s.id, (count(r.message_id))::int as sent,
               (count(*) filter (where ev.opened))::int as opens,
               (count(*) filter (where ev.clicked))::int as clicks
          from automation_steps s
          left join automation_step_runs r on r.step_id = s.id and r.message_id is not null
          left join lateral (
            select bool_or(me.kind = 'open') as opened, bool_or(me.kind = 'click') as clicked
              from message_events me
             where me.message_id = r.message_id and not me.machine and me.kind in ('open', 'click')
          ) ev on true
         where s.automation_id = ${automationId}
         group by s.id, s.position
         order by s.position`,
  );
  return {
    enrolled: Number(counts?.enrolled),
    active: Number(counts?.active),
    completed: Number(counts?.completed),
    exited: Number(counts?.exited),
    steps: steps.map((s) => ({ stepId: s.id, sent: Number(s.sent), opens: Number(s.opens), clicks: Number(s.clicks) })),
  };
}
