import { useI18n } from '@/lib/i18n';
import { Check } from './form-fields';
import type { FormValues, SetValues } from './form-values';

/** Step 5: open and click tracking. */
export function TrackingStep({ values, set }: { values: FormValues; set: SetValues }) {
  const { t } = useI18n();
  return (
    <div className="space-y-3">
      <Check
        checked={values.trackOpens}
        onChange={(v) => set({ trackOpens: v })}
        title={t('campaigns.form.trackOpens')}
        text={t('campaigns.form.trackOpensText')}
      />
      <Check
        checked={values.trackClicks}
        onChange={(v) => set({ trackClicks: v })}
        title={t('campaigns.form.trackClicks')}
        text={t('campaigns.form.trackClicksText')}
      />
    </div>
  );
}
