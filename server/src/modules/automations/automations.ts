import {
  type AutomationSaveInput,
  type AutomationStatus,
  type AutomationTrigger,
  type AutomationView,
  hasUnsubscribeLinkTag,
  missingSendChecks,
} from '@carteiro/shared';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import { asDb, type Db, queryRows } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { NOT_FOUND_TEXT, notFound } from '../../http/not-found';
import { findAccount } from '../accounts/accounts.service';
import { findList } from '../lists/find-lists';
import { assertSenderAllowed } from '../sender-identities/sender-identities';
import { findTemplate, findTemplates } from '../templates/templates';
import {
  type AutomationRow,
  automationEnrollments,
  automationReportDeltas,
  automationSteps,
  automations,
} from './automations.db';

function triggerOf(row: AutomationRow): AutomationTrigger {
  switch (row.triggerType) {
    case 'list_joined':
      return { type: 'list_joined', listId: row.listId as string };
    case 'date_field':
      return { type: 'date_field', field: row.dateField as string, hour: row.sendHour ?? 9 };
    case 'api_event':
      return {
        type: 'api_event',
        eventName: row.eventName as string,
        eventKey: row.eventKeyField ?? undefined,
      };
  }
}

function triggerColumns(trigger: AutomationTrigger) {
  return {
    triggerType: trigger.type,
    listId: trigger.type === 'list_joined' ? trigger.listId : null,
    dateField: trigger.type === 'date_field' ? trigger.field : null,
    sendHour: trigger.type === 'date_field' ? trigger.hour : null,
    eventName: trigger.type === 'api_event' ? trigger.eventName : null,
    eventKeyField: trigger.type === 'api_event' ? (trigger.eventKey ?? null) : null,
  };
}

/** One automation of the account (404 for another account's). */
export async function findAutomationRow(db: Db, accountId: string, id: string): Promise<AutomationRow> {
  const [row] = await db
    .select()
    .from(automations)
    .where(and(eq(automations.accountId, accountId), eq(automations.id, id)));
  if (!row) throw notFound('automation');
  return row;
}

async function toViews(db: Db, accountId: string, rows: AutomationRow[]): Promise<AutomationView[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [steps, templateList, counts] = await Promise.all([
    db
      .select()
      .from(automationSteps)
      .where(inArray(automationSteps.automationId, ids))
      .orderBy(asc(automationSteps.position)),
    findTemplates(db, accountId),
    // The enrollment counters the report reads (automation-report.ts), not a count of every enrollment ever.
    db
      .select({
        automationId: automationReportDeltas.automationId,
        enrolled: sql<number>`sum(${automationReportDeltas.enrolled})::int`,
        active: sql<number>`sum(${automationReportDeltas.active})::int`,
      })
      .from(automationReportDeltas)
      .where(and(inArray(automationReportDeltas.automationId, ids), isNull(automationReportDeltas.stepId)))
      .groupBy(automationReportDeltas.automationId),
  ]);
  const templateNames = new Map(templateList.map((t) => [t.id, t.name]));
  return rows.map((row) => {
    const count = counts.find((c) => c.automationId === row.id);
    return {
      id: row.id,
      name: row.name,
      status: row.status,
      trigger: triggerOf(row),
      fromEmail: row.fromEmail,
      fromName: row.fromName,
      pausedReason: row.pausedReason,
      steps: steps
        .filter((s) => s.automationId === row.id)
        .map((s) => ({
          id: s.id,
          position: s.position,
          waitAmount: s.waitAmount,
          waitUnit: s.waitUnit,
          templateId: s.templateId,
          templateName: templateNames.get(s.templateId) ?? null,
          subject: s.subject,
        })),
      enrolled: Number(count?.enrolled ?? 0),
      active: Number(count?.active ?? 0),
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  });
}

export async function findAutomations(db: Db, accountId: string): Promise<AutomationView[]> {
  const rows = await db
    .select()
    .from(automations)
    .where(eq(automations.accountId, accountId))
    .orderBy(desc(automations.createdAt), desc(automations.id));
  return toViews(db, accountId, rows);
}

export async function findAutomation(db: Db, accountId: string, id: string): Promise<AutomationView> {
  const row = await findAutomationRow(db, accountId, id);
  const [view] = await toViews(db, accountId, [row]);
  return view as AutomationView;
}

/**
 * What a save needs of the account's own things: the list of a list trigger, and templates that exist and carry
 * the unsubscribe link (automation messages are marketing: List-Unsubscribe and the footer's link).
 */
async function assertReferences(db: Db, accountId: string, input: AutomationSaveInput): Promise<void> {
  if (input.trigger.type === 'list_joined') {
    try {
      await findList(db, accountId, input.trigger.listId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw new AppError('validation_failed', ERROR_TEXT.automations.listNotInAccount, {
          fields: [{ path: 'trigger.listId', message: NOT_FOUND_TEXT.list }],
        });
      }
      throw error;
    }
  }
  for (const [index, step] of input.steps.entries()) {
    const path = `steps.${index}.templateId`;
    let template: Awaited<ReturnType<typeof findTemplate>>;
    try {
      template = await findTemplate(db, accountId, step.templateId);
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') {
        throw new AppError('validation_failed', `Passo ${index + 1}: o modelo escolhido não existe nesta conta.`, {
          fields: [{ path, message: NOT_FOUND_TEXT.template }],
        });
      }
      throw error;
    }
    if (!hasUnsubscribeLinkTag(template.html) && !hasUnsubscribeLinkTag(template.text ?? '')) {
      const message = `Passo ${index + 1}: o modelo "${template.name}" não tem o link de descadastro. Inclua {{ link_descadastro }} no rodapé: ele é obrigatório em e-mails de marketing.`;
      throw new AppError('validation_failed', message, { fields: [{ path, message }] });
    }
    if (!step.subject && !template.subject?.trim()) {
      const message = `Passo ${index + 1}: o modelo "${template.name}" não tem assunto. Informe o assunto do passo.`;
      throw new AppError('validation_failed', message, { fields: [{ path: `steps.${index}.subject`, message }] });
    }
  }
}

