import type {
  TemplateCreateInput,
  TemplatePreviewInput,
  TemplateQuery,
  TemplateSummary,
  TemplateUpdateInput,
  TemplateView,
} from '@carteiro/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { afterKeysetCursorSql, cursorTimestampSql, keysetPage } from '../../db/keyset';
import { containsPattern } from '../../db/like';
import { notFound } from '../../http/not-found';
import type { Mailer } from '../../mail/mailer';
import { findAccount } from '../accounts/accounts.service';
import { findCustomFieldNames } from '../contacts/custom-field-names';
import { assertMayCauseMail, type MailCauser, type MailPolicyLimits } from '../mail-policy/assert-may-cause-mail';
import { type PreviewResult, previewLinks, renderPreview, sendTestMessages } from './preview-message';
import { assertTemplateData, sampleData } from './template-data';
import { templates } from './templates.db';
import { assertValidTemplate } from './validate-template';

export type TemplateRow = typeof templates.$inferSelect;
export type { TemplateView };

function toSummary(row: TemplateRow): TemplateSummary {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toView(row: TemplateRow): TemplateView {
  return {
    ...toSummary(row),
    html: row.html,
    builderProject: row.builderProject ?? null,
    text: row.text,
    variables: row.variables,
  };
}

/** One page of the account's templates, newest created first, filtered by a part of the name (without HTML). */
export async function findTemplatePage(
  db: Db,
  accountId: string,
  query: TemplateQuery,
): Promise<{ items: TemplateSummary[]; nextCursor: string | null }> {
  const limit = query.limit ?? 50;
  const conditions: SQL[] = [eq(templates.accountId, accountId)];
  if (query.search) conditions.push(sql`${templates.name} ilike ${containsPattern(query.search)}`);
  if (query.cursor)
    conditions.push(afterKeysetCursorSql(sql`${templates.createdAt}`, sql`${templates.id}`, query.cursor));
  const rows = await db
    .select({ template: templates, cursor_at: cursorTimestampSql(sql`${templates.createdAt}`), id: templates.id })
    .from(templates)
    .where(and(...conditions))
    .orderBy(desc(templates.createdAt), desc(templates.id))
    .limit(limit + 1);
  const page = keysetPage(rows, limit);
  return { items: page.rows.map(({ template }) => toSummary(template)), nextCursor: page.nextCursor };
}

/** The account's templates, most recently edited first (without their HTML). */
export async function findTemplates(db: Db, accountId: string): Promise<TemplateSummary[]> {
  const rows = await db
    .select()
    .from(templates)
    .where(eq(templates.accountId, accountId))
    .orderBy(desc(templates.updatedAt), desc(templates.id));
  return rows.map(toSummary);
}

/** One template of the account; 404 when it belongs to another account or does not exist. */
export async function findTemplate(db: Db, accountId: string, id: string): Promise<TemplateView> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.accountId, accountId), eq(templates.id, id)));
  if (!row) throw notFound('template');
  return toView(row);
}

async function validate(
  db: Db,
  accountId: string,
  parts: { subject?: string | null; html?: string; text?: string | null },
  variables: readonly string[],
) {
  assertValidTemplate(parts, await findCustomFieldNames(db, accountId), variables);
}

/**
 * Saves a new template after checking its Liquid (400 validation_failed with the problems and their lines): a
 * `{{ dados.x }}` needs `x` among its declared `variables`.
 */
export async function createTemplate(db: Db, accountId: string, input: TemplateCreateInput): Promise<TemplateView> {
  await validate(db, accountId, input, input.variables ?? []);
  const [row] = await db
    .insert(templates)
    .values({
      accountId,
      name: input.name,
      subject: input.subject ?? null,
      html: input.html,
      builderProject: input.builderProject ?? null,
      text: input.text ?? null,
      variables: input.variables ?? [],
    })
    .returning();
  if (!row) throw new Error('template insert returned nothing');
  return toView(row);
}

