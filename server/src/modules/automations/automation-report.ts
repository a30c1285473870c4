import type { AutomationReport } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { findAutomationRow } from './automations';

/**
 * Per-automation report: contacts that entered, are in it now, finished every step, left (unsubscribed,
 * suppressed, deleted, off the list); per step the messages sent and how many of them a person opened or
 * clicked (human events only: Apple MPP and link scanners are left out, as in campaign reports). The step runs
 * carry the message ids of the account's stream, whose events the tracking module records.
 */
export async function automationReport(db: Db, accountId: string, id: string): Promise<AutomationReport> {
  await findAutomationRow(db, accountId, id); // 404 for another account's automation
  const [counts] = await queryRows<{ enrolled: number; active: number; completed: number; exited: number }>(
    db,
    sql`select count(*)::int as enrolled,
               (count(*) filter (where status = 'active'))::int as active,
               (count(*) filter (where status = 'completed'))::int as completed,
               (count(*) filter (where status = 'exited'))::int as exited
          from automation_enrollments where automation_id = ${id}`,
  );
  const steps = await queryRows<{
    id: string;
    position: number;
    template_name: string | null;
    sent: number;
    opens: number;
    clicks: number;
  }>(
    db,
    sql`select s.id, s.position, t.name as template_name,
               (count(r.message_id))::int as sent,
               (count(*) filter (where ev.opened))::int as opens,
               (count(*) filter (where ev.clicked))::int as clicks
          from automation_steps s
          left join templates t on t.id = s.template_id and t.account_id = ${accountId}
          left join automation_step_runs r on r.step_id = s.id and r.message_id is not null
          left join lateral (
            select bool_or(me.kind = 'open') as opened, bool_or(me.kind = 'click') as clicked
              from message_events me
             where me.message_id = r.message_id and not me.machine and me.kind in ('open', 'click')
          ) ev on true
         where s.automation_id = ${id}
         group by s.id, s.position, t.name
         order by s.position`,
  );
  return {
    automationId: id,
    enrolled: Number(counts?.enrolled ?? 0),
    active: Number(counts?.active ?? 0),
    completed: Number(counts?.completed ?? 0),
    exited: Number(counts?.exited ?? 0),
    steps: steps.map((s) => ({
      stepId: s.id,
      position: Number(s.position),
      templateName: s.template_name,
      sent: Number(s.sent),
      opens: Number(s.opens),
      clicks: Number(s.clicks),
    })),
  };
}
