import { z } from 'zod';
import { normaliseEmail } from '../email';
import { validationText } from '../validation-texts';
import { nameSearchField, pageQueryFields } from './page';

/** Templates of the library: request bodies shared by the server (validation) and the web (forms). */

export const TEMPLATE_HTML_MAX_CHARS = 1_000_000;

const builderProject = z.record(z.string(), z.unknown()).nullable();

export const TEMPLATE_VARIABLES_MAX = 50;
/** A per-message variable's name: what follows `dados.` in the template (`{{ dados.pedido }}`). */
export const TEMPLATE_VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;

/**
 * The per-message variables a template takes (`{{ dados.<nome> }}`), declared explicitly: the template may use
 * only these, and a send with the template must give each of them in `data` (ADR 0035).
 */
export const templateVariablesSchema = z
  .array(
    z
      .string({ error: validationText('variableNotText') })
      .regex(TEMPLATE_VARIABLE_NAME, validationText('variableNameInvalid')),
  )
  .max(TEMPLATE_VARIABLES_MAX, validationText('variablesMax', { max: TEMPLATE_VARIABLES_MAX }))
  .superRefine((names, ctx) => {
    for (const [i, name] of names.entries()) {
      if (names.indexOf(name) !== i)
        ctx.addIssue({ code: 'custom', path: [i], message: validationText('variableRepeated', { name }) });
    }
  });

export const templateCreateSchema = z.strictObject({
  name: z
    .string({ error: validationText('templateNameRequired') })
    .trim()
    .min(1, validationText('templateNameRequired'))
    .max(200, validationText('nameTooLong')),
  subject: z.string().max(500, validationText('subjectTooLong')).optional().nullable(),
  html: z
    .string({ error: validationText('templateHtmlRequired') })
    .max(TEMPLATE_HTML_MAX_CHARS, validationText('htmlTooLarge')),
  builderProject: builderProject.optional(),
  text: z.string().max(TEMPLATE_HTML_MAX_CHARS, validationText('textTooLargeShort')).optional().nullable(),
  /** The per-message variables (`{{ dados.pedido }}`) the template takes; each required in a send's `data`. */
  variables: templateVariablesSchema.optional(),
});
export type TemplateCreateInput = z.infer<typeof templateCreateSchema>;

export const templateUpdateSchema = templateCreateSchema.partial();

/** GET /api/v1/templates: newest first, filtered by name. */
export const templateQuerySchema = z.strictObject({ search: nameSearchField, ...pageQueryFields });
export type TemplateQuery = z.infer<typeof templateQuerySchema>;
export type TemplateUpdateInput = z.infer<typeof templateUpdateSchema>;

export const TEST_SEND_MAX_RECIPIENTS = 5;

/** A test send of a campaign or a library template: up to 5 addresses, rendered for a contact or sample data. */
export const testSendSchema = z.object({
  emails: z
    .array(
      z.string().transform((value, ctx) => {
        const email = normaliseEmail(value);
        if (!email) {
          ctx.addIssue({ code: 'custom', message: validationText('emailInvalidValue', { value }) });
          return z.NEVER;
        }
        return email;
      }),
    )
    .min(1, validationText('emailsAtLeastOne'))
    .max(TEST_SEND_MAX_RECIPIENTS, validationText('testEmailsMax', { max: TEST_SEND_MAX_RECIPIENTS })),
  contactId: z.uuid(validationText('contactInvalid')).optional(),
});
export type TestSendInput = z.infer<typeof testSendSchema>;

/** A preview of a campaign or a library template: for one contact of the account, or sample data. */
export const previewSchema = z.strictObject({ contactId: z.uuid(validationText('contactInvalid')).optional() });

/**
 * A preview of a library template: as previewSchema, plus the per-message `data` to render its `{{ dados.x }}`
 * with (checked as a send checks it); without it, each declared variable shows as `[nome]`.
 */
export const templatePreviewSchema = previewSchema.extend({ data: z.record(z.string(), z.unknown()).optional() });
export type TemplatePreviewInput = z.infer<typeof templatePreviewSchema>;
