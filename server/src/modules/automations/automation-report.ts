import type { AutomationReport } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { findAutomationRow } from './automations';

/**
 * How many delta rows an automation may pile up before a report folds them into one per step: summing a few hundred
 * rows costs nothing next to the request; between two polls (15 s) a busy automation appends one per enrolling
 * statement, per step batch and per event batch that touched its messages.
 */
export const AUTOMATION_REPORT_FOLD_AT = 500;

interface CountRow {
  step_id: string | null;
  enrolled: number;
  active: number;
  completed: number;
  exited: number;
  sent: number;
  opened: number;
  clicked: number;
  count_rows: number;
}

/**
 * Per-automation report: contacts that entered, are in it now, finished every step, left (unsubscribed,
 * suppressed, deleted, off the list); per step the messages sent and how many of them a person opened or
 * clicked (human events only: Apple MPP and link scanners are left out, as in campaign reports). Read from the
 * automation's delta rows (automation_report_deltas, kept by triggers on enrollments, step runs and message
 * events: migration 0064), so its cost follows the rows appended since the last fold, not the history. 404 for
 * another account's automation.
 */
export async function automationReport(db: Db, accountId: string, id: string): Promise<AutomationReport> {
  await findAutomationRow(db, accountId, id); // 404 for another account's automation
  const [steps, counts] = await Promise.all([
    queryRows<{ id: string; position: number; template_name: string | null }>(
      db,
      sql`select s.id, s.position, t.name as template_name
            from automation_steps s
            left join templates t on t.id = s.template_id and t.account_id = ${accountId}
           where s.automation_id = ${id}
           order by s.position`,
    ),
    queryRows<CountRow>(
      db,
      sql`select step_id, sum(enrolled)::int as enrolled, sum(active)::int as active,
                 sum(completed)::int as completed, sum(exited)::int as exited, sum(sent)::int as sent,
                 sum(opened)::int as opened, sum(clicked)::int as clicked, count(*)::int as count_rows
            from automation_report_deltas where automation_id = ${id}
           group by step_id`,
    ),
  ]);
  const rowCount = counts.reduce((n, c) => n + Number(c.count_rows), 0);
  if (rowCount > AUTOMATION_REPORT_FOLD_AT) await foldAutomationReport(db, id);
  const total = counts.find((c) => c.step_id === null);
  const byStep = new Map(counts.map((c) => [c.step_id, c]));
  return {
    automationId: id,
    enrolled: Number(total?.enrolled ?? 0),
    active: Number(total?.active ?? 0),
    completed: Number(total?.completed ?? 0),
    exited: Number(total?.exited ?? 0),
    steps: steps.map((s) => {
      const c = byStep.get(s.id);
      return {
        stepId: s.id,
        position: Number(s.position),
        templateName: s.template_name,
        sent: Number(c?.sent ?? 0),
        opens: Number(c?.opened ?? 0),
        clicks: Number(c?.clicked ?? 0),
      };
    }),
  };
}

/**
 * Folds an automation's delta rows into one row per step (and one for its enrollments), in one statement: rows a
 * concurrent writer appends meanwhile are not yet visible to it and stay as they are, so the sums never change. The
 * rows of a step deleted meanwhile are not written back.
 */
export async function foldAutomationReport(db: Db, automationId: string): Promise<void> {
  await db.execute(
    sql`with gone as (
          delete from automation_report_deltas where automation_id = ${automationId}
          returning automation_id, step_id, enrolled, active, completed, exited, sent, opened, clicked)
        insert into automation_report_deltas (automation_id, step_id, enrolled, active, completed, exited, sent, opened, clicked)
        select automation_id, step_id, sum(enrolled), sum(active), sum(completed), sum(exited),
               sum(sent), sum(opened), sum(clicked)
          from gone
         where step_id is null or exists (select 1 from automation_steps s where s.id = gone.step_id)
         group by automation_id, step_id`,
  );
}
