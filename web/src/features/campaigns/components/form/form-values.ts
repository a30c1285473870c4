import { type CampaignCreateInput, campaignCreateSchema } from '@carteiro/shared';
import { BLANK_TEMPLATE_HTML } from '@/lib/blank-template';
import { firstIssueText } from '@/lib/form-fields';
import type { Campaign } from '../../api/types';
import { type AbFormState, abTestInput, initialAbState } from '../ab-test-fields';

/** The form's steps, in order; each is a section component of its own (the step lives in the URL). */
export const STEPS = ['details', 'sender', 'audience', 'template', 'tracking'] as const;

export interface FormValues {
  name: string;
  subject: string;
  preheader: string;
  fromName: string;
  fromEmail: string;
  replyTo: string;
  includeListIds: string[];
  excludeListIds: string[];
  includeSegmentIds: string[];
  /** '' keep the campaign's HTML; 'blank' start from scratch; else a library template id. */
  templateChoice: string;
  trackOpens: boolean;
  trackClicks: boolean;
  ab: AbFormState;
}

/** What a step changes in the values. */
export type SetValues = (patch: Partial<FormValues>) => void;

export function initialValues(campaign: Campaign | null, userName: string | undefined): FormValues {
  return {
    name: campaign?.name ?? '',
    subject: campaign?.subject ?? '',
    preheader: campaign?.preheader ?? '',
    fromName: campaign?.fromName ?? userName ?? '',
    fromEmail: campaign?.fromEmail ?? '',
    replyTo: campaign?.replyTo ?? '',
    includeListIds: campaign?.includeListIds ?? [],
    excludeListIds: campaign?.excludeListIds ?? [],
    includeSegmentIds: campaign?.includeSegmentIds ?? [],
    templateChoice: campaign?.template ? '' : 'blank',
    trackOpens: campaign?.trackOpens ?? true,
    trackClicks: campaign?.trackClicks ?? true,
    ab: initialAbState(campaign?.abTest),
  };
}

/** The create body checked by the shared schema, or the first problem's message (`fallback` when it has none). */
export function campaignInput(values: FormValues, uuid: string, fallback: string): CampaignCreateInput | string {
  const template =
    values.templateChoice === 'blank'
      ? { template: BLANK_TEMPLATE_HTML, templateProject: null }
      : values.templateChoice
        ? { templateId: values.templateChoice }
        : {};
  const parsed = campaignCreateSchema.safeParse({
    uuid,
    name: values.name,
    subject: values.subject,
    preheader: values.preheader,
    fromName: values.fromName || null,
    fromEmail: values.fromEmail,
    replyTo: values.replyTo,
    includeListIds: values.includeListIds,
    excludeListIds: values.excludeListIds,
    includeSegmentIds: values.includeSegmentIds,
    trackOpens: values.trackOpens,
    trackClicks: values.trackClicks,
    abTest: abTestInput(values.ab),
    ...template,
  });
  if (!parsed.success) return firstIssueText(parsed.error) ?? fallback;
  return parsed.data;
}