/**
 * Updates a template (Liquid checked as on create); 404 for another account's template. New `variables` are
 * checked against every stored part too: a variable still used cannot be dropped from the declaration.
 */
export async function updateTemplate(
  db: Db,
  accountId: string,
  id: string,
  input: TemplateUpdateInput,
): Promise<TemplateView> {
  const current = await findTemplate(db, accountId, id);
  if (input.variables === undefined) {
    await validate(db, accountId, input, current.variables);
  } else {
    const merged = {
      subject: input.subject === undefined ? current.subject : input.subject,
      html: input.html ?? current.html,
      text: input.text === undefined ? current.text : input.text,
    };
    await validate(db, accountId, merged, input.variables);
  }
  const [row] = await db
    .update(templates)
    .set({ ...input, updatedAt: new Date() })
    .where(and(eq(templates.accountId, accountId), eq(templates.id, id)))
    .returning();
  if (!row) throw notFound('template');
  return toView(row);
}

/** Deletes a template (campaigns keep their own copy of the HTML); 404 when not the account's. */
export async function deleteTemplate(db: Db, accountId: string, id: string): Promise<void> {
  const rows = await db
    .delete(templates)
    .where(and(eq(templates.accountId, accountId), eq(templates.id, id)))
    .returning({ id: templates.id });
  if (rows.length === 0) throw notFound('template');
}

/** A copy named "Cópia de …"; 404 when the original is not the account's. */
export async function duplicateTemplate(db: Db, accountId: string, id: string): Promise<TemplateView> {
  const original = await findTemplate(db, accountId, id);
  const [row] = await db
    .insert(templates)
    .values({
      accountId,
      name: `Cópia de ${original.name}`.slice(0, 200),
      subject: original.subject,
      html: original.html,
      builderProject: original.builderProject,
      text: original.text,
      variables: original.variables,
    })
    .returning();
  if (!row) throw new Error('template insert returned nothing');
  return toView(row);
}

/**
 * The saved library template rendered for a contact of the account, or sample data (the editor saves first). Its
 * `{{ dados.x }}` take `data` when given (checked as a send checks it), else `[x]`.
 */
export async function previewTemplate(
  db: Db,
  accountId: string,
  id: string,
  options: TemplatePreviewInput & { publicUrl: string },
): Promise<PreviewResult> {
  const template = await findTemplate(db, accountId, id);
  if (options.data) assertTemplateData(template, options.data);
  return renderPreview(
    db,
    accountId,
    { name: template.name, subject: template.subject ?? '', html: template.html, text: template.text },
    {
      contactId: options.contactId,
      links: previewLinks(options.publicUrl, '/dashboard/templates'),
      data: options.data ?? sampleData(template.variables),
    },
  );
}

/**
 * Sends the saved library template, rendered as in the preview, to up to 5 addresses ("[TESTE]" subject), From
 * the account's default sender, once the mail policy allows it (that sender verified, recipients and quota).
 */
export async function sendTemplateTest(
  db: Db,
  mailer: Mailer,
  policy: { causer: MailCauser; limits: MailPolicyLimits },
  id: string,
  options: { emails: string[]; contactId?: string; publicUrl: string },
): Promise<{ sent: number }> {
  const accountId = policy.causer.accountId;
  await findTemplate(db, accountId, id);
  const account = await findAccount(db, accountId);
  await assertMayCauseMail(db, policy.limits, policy.causer, {
    kind: 'template-test',
    from: account?.defaultFromEmail ?? null,
    recipients: options.emails,
  });
  const message = await previewTemplate(db, accountId, id, options);
  const template = await findTemplate(db, accountId, id);
  return sendTestMessages(mailer, message, {
    emails: options.emails,
    fallbackSubject: template.name,
    sender: {
      accountId,
      fromEmail: account?.defaultFromEmail as string,
      fromName: account?.defaultFromName ?? account?.name ?? null,
      replyTo: null,
      sourceId: template.id,
      unsubscribeUrl: previewLinks(options.publicUrl, '').unsubscribeUrl,
    },
  });
}
