import { z } from 'zod';
import { emailProblem, normaliseEmail } from '../email';
import { FIELD_TYPE_VALUES, type FieldType } from '../field-values';
import { validationText } from '../validation-texts';
import { nameSearchField, pageQueryFields } from './page';

/** Contacts, lists and CSV import: request bodies shared by the server (validation) and the web (forms). */

export const CONTACT_STATUS_VALUES = ['subscribed', 'unsubscribed', 'bounced', 'complained'] as const;
export const LEGAL_BASIS_VALUES = ['consent', 'legitimate_interest'] as const;

/** An address, refused with the reason the import's report gives ("E-mail inválido: falta o @."). */
const emailField = z.string({ error: validationText('emailRequired') }).transform((value, ctx) => {
  const email = normaliseEmail(value);
  if (!email) {
    const problem = emailProblem(value) ?? { key: 'emailInvalid' as const };
    ctx.addIssue({ code: 'custom', message: validationText(problem.key, problem.data) });
    return z.NEVER;
  }
  return email;
});

const customFields = z
  .record(z.string().min(1).max(100), z.string().max(2000), { error: validationText('customFieldsInvalid') })
  .refine((value) => Object.keys(value).length <= 100, validationText('customFieldsMax'));

/** The one text of a missing legal basis (the dashboard's form, the public API's 400, the import). */
export const LEGAL_BASIS_REQUIRED = validationText('legalBasisRequired');

export const contactCreateSchema = z.strictObject({
  email: emailField,
  name: z.string().trim().max(200, validationText('nameTooLong')).optional().nullable(),
  fields: customFields.optional(),
  status: z.enum(CONTACT_STATUS_VALUES).optional(),
  listIds: z.array(z.uuid()).max(100).optional(),
  legalBasis: z.enum(LEGAL_BASIS_VALUES).optional(),
  consentSource: z.string().trim().max(500).optional(),
  consentText: z.string().max(5000).optional(),
});
export type ContactCreateInput = z.infer<typeof contactCreateSchema>;

/**
 * `POST /api/v1/contacts`: a contact created by an integration carries the LGPD evidence the dashboard asks for —
 * its legal basis is required (ADR 0037); its source defaults to "API" and its time and IP are the request's.
 */
export const apiContactCreateSchema = contactCreateSchema.extend({
  legalBasis: z.enum(LEGAL_BASIS_VALUES, { error: LEGAL_BASIS_REQUIRED }),
});

export const contactUpdateSchema = z.strictObject({
  email: emailField.optional(),
  name: z.string().trim().max(200, validationText('nameTooLong')).optional().nullable(),
  fields: customFields.optional(),
  status: z.enum(CONTACT_STATUS_VALUES).optional(),
  legalBasis: z.enum(LEGAL_BASIS_VALUES).optional().nullable(),
  consentSource: z.string().trim().max(500).optional().nullable(),
});
export type ContactUpdateInput = z.infer<typeof contactUpdateSchema>;

export const contactQuerySchema = z.strictObject({
  search: z.string().trim().max(200).optional(),
  status: z.enum(CONTACT_STATUS_VALUES).optional(),
  listId: z.uuid().optional(),
  ...pageQueryFields,
});
export type ContactQuery = z.infer<typeof contactQuerySchema>;

export const contactBulkSchema = z.object({
  action: z.enum(['add_to_list', 'remove_from_list', 'unsubscribe', 'delete']),
  ids: z.array(z.uuid()).min(1, validationText('contactsRequired')).max(10_000),
  listId: z.uuid().optional(),
});
export type ContactBulkInput = z.infer<typeof contactBulkSchema>;

/** Manual entries of the account's suppression list: raw lines, each normalised on the server. */
export const suppressionAddSchema = z.strictObject({
  emails: z
    .array(z.string().max(320))
    .min(1, validationText('emailsRequired'))
    .max(10_000, validationText('emailsMax')),
});
export type SuppressionAddInput = z.infer<typeof suppressionAddSchema>;

/** One address to look up in (or take out of) the suppression list. */
export const suppressionEmailSchema = z.strictObject({ email: emailField });
export type SuppressionEmailInput = z.infer<typeof suppressionEmailSchema>;

export const SUPPRESSION_REASON_VALUES = ['erased', 'unsubscribed', 'bounced', 'complained', 'manual'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASON_VALUES)[number];

export const listCreateSchema = z.strictObject({
  name: z
    .string({ error: validationText('listNameRequired') })
    .trim()
    .min(1, validationText('listNameRequired'))
    .max(200),
  description: z.string().trim().max(2000).optional().nullable(),
  optIn: z.enum(['single', 'double']).optional(),
});
export type ListCreateInput = z.infer<typeof listCreateSchema>;

export const listUpdateSchema = listCreateSchema.partial();

/** GET /api/v1/lists: newest first, filtered by name. */
export const listQuerySchema = z.strictObject({ search: nameSearchField, ...pageQueryFields });
export type ListQuery = z.infer<typeof listQuerySchema>;
export type ListUpdateInput = z.infer<typeof listUpdateSchema>;

/**
 * Column mapping of an import: CSV header → "email" | "name" | "field:<key>" | "ignore"; and the type of a column
 * mapped to a custom field (CSV header → texto, número, data; absent: texto).
 */
export const importStartSchema = z.object({
  mapping: z.record(
    z.string(),
    z.string().regex(/^(email|name|ignore|field:.{1,100})$/, validationText('mappingInvalid')),
  ),
  fieldTypes: z
    .record(z.string(), z.enum(FIELD_TYPE_VALUES, { error: validationText('columnTypeInvalid') }))
    .optional(),
  listId: z.uuid().optional().nullable(),
  legalBasis: z.enum(LEGAL_BASIS_VALUES, { error: LEGAL_BASIS_REQUIRED }),
  consentSource: z.string().trim().min(1, validationText('consentSourceRequired')).max(500),
  updateExisting: z.boolean().optional().default(false),
});
export type ImportStartInput = z.infer<typeof importStartSchema>;

/** POST /api/imports: what the server detected in the CSV and its first rows, for the mapping step. */
export interface ImportUpload {
  importId: string;
  totalRows: number;
  delimiter: string;
  encoding: string;
  hasBom: boolean;
  columns: string[];
  preview: string[][];
  suggestedMapping: Record<string, string>;
  /** Custom-field columns written as dates (header → date); the others are text until the owner says otherwise. */
  suggestedTypes: Record<string, FieldType>;
}

export interface ImportProgress {
  id: string;
  status: 'uploaded' | 'queued' | 'running' | 'done' | 'failed';
  fileName: string | null;
  totalRows: number;
  processedRows: number;
  /** 0–100. */
  percent: number;
  inserted: number;
  updated: number;
  unchanged: number;
  skippedInvalid: number;
  skippedDuplicate: number;
  skippedSuppressed: number;
  rejectedCount: number;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
}
