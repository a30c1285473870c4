import {
  AB_TEST_PERCENT,
  AB_WAIT_HOURS,
  type AbCriterion,
  type AbTestConfig,
  type AbTestInput,
  abVariantLetter,
} from '@carteiro/shared';
import { useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { errorText } from '@/lib/error-text';
import { type MessageKey, type MessageParams, useI18n } from '@/lib/i18n';
import { getTemplate, useTemplates } from '@/lib/queries/templates';
import { countForm } from './count-form';

const selectClass =
  'h-11 w-full rounded-lg border border-slate-300 bg-white px-2 text-base text-slate-900 focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200';

/** The A/B test part of the campaign form, as typed (numbers as text so the fields can be emptied). */
export interface AbFormState {
  enabled: boolean;
  /** Variants B–D; A is the campaign's own subject and sender name. */
  variants: Array<{ subject: string; fromName: string; template: string | null }>;
  testPercent: string;
  criterion: AbCriterion;
  waitHours: string;
}

export function initialAbState(ab: AbTestConfig | null | undefined): AbFormState {
  return {
    enabled: Boolean(ab),
    variants: ab?.variants.map((v) => ({
      subject: v.subject,
      fromName: v.fromName ?? '',
      template: v.template ?? null,
    })) ?? [{ subject: '', fromName: '', template: null }],
    testPercent: String(ab?.testPercent ?? AB_TEST_PERCENT.default),
    criterion: ab?.criterion ?? 'opens',
    waitHours: String(ab?.waitHours ?? AB_WAIT_HOURS.default),
  };
}

/** The body's `abTest`: null when the toggle is off (the server validates the rest with the shared schema). */
export function abTestInput(state: AbFormState): AbTestInput | null {
  if (!state.enabled) return null;
  return {
    variants: state.variants.map((v) => ({
      subject: v.subject,
      fromName: v.fromName.trim() || null,
      // Content of its own: copied from a library template in the form (or set through the API); null = A's.
      template: v.template,
    })),
    testPercent: Number(state.testPercent),
    criterion: state.criterion,
    waitHours: Number(state.waitHours),
  };
}

/**
 * "Teste A/B": a toggle, then the other subject lines (B–D, each with an optional sender name), the share of
 * the audience that gets the test, how the winner is chosen and how long to wait.
 */
export function AbTestFields({ state, onChange }: { state: AbFormState; onChange: (next: AbFormState) => void }) {
  const { t } = useI18n();
  const set = (patch: Partial<AbFormState>) => onChange({ ...state, ...patch });
  const setVariant = (index: number, patch: Partial<AbFormState['variants'][number]>) =>
    set({ variants: state.variants.map((v, i) => (i === index ? { ...v, ...patch } : v)) });
  const percent = Number(state.testPercent) || 0;
  const count = state.variants.length + 1;
  const each = Math.round((percent / count) * 10) / 10;
  const hours = Number(state.waitHours) || 0;
  return (
    <div className="rounded-xl border border-slate-200 p-4" data-testid="ab-test">
      {/* The name is only "Teste A/B" (the description is attached by aria-describedby), so the field
          "Assunto" keeps a unique accessible name. */}
      <div className="flex gap-3">
        <input
          id="ab-enabled"
          type="checkbox"
          checked={state.enabled}
          onChange={(e) => set({ enabled: e.target.checked })}
          aria-describedby="ab-enabled-hint"
          className="mt-1 accent-brand-700"
        />
        <span>
          <label htmlFor="ab-enabled" className="block cursor-pointer font-semibold text-slate-900">
            {t('campaigns.ab.title')}
          </label>
          <span id="ab-enabled-hint" className="block text-sm text-slate-600">
            {t('campaigns.ab.hint')}
          </span>
        </span>
      </div>
      {state.enabled ? (
        <div className="mt-4 space-y-4">
          <p className="text-sm text-slate-600">{t('campaigns.ab.variantANote')}</p>
          {state.variants.map((variant, index) => {
            const letter = abVariantLetter(index + 1);
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: the variants are positional (B, C, D)
              <fieldset key={index} className="space-y-2 rounded-lg bg-slate-50 p-3">
                <legend className="sr-only">{t('campaigns.ab.variant', { letter })}</legend>
                <div className="flex items-center justify-between">
                  <span className="text-sm font-semibold text-slate-900">{t('campaigns.ab.variant', { letter })}</span>
                  {state.variants.length > 1 ? (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => set({ variants: state.variants.filter((_, i) => i !== index) })}
                    >
                      {t('campaigns.ab.remove', { letter })}
                    </Button>
                  ) : null}
                </div>
                <div>
                  <Label htmlFor={`ab-subject-${index}`}>{t('campaigns.ab.subject', { letter })}</Label>
                  <Input
                    id={`ab-subject-${index}`}
                    className="mt-1.5"
                    value={variant.subject}
                    onChange={(e) => setVariant(index, { subject: e.target.value })}
                  />
                </div>
                <div>
                  <Label htmlFor={`ab-from-${index}`}>{t('campaigns.ab.fromName', { letter })}</Label>
                  <Input
                    id={`ab-from-${index}`}
                    className="mt-1.5"
                    placeholder={t('campaigns.ab.fromNamePlaceholder')}
                    value={variant.fromName}
                    onChange={(e) => setVariant(index, { fromName: e.target.value })}
                  />
                </div>
                <VariantContentPicker
                  index={index}
                  letter={letter}
                  template={variant.template}
                  onChange={(template) => setVariant(index, { template })}
                />
              </fieldset>
            );
          })}
          {state.variants.length < 3 ? (
            <Button
              variant="outline"
              size="sm"
              onClick={() => set({ variants: [...state.variants, { subject: '', fromName: '', template: null }] })}
            >
              {t('campaigns.ab.add', { letter: abVariantLetter(state.variants.length + 1) })}
            </Button>
          ) : null}
          <div className="grid gap-4 sm:grid-cols-3">
            <div>
              <Label htmlFor="ab-percent">{t('campaigns.ab.percent')}</Label>
              <Input
                id="ab-percent"
                className="mt-1.5"
                type="number"
                inputMode="numeric"
                min={AB_TEST_PERCENT.min}
                max={AB_TEST_PERCENT.max}
                value={state.testPercent}
                onChange={(e) => set({ testPercent: e.target.value })}
              />
              <p className="mt-1 text-xs text-slate-500">
                {t('campaigns.ab.percentHint', {
                  min: AB_TEST_PERCENT.min,
                  max: AB_TEST_PERCENT.max,
                  each: each.toLocaleString('pt-BR'),
                  count,
                })}
              </p>
            </div>
            <div>
              <Label htmlFor="ab-criterion">{t('campaigns.ab.criterion')}</Label>
              <select
                id="ab-criterion"
                className={`${selectClass} mt-1.5`}
                value={state.criterion}
                onChange={(e) => set({ criterion: e.target.value as AbCriterion })}
              >
                <option value="opens">{t('campaigns.ab.byOpens')}</option>
                <option value="clicks">{t('campaigns.ab.byClicks')}</option>
              </select>
              <p className="mt-1 text-xs text-slate-500">
                {state.criterion === 'opens' ? t('campaigns.ab.byOpensHint') : t('campaigns.ab.byClicksHint')}
              </p>
            </div>
            <div>
              <Label htmlFor="ab-wait">{t('campaigns.ab.wait')}</Label>
              <Input
                id="ab-wait"
                className="mt-1.5"
                type="number"
                inputMode="numeric"
                min={AB_WAIT_HOURS.min}
                max={AB_WAIT_HOURS.max}
                value={state.waitHours}
                onChange={(e) => set({ waitHours: e.target.value })}
              />
              <p className="mt-1 text-xs text-slate-500">
                {hours > 0
                  ? t(`campaigns.ab.waitHint.${countForm(hours)}`, { count: hours })
                  : t('campaigns.ab.waitHintRange', { min: AB_WAIT_HOURS.min, max: AB_WAIT_HOURS.max })}
              </p>
            </div>
          </div>
        </div>
      ) : null}
    </div>
  );
}

