import { z } from 'zod';
import { CAMPAIGN_STATUSES } from '../campaign-status';
import { normaliseEmail } from '../email';
import { validationText } from '../validation-texts';
import { nameSearchField, pageQueryFields } from './page';
import { previewSchema, TEMPLATE_HTML_MAX_CHARS, type TestSendInput, testSendSchema } from './template';

/** Campaigns: request bodies shared by the server (validation) and the web (stepped form). */

const optionalEmail = z
  .string()
  .trim()
  .transform((value, ctx) => {
    if (value === '') return null;
    const email = normaliseEmail(value);
    if (!email) {
      ctx.addIssue({ code: 'custom', message: validationText('emailInvalid') });
      return z.NEVER;
    }
    return email;
  })
  .nullable()
  .optional();

const listIds = z.array(z.uuid(validationText('listInvalid'))).max(100, validationText('listsMax'));
const segmentIds = z.array(z.uuid(validationText('segmentInvalid'))).max(20, validationText('segmentsMax'));

/** A/B test: what decides the winner. Opens never count machine opens (Apple MPP, scanners). */
export const AB_CRITERIA = ['opens', 'clicks'] as const;
export type AbCriterion = (typeof AB_CRITERIA)[number];
export const AB_TEST_PERCENT = { min: 10, max: 50, default: 20 } as const;
export const AB_WAIT_HOURS = { min: 1, max: 72, default: 4 } as const;
/** Variant letters: A is the campaign itself (its subject, sender name and content), B–D the others. */
export const AB_VARIANT_LETTERS = ['A', 'B', 'C', 'D'] as const;

/** One more variant of the campaign: its own subject; sender name and content are the campaign's unless given. */
export const abVariantSchema = z.strictObject({
  subject: z
    .string()
    .trim()
    .min(1, validationText('variantSubjectRequired'))
    .max(500, validationText('subjectTooLong')),
  fromName: z
    .string()
    .trim()
    .max(200, validationText('senderNameTooLong'))
    .nullable()
    .optional()
    .transform((v) => v || null),
  template: z
    .string()
    .max(TEMPLATE_HTML_MAX_CHARS, validationText('htmlTooLarge'))
    .nullable()
    .optional()
    .transform((v) => (v?.trim() ? v : null)),
});
export type AbVariantInput = z.infer<typeof abVariantSchema>;

/**
 * A campaign's A/B test: variant A is the campaign, `variants` are B, C and D (1 to 3 of them, so 2–4 in all).
 * `testPercent` of the audience is split evenly among the variants; after `waitHours` the winner by `criterion`
 * goes to the rest.
 */
export const abTestSchema = z.strictObject({
  variants: z.array(abVariantSchema).min(1, validationText('variantsMin')).max(3, validationText('variantsMax')),
  testPercent: z
    .number({ error: validationText('abPercentRequired') })
    .int(validationText('abPercentInteger'))
    .min(AB_TEST_PERCENT.min, validationText('abPercentMin', { min: AB_TEST_PERCENT.min }))
    .max(AB_TEST_PERCENT.max, validationText('abPercentMax', { max: AB_TEST_PERCENT.max })),
  criterion: z.enum(AB_CRITERIA, { error: validationText('abCriterionRequired') }),
  waitHours: z
    .number({ error: validationText('abWaitRequired') })
    .int(validationText('abWaitInteger'))
    .min(AB_WAIT_HOURS.min, validationText('abWaitMin', { min: AB_WAIT_HOURS.min }))
    .max(AB_WAIT_HOURS.max, validationText('abWaitMax', { max: AB_WAIT_HOURS.max })),
});
export type AbTestConfig = z.output<typeof abTestSchema>;
export type AbTestInput = z.input<typeof abTestSchema>;

const campaignFields = {
  name: z.string().trim().min(1, validationText('campaignNameRequired')).max(200, validationText('nameTooLong')),
  subject: z.string().max(500, validationText('subjectTooLong')),
  preheader: z.string().max(500, validationText('preheaderTooLong')),
  fromName: z.string().trim().max(200, validationText('senderNameTooLong')).nullable(),
  fromEmail: optionalEmail,
  replyTo: optionalEmail,
  includeListIds: listIds,
  excludeListIds: listIds,
  /** Segments targeted next to the lists (a contact in several is mailed once). */
  includeSegmentIds: segmentIds,
  template: z.string().max(TEMPLATE_HTML_MAX_CHARS, validationText('htmlTooLarge')),
  templateProject: z.record(z.string(), z.unknown()).nullable(),
  trackOpens: z.boolean(),
  trackClicks: z.boolean(),
  /** A/B test of subject (and optionally sender name and content); null = a normal campaign. */
  abTest: abTestSchema.nullable(),
};

export const campaignCreateSchema = z.strictObject({
  /**
   * Generated on the client at creation (spec §3, §7: the dashboard always sends one); the public API may omit it
   * and the server generates it.
   */
  uuid: z.uuid(validationText('uuidInvalid')).optional(),
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
  abTest: campaignFields.abTest.optional(),
  /** Copy the HTML (and builder project) of this library template into the campaign. */
  templateId: z.uuid(validationText('templateInvalid')).optional(),
});
export type CampaignCreateInput = z.infer<typeof campaignCreateSchema>;

export const campaignUpdateSchema = z
  .strictObject({ ...campaignFields, templateId: z.uuid(validationText('templateInvalid')) })
  .partial();
export type CampaignUpdateInput = z.infer<typeof campaignUpdateSchema>;

/**
 * `scheduledAt`: an ISO date-time with offset (2025-03-01T09:00:00-03:00 / …Z), or a local date-time without
 * offset (2025-03-01T09:00) read in the account's time zone.
 */
export const campaignScheduleSchema = z.strictObject({
  scheduledAt: z
    .string({ error: validationText('sendAtRequired') })
    .regex(
      /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/,
      validationText('dateTimeInvalid'),
    ),
});
export type CampaignScheduleInput = z.infer<typeof campaignScheduleSchema>;

/** GET /api/v1/campaigns: newest first, filtered by status (one or several, comma-separated) and name. */
export const campaignQuerySchema = z.strictObject({
  status: z
    .string()
    .trim()
    .transform((value, ctx) => {
      const statuses = [...new Set(value.split(',').map((s) => s.trim()))];
      const unknown = statuses.filter((s) => !(CAMPAIGN_STATUSES as readonly string[]).includes(s));
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: validationText('statusesUnknown', {
            unknown: unknown.map((s) => `\`${s}\``).join(', '),
            allowed: CAMPAIGN_STATUSES.map((s) => `\`${s}\``).join(', '),
          }),
        });
        return z.NEVER;
      }
      return statuses as Array<(typeof CAMPAIGN_STATUSES)[number]>;
    })
    .optional(),
  search: nameSearchField,
  ...pageQueryFields,
});
export type CampaignQuery = z.infer<typeof campaignQuerySchema>;

/** Test sends and previews work the same for a campaign and a library template (schemas in template.ts). */
/** An A/B test's variant to preview or test-send: 0 = A (the campaign), 1 = B… (default A). */
const variantIndex = z
  .number({ error: validationText('variantInvalid') })
  .int(validationText('variantInvalid'))
  .min(0, validationText('variantInvalid'))
  .max(AB_VARIANT_LETTERS.length - 1, validationText('variantInvalid'))
  .optional();

export const campaignTestSendSchema = testSendSchema.extend({ variant: variantIndex });
export type CampaignTestSendInput = TestSendInput & { variant?: number };

export const campaignPreviewSchema = previewSchema.extend({ variant: variantIndex });
