import { z } from 'zod';
import { validationText } from '../validation-texts';
import { CONTACT_STATUS_VALUES } from './audience';

/**
 * Segments (Contatos → Segmentos): a saved condition tree over an account's contacts. The tree is data only —
 * every field is one of a closed set, custom fields are named by key and checked against the account's keys on
 * the server, and values travel as SQL parameters. The server compiles it to parameterised SQL.
 */

export const SEGMENT_TEXT_OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'is_empty',
  'is_not_empty',
] as const;
export const SEGMENT_NUMBER_OPERATORS = ['number_eq', 'number_gt', 'number_gte', 'number_lt', 'number_lte'] as const;
export const SEGMENT_DATE_OPERATORS = ['date_on', 'date_before', 'date_after', 'birthday_this_month'] as const;
export const SEGMENT_FIELD_OPERATORS = [
  ...SEGMENT_TEXT_OPERATORS,
  ...SEGMENT_NUMBER_OPERATORS,
  ...SEGMENT_DATE_OPERATORS,
] as const;
export type SegmentFieldOperator = (typeof SEGMENT_FIELD_OPERATORS)[number];

export const SEGMENT_ENGAGEMENT_OPERATORS = ['opened_any', 'clicked_any', 'opened_none', 'never_opened'] as const;
export type SegmentEngagementOperator = (typeof SEGMENT_ENGAGEMENT_OPERATORS)[number];

/** pt-BR labels (the editor's selects and the server's descriptions). */
export const SEGMENT_OPERATOR_LABELS: Record<SegmentFieldOperator, string> = {
  equals: 'é igual a',
  not_equals: 'é diferente de',
  contains: 'contém',
  not_contains: 'não contém',
  starts_with: 'começa com',
  is_empty: 'está vazio',
  is_not_empty: 'não está vazio',
  number_eq: 'número igual a',
  number_gt: 'número maior que',
  number_gte: 'número maior ou igual a',
  number_lt: 'número menor que',
  number_lte: 'número menor ou igual a',
  date_on: 'data igual a',
  date_before: 'data antes de',
  date_after: 'data depois de',
  birthday_this_month: 'aniversário este mês',
};

export const SEGMENT_ENGAGEMENT_LABELS: Record<SegmentEngagementOperator, string> = {
  opened_any: 'abriu alguma das últimas N campanhas',
  clicked_any: 'clicou em alguma das últimas N campanhas',
  opened_none: 'não abriu nenhuma das últimas N campanhas',
  never_opened: 'nunca abriu',
};

/** Operators that take no value. */
export const SEGMENT_VALUELESS_OPERATORS: readonly SegmentFieldOperator[] = [
  'is_empty',
  'is_not_empty',
  'birthday_this_month',
];

/** A date value: AAAA-MM-DD (the editor's date input) — a real calendar date. */
export const isCalendarDate = (value: string): boolean => {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
};

const NUMBER_VALUE = /^-?\d{1,15}([.,]\d{1,6})?$/;

/** Built-in contact fields a field condition may name; anything else is `custom` with a key. */
export const SEGMENT_BUILTIN_FIELDS = ['email', 'name'] as const;

const fieldCondition = z
  .object({
    type: z.literal('field'),
    /** `email`, `name`, or a custom field key (checked against the account's keys by the server). */
    field: z.union(
      [
        z.enum(SEGMENT_BUILTIN_FIELDS),
        z.object({
          custom: z
            .string()
            .trim()
            .min(1, validationText('customFieldRequired'))
            .max(100, validationText('fieldNameTooLong')),
        }),
      ],
      { error: validationText('fieldInvalid') },
    ),
    operator: z.enum(SEGMENT_FIELD_OPERATORS, { error: validationText('operatorInvalid') }),
    value: z.string().max(500, validationText('valueTooLong')).optional(),
  })
  .superRefine((c, ctx) => {
    const value = c.value ?? '';
    if (SEGMENT_VALUELESS_OPERATORS.includes(c.operator)) return;
    if ((SEGMENT_NUMBER_OPERATORS as readonly string[]).includes(c.operator) && !NUMBER_VALUE.test(value.trim())) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: validationText('numberRequired') });
    } else if ((SEGMENT_DATE_OPERATORS as readonly string[]).includes(c.operator) && !isCalendarDate(value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: validationText('dateRequired') });
    } else if (value === '' && (SEGMENT_TEXT_OPERATORS as readonly string[]).includes(c.operator)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: validationText('valueRequired') });
    }
  });

const listCondition = z.object({
  type: z.literal('list'),
  operator: z.enum(['in', 'not_in'], { error: validationText('operatorInvalid') }),
  listId: z.uuid(validationText('listInvalid')),
});

const statusCondition = z.object({
  type: z.literal('status'),
  operator: z.enum(['is', 'is_not'], { error: validationText('operatorInvalid') }),
  value: z.enum(CONTACT_STATUS_VALUES, { error: validationText('statusInvalid') }),
});