/** One line for the review: the variants, the share of the audience in the test, the criterion and the wait. */
export function abTestSummary(ab: AbTestConfig, t: (key: MessageKey, params?: MessageParams) => string): string {
  return t(`campaigns.ab.summary.${countForm(ab.waitHours)}`, {
    count: ab.variants.length + 1,
    percent: ab.testPercent,
    criterion: t(`campaigns.ab.rate.${ab.criterion}`),
    hours: ab.waitHours,
  });
}

/**
 * A variant's content: the campaign's own (variant A's), or a copy of a library template's HTML taken when
 * chosen — later edits of that template do not change the test, as a campaign keeps its own copy too.
 */
function VariantContentPicker(props: {
  index: number;
  letter: string;
  template: string | null;
  onChange: (template: string | null) => void;
}) {
  const { t } = useI18n();
  const templates = useTemplates();
  const [copiedFrom, setCopiedFrom] = useState<string | null>(null);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = `ab-content-${props.index}`;
  async function choose(value: string) {
    setError(null);
    if (value === '') {
      setCopiedFrom(null);
      props.onChange(null);
      return;
    }
    if (value === 'own') return;
    setLoading(true);
    try {
      const template = await getTemplate(value);
      setCopiedFrom(template.name);
      props.onChange(template.html);
    } catch (caught) {
      setError(errorText(caught));
    } finally {
      setLoading(false);
    }
  }
  return (
    <div>
      <Label htmlFor={id}>{t('campaigns.ab.content', { letter: props.letter })}</Label>
      <select
        id={id}
        className={`${selectClass} mt-1.5`}
        value={props.template ? 'own' : ''}
        disabled={loading}
        onChange={(e) => void choose(e.target.value)}
      >
        <option value="">{t('campaigns.ab.contentSameAsA')}</option>
        {props.template ? (
          <option value="own">
            {copiedFrom ? t('campaigns.ab.contentCopiedFrom', { name: copiedFrom }) : t('campaigns.ab.contentOwn')}
          </option>
        ) : null}
        {(templates.data ?? []).map((template) => (
          <option key={template.id} value={template.id}>
            {t('campaigns.ab.copyFrom', { name: template.name })}
          </option>
        ))}
      </select>
      {error ? <FieldError>{error}</FieldError> : null}
    </div>
  );
}
