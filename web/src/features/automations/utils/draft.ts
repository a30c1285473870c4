import type { AutomationTriggerType, AutomationView, AutomationWaitUnit } from '@carteiro/shared';

/**
 * The editor's form state: every field a string as typed (numbers parsed by the shared schema on save), the three
 * trigger kinds' fields side by side so switching kind keeps what was typed.
 */
export interface StepDraft {
  waitAmount: string;
  waitUnit: AutomationWaitUnit;
  templateId: string;
  subject: string;
}

export interface Draft {
  name: string;
  triggerType: AutomationTriggerType;
  listId: string;
  field: string;
  hour: string;
  eventName: string;
  /** Empty: a contact enters once; a data key (`pedido`): once per distinct value of it. */
  eventKey: string;
  reentry: 'once' | 'per_event';
  fromEmail: string;
  fromName: string;
  steps: StepDraft[];
}

export const NEW_DRAFT: Draft = {
  name: '',
  triggerType: 'list_joined',
  listId: '',
  field: '',
  hour: '9',
  eventName: '',
  eventKey: '',
  reentry: 'once',
  fromEmail: '',
  fromName: '',
  steps: [{ waitAmount: '0', waitUnit: 'hours', templateId: '', subject: '' }],
};

export function draftOf(view: AutomationView): Draft {
  const trigger = view.trigger;
  return {
    name: view.name,
    triggerType: trigger.type,
    listId: trigger.type === 'list_joined' ? trigger.listId : '',
    field: trigger.type === 'date_field' ? trigger.field : '',
    hour: trigger.type === 'date_field' ? String(trigger.hour) : '9',
    eventName: trigger.type === 'api_event' ? trigger.eventName : '',
    eventKey: trigger.type === 'api_event' ? (trigger.eventKey ?? '') : '',
    reentry: trigger.type === 'api_event' && trigger.eventKey ? 'per_event' : 'once',
    fromEmail: view.fromEmail,
    fromName: view.fromName ?? '',
    steps: view.steps.map((s) => ({
      waitAmount: String(s.waitAmount),
      waitUnit: s.waitUnit,
      templateId: s.templateId,
      subject: s.subject ?? '',
    })),
  };
}

export function inputOf(draft: Draft) {
  const trigger =
    draft.triggerType === 'list_joined'
      ? { type: draft.triggerType, listId: draft.listId }
      : draft.triggerType === 'date_field'
        ? { type: draft.triggerType, field: draft.field, hour: draft.hour }
        : {
            type: draft.triggerType,
            eventName: draft.eventName,
            ...(draft.reentry === 'per_event' ? { eventKey: draft.eventKey } : {}),
          };
  return {
    name: draft.name,
    trigger,
    fromEmail: draft.fromEmail,
    fromName: draft.fromName,
    steps: draft.steps.map((s) => ({ ...s, waitAmount: s.waitAmount === '' ? Number.NaN : s.waitAmount })),
  };
}