/** Replaces the steps position by position: a kept position keeps its id (and its report and "already sent" rows). */
async function saveSteps(db: Db, automationId: string, steps: AutomationSaveInput['steps']): Promise<void> {
  for (const [index, step] of steps.entries()) {
    const values = {
      waitAmount: step.waitAmount,
      waitUnit: step.waitUnit,
      templateId: step.templateId,
      subject: step.subject ?? null,
    };
    await db
      .insert(automationSteps)
      .values({ automationId, position: index + 1, ...values })
      .onConflictDoUpdate({ target: [automationSteps.automationId, automationSteps.position], set: values });
  }
  await db
    .delete(automationSteps)
    .where(and(eq(automationSteps.automationId, automationId), sql`${automationSteps.position} > ${steps.length}`));
}

export async function createAutomation(db: Db, accountId: string, input: AutomationSaveInput): Promise<AutomationView> {
  await assertReferences(db, accountId, input);
  const id = await db.transaction(async (tx) => {
    const t = asDb(tx);
    const [row] = await t
      .insert(automations)
      .values({
        accountId,
        name: input.name,
        fromEmail: input.fromEmail,
        fromName: input.fromName ?? null,
        ...triggerColumns(input.trigger),
      })
      .returning({ id: automations.id });
    if (!row) throw new Error('automation insert returned nothing');
    await saveSteps(t, row.id, input.steps);
    return row.id;
  });
  return findAutomation(db, accountId, id);
}

/**
 * Edits an automation. The trigger cannot change once contacts are in it (they entered by the old one): create
 * another automation instead. Steps can: contacts already past a step are not sent it again, and those waiting
 * get the new content.
 */
export async function updateAutomation(
  db: Db,
  accountId: string,
  id: string,
  input: AutomationSaveInput,
): Promise<AutomationView> {
  const row = await findAutomationRow(db, accountId, id);
  await assertReferences(db, accountId, input);
  const columns = triggerColumns(input.trigger);
  const triggerChanged =
    columns.triggerType !== row.triggerType ||
    columns.listId !== row.listId ||
    columns.dateField !== row.dateField ||
    columns.eventName !== row.eventName;
  if (triggerChanged) {
    const [someone] = await db
      .select({ id: automationEnrollments.id })
      .from(automationEnrollments)
      .where(eq(automationEnrollments.automationId, id))
      .limit(1);
    if (someone) {
      throw new AppError(
        'conflict',
        'O gatilho não pode mudar depois que contatos entraram na automação. Crie uma nova automação.',
      );
    }
  }
  await db.transaction(async (tx) => {
    const t = asDb(tx);
    await t
      .update(automations)
      .set({
        name: input.name,
        fromEmail: input.fromEmail,
        fromName: input.fromName ?? null,
        ...columns,
        updatedAt: new Date(),
      })
      .where(and(eq(automations.id, id), eq(automations.accountId, accountId)));
    await saveSteps(t, id, input.steps);
  });
  return findAutomation(db, accountId, id);
}

