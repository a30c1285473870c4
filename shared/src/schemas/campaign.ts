import { z } from 'zod';
import { normaliseEmail } from '../email';
import { previewSchema, TEMPLATE_HTML_MAX_CHARS, type TestSendInput, testSendSchema } from './template';

/** Campaigns: request bodies shared by the server (validation) and the web (stepped form). */

const optionalEmail = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === '') return null;
    const email = normaliseEmail(value);
    if (!email) {
      ctx.addIssue({ code: 'custom', message: 'E-mail inválido.' });
      return z.NEVER;
    }
    return email;
  })
  .nullable()
  .optional();

const listIds = z.array(z.uuid('Lista inválida.')).max(100, 'No máximo 100 listas.');
const segmentIds = z.array(z.uuid('Segmento inválido.')).max(20, 'No máximo 20 segmentos.');

const campaignFields = {
  name: z.string().trim().min(1, 'Informe o nome da campanha.').max(200, 'Nome longo demais.'),
  subject: z.string().max(500, 'Assunto longo demais.'),
  preheader: z.string().max(500, 'Pré-cabeçalho longo demais.'),
  fromName: z.string().trim().max(200, 'Nome do remetente longo demais.').nullable(),
  fromEmail: optionalEmail,
  replyTo: optionalEmail,
  includeListIds: listIds,
  excludeListIds: listIds,
  /** Segments targeted next to the lists (a contact in several is mailed once). */
  includeSegmentIds: segmentIds,
  template: z.string().max(TEMPLATE_HTML_MAX_CHARS, 'HTML grande demais (máximo 1 MB).'),
  templateProject: z.record(z.string(), z.unknown()).nullable(),
  trackOpens: z.boolean(),
  trackClicks: z.boolean(),
};

export const campaignCreateSchema = z.object({
  /** Generated on the client at creation (spec §3, §7). */
  uuid: z.uuid('Identificador (uuid) inválido.'),
  ...campaignFields,
  subject: campaignFields.subject.optional(),
  preheader: campaignFields.preheader.optional(),
  fromName: campaignFields.fromName.optional(),
  includeListIds: listIds.optional(),
  excludeListIds: listIds.optional(),
  includeSegmentIds: segmentIds.optional(),
  template: campaignFields.template.optional(),
  templateProject: campaignFields.templateProject.optional(),
  trackOpens: z.boolean().optional(),
  trackClicks: z.boolean().optional(),
  /** Copy the HTML (and builder project) of this library template into the campaign. */
  templateId: z.uuid('Modelo inválido.').optional(),
});
export type CampaignCreateInput = z.infer<typeof campaignCreateSchema>;

export const campaignUpdateSchema = z.object({ ...campaignFields, templateId: z.uuid('Modelo inválido.') }).partial();
export type CampaignUpdateInput = z.infer<typeof campaignUpdateSchema>;

/**
 * `scheduledAt`: an ISO date-time with offset (2025-03-01T09:00:00-03:00 / …Z), or a local date-time without
 * offset (2025-03-01T09:00) read in the account's time zone.
 */
export const campaignScheduleSchema = z.object({
  scheduledAt: z
    .string({ error: 'Informe a data e a hora do envio.' })
    .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/, 'Data e hora inválidas.'),
});
export type CampaignScheduleInput = z.infer<typeof campaignScheduleSchema>;

/** Test sends and previews work the same for a campaign and a library template (schemas in template.ts). */
export const campaignTestSendSchema = testSendSchema;
export type CampaignTestSendInput = TestSendInput;

export const campaignPreviewSchema = previewSchema;