/** When the contact was added (contacts.created_at), as a date in the account's time zone or "last N days". */
const subscribedCondition = z
  .object({
    type: z.literal('subscribed_at'),
    operator: z.enum(['before', 'after', 'in_last_days'], { error: validationText('operatorInvalid') }),
    value: z.string().max(20),
  })
  .superRefine((c, ctx) => {
    if (c.operator === 'in_last_days') {
      if (!/^\d{1,4}$/.test(c.value) || Number(c.value) < 1) {
        ctx.addIssue({ code: 'custom', path: ['value'], message: validationText('daysRequired') });
      }
    } else if (!isCalendarDate(c.value)) {
      ctx.addIssue({ code: 'custom', path: ['value'], message: validationText('dateRequired') });
    }
  });

const engagementCondition = z.object({
  type: z.literal('engagement'),
  operator: z.enum(SEGMENT_ENGAGEMENT_OPERATORS, { error: validationText('operatorInvalid') }),
  /** The account's N most recent sent campaigns (ignored by never_opened). */
  campaigns: z
    .number()
    .int()
    .min(1, validationText('campaignCountRange'))
    .max(50, validationText('campaignCountRange'))
    .optional(),
});

export const segmentConditionSchema = z.discriminatedUnion(
  'type',
  [fieldCondition, listCondition, statusCondition, subscribedCondition, engagementCondition],
  { error: validationText('conditionInvalid') },
);
export type SegmentCondition = z.infer<typeof segmentConditionSchema>;

export interface SegmentGroup {
  type: 'group';
  match: 'all' | 'any';
  conditions: Array<SegmentCondition | SegmentGroup>;
}

export const SEGMENT_MAX_DEPTH = 3;
export const SEGMENT_MAX_CONDITIONS = 30;

const groupSchema = z.object({
  type: z.literal('group'),
  match: z.enum(['all', 'any'], { error: validationText('matchRequired') }),
  get conditions(): z.ZodType<Array<SegmentCondition | SegmentGroup>> {
    return z
      .array(
        z.discriminatedUnion(
          'type',
          [fieldCondition, listCondition, statusCondition, subscribedCondition, engagementCondition, groupSchema],
          { error: validationText('conditionInvalid') },
        ),
      )
      .min(1, validationText('conditionsRequired'))
      .max(SEGMENT_MAX_CONDITIONS, validationText('conditionsPerGroupMax', { max: SEGMENT_MAX_CONDITIONS }));
  },
});

function measure(group: SegmentGroup, depth = 1): { depth: number; count: number } {
  let maxDepth = depth;
  let count = 0;
  for (const c of group.conditions) {
    if (c.type === 'group') {
      const inner = measure(c, depth + 1);
      maxDepth = Math.max(maxDepth, inner.depth);
      count += inner.count;
    } else count += 1;
  }
  return { depth: maxDepth, count };
}

/** The root of a segment: a group, at most 3 levels deep and 30 conditions in all. */
export const segmentTreeSchema = groupSchema.superRefine((tree, ctx) => {
  const { depth, count } = measure(tree);
  if (depth > SEGMENT_MAX_DEPTH) ctx.addIssue({ code: 'custom', message: validationText('groupDepthMax') });
  if (count > SEGMENT_MAX_CONDITIONS) ctx.addIssue({ code: 'custom', message: validationText('conditionsMax') });
});

export const segmentCreateSchema = z.object({
  name: z
    .string({ error: validationText('segmentNameRequired') })
    .trim()
    .min(1, validationText('segmentNameRequired'))
    .max(200),
  conditions: segmentTreeSchema,
});
export type SegmentCreateInput = z.infer<typeof segmentCreateSchema>;

export const segmentUpdateSchema = segmentCreateSchema.partial();
export type SegmentUpdateInput = z.infer<typeof segmentUpdateSchema>;

/** The live count and the preview take an unsaved tree. */
export const segmentDraftSchema = z.object({ conditions: segmentTreeSchema });
export type SegmentDraftInput = z.infer<typeof segmentDraftSchema>;

export interface SegmentView {
  id: string;
  name: string;
  conditions: SegmentGroup;
  createdAt: string;
  updatedAt: string;
}

export interface SegmentPreviewContact {
  id: string;
  email: string;
  name: string | null;
  status: (typeof CONTACT_STATUS_VALUES)[number];
}

/** "Reenviar para quem não abriu": the follow-up draft's name and subject. */
export const resendNonOpenersSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, validationText('campaignNameRequired'))
    .max(200, validationText('nameTooLong'))
    .optional(),
  subject: z
    .string()
    .trim()
    .min(1, validationText('subjectRequired'))
    .max(500, validationText('subjectTooLong'))
    .optional(),
});
export type ResendNonOpenersInput = z.infer<typeof resendNonOpenersSchema>;
