import { z } from 'zod';

/**
 * Zod schemas of the public API's answers (the DTOs the module functions return), for the OpenAPI document and
 * the contract test. Request bodies use the shared schemas the web uses.
 */

const isoDate = z.string().describe('Data e hora ISO 8601 (UTC).');

export const contactSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    name: z.string().nullable(),
    fields: z.record(z.string(), z.string()).describe('Campos personalizados.'),
    status: z.enum(['subscribed', 'unsubscribed', 'bounced', 'complained']),
    consent: z.object({
      legalBasis: z.string().nullable(),
      source: z.string().nullable(),
      ip: z.string().nullable(),
      at: isoDate.nullable(),
      text: z.string().nullable(),
    }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Contact' });

export const contactDetailSchema = contactSchema
  .extend({
    lists: z.array(z.object({ listId: z.uuid(), status: z.string(), createdAt: isoDate })),
  })
  .meta({ id: 'ContactDetail' });

export const contactPageSchema = z
  .object({
    items: z.array(contactSchema),
    nextCursor: z.string().nullable().describe('Cursor da próxima página; null na última.'),
  })
  .meta({ id: 'ContactPage' });

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string().describe('Mensagem em português do Brasil.'),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error' });
