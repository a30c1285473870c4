import { Textarea } from '@/components/kit';
import { Input } from '@/components/ui/input';
import { useI18n } from '@/lib/i18n';
import { AbTestFields } from '../ab-test-fields';
import { Field } from './form-fields';
import type { FormValues, SetValues } from './form-values';

/** Step 1: the campaign's name, subject, preheader and the A/B test. */
export function DetailsStep({ values, set }: { values: FormValues; set: SetValues }) {
  const { t } = useI18n();
  return (
    <>
      <Field id="c-name" label={t('campaigns.form.name')}>
        <Input id="c-name" value={values.name} onChange={(e) => set({ name: e.target.value })} />
      </Field>
      <Field
        id="c-subject"
        label={values.ab.enabled ? t('campaigns.field.subjectVariant', { letter: 'A' }) : t('campaigns.field.subject')}
        hint={t('campaigns.form.subjectHint')}
      >
        <Input id="c-subject" value={values.subject} onChange={(e) => set({ subject: e.target.value })} />
      </Field>
      <Field id="c-preheader" label={t('campaigns.field.preheader')} hint={t('campaigns.form.preheaderHint')}>
        <Textarea
          id="c-preheader"
          rows={2}
          value={values.preheader}
          onChange={(e) => set({ preheader: e.target.value })}
        />
      </Field>
      <AbTestFields state={values.ab} onChange={(ab) => set({ ab })} />
    </>
  );
}