export async function deleteAutomation(db: Db, accountId: string, id: string): Promise<void> {
  const deleted = await db
    .delete(automations)
    .where(and(eq(automations.accountId, accountId), eq(automations.id, id)))
    .returning({ id: automations.id });
  if (deleted.length === 0) throw notFound('automation');
}

/**
 * "Ativar" (a draft) and "Retomar" (a paused automation): the same checks a campaign passes before it goes out —
 * an active account, the footer's business identity, a verified sender, templates still there with the
 * unsubscribe link. The first activation fixes `enroll_since`: a list trigger takes who joins from now on.
 * Steps refused while paused (short balance) are sent on the next tick: they were never marked done.
 */
export async function activateAutomation(
  db: Db,
  accountId: string,
  id: string,
  now: Date = new Date(),
): Promise<AutomationView> {
  const row = await findAutomationRow(db, accountId, id);
  if (row.status === 'active') return findAutomation(db, accountId, id);
  const account = await findAccount(db, accountId);
  if (!account) throw notFound('account');
  if (account.status !== 'active') throw new AppError('account_suspended', undefined);
  const identity = missingSendChecks({
    campaignId: id,
    subject: 'automação',
    includeListIds: ['automação'],
    html: '{{ link_descadastro }}',
    fromEmail: row.fromEmail,
    account,
  }).find((item) => item.key === 'identity');
  if (identity) throw new AppError('validation_failed', identity.problem, { check: identity.key, fix: identity.fix });
  await assertSenderAllowed(db, accountId, row.fromEmail);
  const steps = await db.select().from(automationSteps).where(eq(automationSteps.automationId, id));
  await assertReferences(db, accountId, {
    name: row.name,
    trigger: triggerOf(row),
    fromEmail: row.fromEmail,
    fromName: row.fromName ?? undefined,
    steps: steps
      .sort((a, b) => a.position - b.position)
      .map((s) => ({
        waitAmount: s.waitAmount,
        waitUnit: s.waitUnit,
        templateId: s.templateId,
        subject: s.subject ?? undefined,
      })),
  });
  await setStatus(db, accountId, id, row.status, 'active', {
    pausedReason: null,
    enrollSince: row.enrollSince ?? now,
  });
  return findAutomation(db, accountId, id);
}

/** "Pausar": nobody enters and no step is sent until "Retomar"; contacts keep their place. */
export async function pauseAutomation(db: Db, accountId: string, id: string): Promise<AutomationView> {
  const row = await findAutomationRow(db, accountId, id);
  if (row.status !== 'active') throw new AppError('conflict', ERROR_TEXT.automations.pauseOnlyActive);
  await setStatus(db, accountId, id, 'active', 'paused', { pausedReason: null });
  return findAutomation(db, accountId, id);
}

async function setStatus(
  db: Db,
  accountId: string,
  id: string,
  from: AutomationStatus,
  to: AutomationStatus,
  extra: Partial<typeof automations.$inferInsert>,
): Promise<void> {
  const changed = await db
    .update(automations)
    .set({ status: to, updatedAt: new Date(), ...extra })
    .where(and(eq(automations.id, id), eq(automations.accountId, accountId), eq(automations.status, from)))
    .returning({ id: automations.id });
  if (changed.length === 0) {
    throw new AppError('conflict', ERROR_TEXT.automations.changedMeanwhile);
  }
}

/**
 * The system's pause (short balance, a template deleted, the sender no longer verified): compare-and-set from
 * active, so of several workers hitting the same refusal only one gets `true` (and e-mails the owner).
 */
export async function pauseAutomationFor(db: Db, id: string, reason: string): Promise<boolean> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`update automations set status = 'paused', paused_reason = ${reason}, updated_at = now()
         where id = ${id} and status = 'active' returning id`,
  );
  return rows.length > 0;
}
