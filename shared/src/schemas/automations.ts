import { z } from 'zod';
import { DEFAULT_TIME_ZONE } from '../constants';
import { normaliseEmail } from '../email';
import { validationText } from '../validation-texts';

/**
 * Automations (Automações): a trigger — a contact joined a list (after the double opt-in when the list has it),
 * a date field of the contact (birthday and the like) at a chosen hour in America/Sao_Paulo, or an event named
 * by the public API — then a sequence of steps "aguardar N horas/dias → enviar modelo X".
 */

export const AUTOMATION_TRIGGER_TYPES = ['list_joined', 'date_field', 'api_event'] as const;
export type AutomationTriggerType = (typeof AUTOMATION_TRIGGER_TYPES)[number];

export const AUTOMATION_STATUSES = ['draft', 'active', 'paused'] as const;
export type AutomationStatus = (typeof AUTOMATION_STATUSES)[number];

export const AUTOMATION_WAIT_UNITS = ['hours', 'days'] as const;
export type AutomationWaitUnit = (typeof AUTOMATION_WAIT_UNITS)[number];

export const AUTOMATION_ENROLLMENT_STATUSES = ['active', 'completed', 'exited'] as const;
export type AutomationEnrollmentStatus = (typeof AUTOMATION_ENROLLMENT_STATUSES)[number];

/** The time zone of date triggers (the hour a birthday message goes out). */
export const AUTOMATION_TIME_ZONE = DEFAULT_TIME_ZONE;
export const AUTOMATION_MAX_STEPS = 20;

/** Event names: what an integration sends in `POST /api/v1/events` (`pedido_pago`, `cadastro.concluido`). */
export const AUTOMATION_EVENT_NAME = /^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/;

const eventName = z
  .string({ error: validationText('eventNameRequired') })
  .trim()
  .regex(AUTOMATION_EVENT_NAME, validationText('eventNameInvalid'));

/** The key of an event's `data` that tells one event from another (`pedido`): a plain name, usable in Liquid. */
export const AUTOMATION_EVENT_KEY = /^[A-Za-z_][A-Za-z0-9_]{0,49}$/;
/** The longest value of an event key (the order id) kept to tell one occurrence from another. */
export const AUTOMATION_EVENT_KEY_VALUE_MAX = 200;

export const automationTriggerSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.literal('list_joined'), listId: z.uuid(validationText('listRequired')) }),
    z.object({
      type: z.literal('date_field'),
      /** A custom field of the contacts holding a date (AAAA-MM-DD, DD/MM/AAAA or DD/MM). */
      field: z
        .string({ error: validationText('dateFieldRequired') })
        .trim()
        .min(1, validationText('dateFieldRequired'))
        .max(100),
      /** The hour (0–23, horário de Brasília) the message goes out on the day. */
      hour: z.coerce
        .number()
        .int(validationText('hourInvalid'))
        .min(0, validationText('hourInvalid'))
        .max(23, validationText('hourInvalid')),
    }),
    z.object({
      type: z.literal('api_event'),
      eventName,
      /**
       * Re-entry: absent, a contact enters once; set, once per distinct value of `data[eventKey]` (each order), and
       * the same value twice enters once.
       */
      eventKey: z
        .string()
        .trim()
        .optional()
        .transform((value) => value || undefined)
        .refine((value) => value === undefined || AUTOMATION_EVENT_KEY.test(value), validationText('eventKeyInvalid')),
    }),
  ],
  { error: validationText('triggerRequired') },
);
export type AutomationTrigger = z.infer<typeof automationTriggerSchema>;

export const automationStepSchema = z.object({
  waitAmount: z.coerce
    .number()
    .int(validationText('integerRequired'))
    .min(0, validationText('waitNegative'))
    .max(365, validationText('max365')),
  waitUnit: z.enum(AUTOMATION_WAIT_UNITS, { error: validationText('waitUnitRequired') }),
  templateId: z.uuid(validationText('templateRequired')),
  /** Optional subject; the template's subject otherwise. */
  subject: z
    .string()
    .trim()
    .max(500, validationText('subjectTooLong'))
    .optional()
    .transform((value) => (value ? value : undefined)),
});
export type AutomationStepInput = z.infer<typeof automationStepSchema>;

const emailOf = (missing: string, invalid: string) =>
  z
    .string({ error: missing })
    .trim()
    .transform((value, ctx) => {
      const normalised = normaliseEmail(value);
      if (!normalised) {
        ctx.addIssue({ code: 'custom', message: invalid });
        return z.NEVER;
      }
      return normalised;
    });
const fromEmail = emailOf(validationText('senderEmailRequired'), validationText('senderEmailInvalid'));

export const automationSaveSchema = z.object({
  name: z
    .string({ error: validationText('nameRequired') })
    .trim()
    .min(1, validationText('nameRequired'))
    .max(200, validationText('nameTooLong')),
  trigger: automationTriggerSchema,
  fromEmail,
  fromName: z
    .string()
    .trim()
    .max(200, validationText('nameTooLong'))
    .optional()
    .transform((value) => (value ? value : undefined)),
  steps: z
    .array(automationStepSchema)
    .min(1, validationText('stepsRequired'))
    .max(AUTOMATION_MAX_STEPS, validationText('stepsMax', { max: AUTOMATION_MAX_STEPS })),
});
export type AutomationSaveInput = z.infer<typeof automationSaveSchema>;

export interface AutomationStepView {
  id: string;
  position: number;
  waitAmount: number;
  waitUnit: AutomationWaitUnit;
  templateId: string;
  templateName: string | null;
  subject: string | null;
}

export interface AutomationView {
  id: string;
  name: string;
  status: AutomationStatus;
  trigger: AutomationTrigger;
  fromEmail: string;
  fromName: string | null;
  /** Why the automation was paused by the system (short balance, template gone…); null when paused by the user. */
  pausedReason: string | null;
  steps: AutomationStepView[];
  enrolled: number;
  active: number;
  createdAt: string;
  updatedAt: string;
}

export interface AutomationStepReport {
  stepId: string;
  position: number;
  templateName: string | null;
  sent: number;
  opens: number;
  clicks: number;
}

export interface AutomationReport {
  automationId: string;
  enrolled: number;
  active: number;
  completed: number;
  exited: number;
  steps: AutomationStepReport[];
}

/** `POST /api/v1/events`: the contact (by e-mail) did something; automations with this event name start for it. */
export const automationEventSchema = z.strictObject({
  email: emailOf(validationText('contactEmailRequired'), validationText('emailInvalid')),
  name: eventName,
  /** The event's data: `{{ dados.<chave> }}` in the steps' templates (`{{ evento.<chave> }}`, the older name). */
  data: z.record(z.string(), z.unknown()).optional(),
});
export type AutomationEventInput = z.infer<typeof automationEventSchema>;
