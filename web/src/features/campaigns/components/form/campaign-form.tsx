import { isEditable } from '@carteiro/shared';
import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { FieldError } from '@/components/ui/label';
import { cn } from '@/lib/cn';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';
import { useLists } from '@/lib/queries/lists';
import { useTemplates } from '@/lib/queries/templates';
import { revealInStrip } from '@/lib/reveal-in-strip';
import { toast, useUser } from '@/stores/app-store';
import { useCreateCampaign } from '../../api/create-campaign';
import type { Campaign } from '../../api/types';
import { useUpdateCampaign } from '../../api/update-campaign';
import { AudienceStep } from './audience-step';
import { DetailsStep } from './details-step';
import { campaignInput, type FormValues, initialValues, STEPS } from './form-values';
import { SenderStep } from './sender-step';
import { TemplateStep } from './template-step';
import { TrackingStep } from './tracking-step';

/**
 * The stepped campaign form (new and edit). Every step saves the draft: the first save creates it with a uuid
 * generated here (spec §3, §7) and moves the URL to `:id/edit`.
 */
export function CampaignForm({ campaign }: { campaign: Campaign | null }) {
  const { t } = useI18n();
  const user = useUser();
  const [values, setValues] = useState(() => initialValues(campaign, user?.name));
  // The step lives in the URL: the first save moves from /new to /:id/edit (another page) and keeps it.
  const [params, setParams] = useSearchParams();
  const step = Math.min(Math.max(Number(params.get('step') ?? 0) || 0, 0), STEPS.length - 1);
  const setStep = (next: number) => setParams({ step: String(next) }, { replace: true });
  // On a phone the steps scroll sideways: keep the current one in view (step 4 sat hidden past the edge).
  const stepStrip = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const strip = stepStrip.current;
    const current = strip?.querySelectorAll<HTMLElement>('li')[step];
    if (strip && current) revealInStrip(strip, current);
  }, [step]);
  const [uuid] = useState(() => campaign?.uuid ?? crypto.randomUUID());
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<Campaign | null>(campaign);
  const create = useCreateCampaign();
  const update = useUpdateCampaign(saved?.id ?? '');
  const navigate = useNavigate();
  // Fetched from the first step on, so the audience and template steps open with their data.
  useLists();
  useTemplates();
  const pending = create.isPending || update.isPending;
  const locked = saved ? !isEditable(saved.status) : false;
  const set = (patch: Partial<FormValues>) => setValues((v) => ({ ...v, ...patch }));
  const last = STEPS.length - 1;

  async function save(next: number | 'done') {
    const input = campaignInput(values, uuid, t('campaigns.form.checkFields'));
    if (typeof input === 'string') {
      setError(input);
      return;
    }
    setError(null);
    try {
      let result: Campaign;
      if (saved) {
        const { uuid: _uuid, ...patch } = input;
        result = await update.mutateAsync(patch);
      } else {
        result = await create.mutateAsync(input);
        toast({ title: t('campaigns.form.saved'), variant: 'success' });
        navigate(`/dashboard/campaigns/${result.id}/edit?step=${next === 'done' ? last : next}`, { replace: true });
        return;
      }
      setSaved(result);
      // The template choice is applied once; afterwards the campaign keeps its own copy.
      if (values.templateChoice) set({ templateChoice: '' });
      toast({ title: t('campaigns.form.saved'), variant: 'success' });
      if (next === 'done') navigate(`/dashboard/campaigns/${result.id}/view`);
      else setStep(next);
    } catch (failure) {
      setError(errorText(failure));
    }
  }

  const stepName = STEPS[step] ?? STEPS[0];
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[14rem_minmax(0,1fr)]">
      <nav aria-label={t('campaigns.form.steps')} className="min-w-0">
        <ol ref={stepStrip} className="relative flex gap-2 overflow-x-auto lg:flex-col">
          {STEPS.map((name, index) => (
            <li key={name}>
              <button
                type="button"
                onClick={() => setStep(index)}
                aria-current={step === index ? 'step' : undefined}
                className={cn(
                  'flex w-full items-center gap-2 whitespace-nowrap rounded-lg px-3 py-2 text-left text-sm font-medium',
                  step === index ? 'bg-brand-100 text-brand-900' : 'text-slate-600 hover:bg-slate-100',
                )}
              >
                <span
                  className={cn(
                    'flex h-6 w-6 items-center justify-center rounded-full text-xs',
                    step === index ? 'bg-brand-700 text-white' : 'bg-slate-200 text-slate-700',
                  )}
                >
                  {index + 1}
                </span>
                {t(`campaigns.form.step.${name}`)}
              </button>
            </li>
          ))}
        </ol>
      </nav>
      <Card className="min-w-0">
        <CardContent>
          {locked ? (
            <p className="mb-4 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">{t('campaigns.form.locked')}</p>
          ) : null}
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              void save(step === last ? 'done' : step + 1);
            }}
          >
            <fieldset disabled={locked} className="space-y-5">
              <legend className="mb-2 text-lg font-bold text-slate-900">
                {step + 1}. {t(`campaigns.form.step.${stepName}`)}
              </legend>
              {stepName === 'details' ? (
                <DetailsStep values={values} set={set} />
              ) : stepName === 'sender' ? (
                <SenderStep values={values} set={set} />
              ) : stepName === 'audience' ? (
                <AudienceStep values={values} set={set} />
              ) : stepName === 'template' ? (
                <TemplateStep values={values} set={set} saved={saved} />
              ) : (
                <TrackingStep values={values} set={set} />
              )}
              <FieldError>{error}</FieldError>
              <div className="flex flex-wrap gap-2 border-t border-slate-100 pt-4">
                {step > 0 ? (
                  <Button variant="outline" onClick={() => setStep(step - 1)}>
                    {t('common.back')}
                  </Button>
                ) : null}
                <Button type="submit" disabled={pending}>
                  {pending
                    ? t('campaigns.form.saving')
                    : step === last
                      ? t('campaigns.form.saveReview')
                      : t('campaigns.form.saveContinue')}
                </Button>
              </div>
            </fieldset>
          </form>
        </CardContent>
      </Card>
    </div>
  );
}
