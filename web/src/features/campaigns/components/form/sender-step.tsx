import { Input } from '@/components/ui/input';
import { useI18n } from '@/lib/i18n';
import { SenderPicker } from '../sender-picker';
import { Field } from './form-fields';
import type { FormValues, SetValues } from './form-values';

/** Step 2: the sender's name, its verified address and an optional reply-to. */
export function SenderStep({ values, set }: { values: FormValues; set: SetValues }) {
  const { t } = useI18n();
  return (
    <>
      <Field id="c-from-name" label={t('campaigns.form.fromName')}>
        <Input id="c-from-name" value={values.fromName} onChange={(e) => set({ fromName: e.target.value })} />
      </Field>
      <Field id="c-from-email" label={t('campaigns.form.fromEmail')}>
        <SenderPicker id="c-from-email" value={values.fromEmail} onChange={(fromEmail) => set({ fromEmail })} />
      </Field>
      <Field id="c-reply" label={t('campaigns.form.replyTo')}>
        <Input id="c-reply" type="email" value={values.replyTo} onChange={(e) => set({ replyTo: e.target.value })} />
      </Field>
    </>
  );
}
