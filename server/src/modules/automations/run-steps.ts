import type { TransactionalMessageInput } from '@carteiro/shared';
import { sql } from 'drizzle-orm';
import type { Logger } from 'pino';
import { asDb, type Db, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import type { Mailer } from '../../mail/mailer';
import { reasonLabelSql } from '../contacts/recipient-eligibility';
import { commitTransactional, prepareTransactional, transactionalStreamId } from '../transactional/send-transactional';
import { pauseAutomationFor } from './automations';
import { enrollmentIneligibility } from './enroll';
import { notifyAutomationPaused } from './notify-paused';

export interface AutomationDeps {
  db: Db;
  mailer: Mailer | null;
  /** PUBLIC_URL: unsubscribe and "ver no navegador" links of the messages, the link of the owner's e-mail. */
  publicUrl: string;
  logger?: Pick<Logger, 'warn' | 'error'>;
}

/** Enrollments one transaction sends (one engine insert and one ledger entry per step of the batch). */
export const AUTOMATION_STEP_BATCH = 100;

interface DueRow {
  id: string;
  next_position: number;
  data: Record<string, unknown> | string | null;
  contact_id: string | null;
  email: string | null;
  name: string | null;
  fields: Record<string, string> | string | null;
  leave_reason: string | null;
}

interface StepRow {
  id: string;
  position: number;
  wait_amount: number;
  wait_unit: 'hours' | 'days';
  template_id: string;
  subject: string | null;
}

interface AutomationHead {
  id: string;
  account_id: string;
  name: string;
  status: string;
  trigger_type: string;
  list_id: string | null;
  from_email: string;
  from_name: string | null;
}

const asObject = <T>(value: T | string | null): T | null =>
  typeof value === 'string' ? (JSON.parse(value) as T) : value;

function waitMs(step: StepRow): number {
  return step.wait_amount * (step.wait_unit === 'days' ? 86_400_000 : 3_600_000);
}

/**
 * Sends the steps that are due (next_run_at ≤ now) of every active automation, a batch of enrollments per
 * transaction. Returns how many messages were queued.
 */
export async function runDueSteps(deps: AutomationDeps, now: Date): Promise<number> {
  const due = await queryRows<{ automation_id: string }>(
    deps.db,
    sql`select distinct e.automation_id from automation_enrollments e
          join automations a on a.id = e.automation_id and a.status = 'active'
         where e.status = 'active' and e.next_run_at <= ${now.toISOString()}::timestamptz
         limit 1000`,
  );
  let sent = 0;
  for (const { automation_id } of due) {
    // Bounded: a batch that makes no progress (all locked by another worker) ends the loop.
    for (let round = 0; round < 1000; round++) {
      const outcome = await runStepBatch(deps, automation_id, now);
      sent += outcome.sent;
      if (outcome.handled === 0 || outcome.stopped) break;
    }
  }
  return sent;
}

/**
 * One batch of one automation, in ONE transaction: lock due enrollments (SKIP LOCKED: several workers share the
 * work), exit those who left (unsubscribed, suppressed, deleted, off the list), and for the others insert the
 * step-run rows (primary key enrollment × step: never twice), queue their messages on the account's stream
 * through the transactional path (rendered with the template and the contact's fields, marketing form:
 * List-Unsubscribe and the unsubscribe link; charged on the ledger), link the runs to the message ids and move
 * each enrollment to its next step (or completed). A refusal of the sending path (short balance, template gone,
 * sender no longer verified, account suspended) rolls it all back — nothing sent, nothing marked — pauses the
 * automation with the pt-BR reason and e-mails the owner once; "Retomar" sends the same step then.
 */
export async function runStepBatch(
  deps: AutomationDeps,
  automationId: string,
  now: Date,
): Promise<{ handled: number; sent: number; stopped: boolean }> {
  const { db } = deps;
  const [head] = await queryRows<AutomationHead>(
    db,
    sql`select id, account_id, name, status, trigger_type, list_id, from_email, from_name
          from automations where id = ${automationId}`,
  );
  if (!head) return { handled: 0, sent: 0, stopped: true };
  if (head.status !== 'active') return { handled: 0, sent: 0, stopped: true };
  // Created (and committed) outside the batch's transaction: a rolled-back batch never leaves the per-process
  // cache of stream ids pointing at a campaign that does not exist.
  await transactionalStreamId(db, head.account_id);
  let failedStep = 0;
  try {
    return await db.transaction(async (tx) => {
      const t = asDb(tx);
      const stepRows = await queryRows<StepRow>(
        t,
        sql`select id, position, wait_amount, wait_unit, template_id, subject
              from automation_steps where automation_id = ${automationId} order by position`,
      );
      const steps = new Map(stepRows.map((s) => [s.position, s]));
      const rows = await queryRows<DueRow>(
        t,
        sql`select e.id, e.next_position, e.data, c.id as contact_id, c.email, c.name, c.fields,
                   ${reasonLabelSql(enrollmentIneligibility(sql`${head.trigger_type}::text`, sql`${head.list_id}::uuid`))} as leave_reason
              from automation_enrollments e
              left join contacts c on c.id = e.contact_id and c.account_id = e.account_id
             where e.automation_id = ${automationId} and e.status = 'active'
               and e.next_run_at <= ${now.toISOString()}::timestamptz
             order by e.next_run_at, e.id
             limit ${AUTOMATION_STEP_BATCH}
             for update of e skip locked`,
      );
      if (rows.length === 0) return { handled: 0, sent: 0, stopped: false };
      const at = now.toISOString();

      const leaving = rows.filter((r) => r.leave_reason);
      for (const r of leaving) {
        await t.execute(
          sql`update automation_enrollments set status = 'exited', exit_reason = ${r.leave_reason},
                     finished_at = ${at}::timestamptz where id = ${r.id}`,
        );
      }
      const staying = rows.filter((r) => !r.leave_reason);
      const finished = staying.filter((r) => !steps.has(r.next_position));
      if (finished.length > 0) {
        await t.execute(
          sql`update automation_enrollments set status = 'completed', finished_at = ${at}::timestamptz
               where id = any(${`{${finished.map((r) => r.id).join(',')}}`}::uuid[])`,
        );
      }

      let sent = 0;
      const byPosition = new Map<number, DueRow[]>();
      for (const r of staying) {
        if (!steps.has(r.next_position)) continue;
        byPosition.set(r.next_position, [...(byPosition.get(r.next_position) ?? []), r]);
      }
      for (const [position, group] of byPosition) {
        const step = steps.get(position) as StepRow;
        failedStep = position;
        // The claim: a run row per enrollment × step. One already there (cannot happen while the enrollment only
        // advances in this same transaction, but cheap to guard) is not sent again — the enrollment just moves on.
        const claimed = await queryRows<{ enrollment_id: string }>(
          t,
          sql`insert into automation_step_runs (enrollment_id, step_id, automation_id)
              select unnest(${`{${group.map((r) => r.id).join(',')}}`}::uuid[]), ${step.id}::uuid, ${automationId}::uuid
              on conflict (enrollment_id, step_id) do nothing
              returning enrollment_id`,
        );
        const fresh = new Set(claimed.map((c) => c.enrollment_id));
        const toSend = group.filter((r) => fresh.has(r.id));
        if (toSend.length > 0) {
          const inputs: TransactionalMessageInput[] = toSend.map((r) => {
            const fields = asObject<Record<string, string>>(r.fields) ?? {};
            const data = asObject<Record<string, unknown>>(r.data) ?? {};
            return {
              to: { email: r.email as string, ...(r.name ? { name: r.name } : {}) },
              from: { email: head.from_email, ...(head.from_name ? { name: head.from_name } : {}) },
              templateId: step.template_id,
              ...(step.subject ? { subject: step.subject } : {}),
              // The event's data is the template's `dados`; `evento` is its older name, kept for saved templates (ADR 0035).
              data: { ...data, evento: data, contato: fields },
              category: 'marketing',
              trackOpens: true,
              trackClicks: true,
              tags: ['automacao'],
            };
          });
          const prepared = await prepareTransactional(t, head.account_id, inputs, {
            publicUrl: deps.publicUrl,
            dataFrom: 'event',
          });
          const result = await commitTransactional(t, head.account_id, prepared);
          await t.execute(
            sql`update automation_step_runs r set message_id = x.message_id
                  from unnest(${`{${toSend.map((r) => r.id).join(',')}}`}::uuid[],
                              ${`{${result.messages.map((m) => m.id).join(',')}}`}::bigint[]) as x(enrollment_id, message_id)
                 where r.enrollment_id = x.enrollment_id and r.step_id = ${step.id}::uuid`,
          );
          sent += result.messages.filter((m) => m.status === 'queued').length;
        }
        const next = steps.get(position + 1);
        const ids = `{${group.map((r) => r.id).join(',')}}`;
        if (next) {
          await t.execute(
            sql`update automation_enrollments set next_position = ${position + 1},
                       next_run_at = ${new Date(now.getTime() + waitMs(next)).toISOString()}::timestamptz
                 where id = any(${ids}::uuid[])`,
          );
        } else {
          await t.execute(
            sql`update automation_enrollments set next_position = ${position + 1}, status = 'completed',
                       finished_at = ${at}::timestamptz
                 where id = any(${ids}::uuid[])`,
          );
        }
      }
      return { handled: rows.length, sent, stopped: false };
    });
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    const reason = pauseReason(error, failedStep);
    if (await pauseAutomationFor(db, automationId, reason)) {
      try {
        await notifyAutomationPaused(deps, head.account_id, head.name, automationId, reason);
      } catch (mailError) {
        deps.logger?.warn({ err: mailError, automationId }, 'automation paused: owner e-mail failed');
      }
    }
    return { handled: 0, sent: 0, stopped: true };
  }
}

function pauseReason(error: AppError, position: number): string {
  const step = position > 0 ? `Passo ${position}: ` : '';
  // The transactional path names the message of a batch ("Mensagem 3: …"); the step is what the owner knows.
  const message = error.message.replace(/^Mensagem \d+: /, '');
  if (error.code === 'insufficient_balance') {
    return `${step}${message} Adicione créditos e clique em "Retomar": o passo é enviado e nada é cobrado em dobro.`;
  }
  return `${step}${message}`;
}
