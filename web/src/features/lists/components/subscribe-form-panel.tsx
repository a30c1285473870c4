import { CopyButton } from '@/components/copy-button';
import { ErrorPanel, LoadingPanel, Textarea } from '@/components/kit';
import { useI18n } from '@/lib/i18n';
import { useFormSnippet } from '../api/get-form-snippet';

/** Hosted subscribe page link and the embeddable form snippet of one list. */
export function SubscribeFormPanel({ listId }: { listId: string }) {
  const { t } = useI18n();
  const form = useFormSnippet(listId, true);
  if (form.isPending) return <LoadingPanel />;
  if (form.isError) return <ErrorPanel error={form.error} onRetry={() => form.refetch()} />;
  const data = form.data;
  return (
    <div className="space-y-5">
      <p className="text-sm text-slate-600">
        {t(data.optIn === 'double' ? 'lists.form.doubleOptIn' : 'lists.form.singleOptIn')} {t('lists.form.evidence')}
      </p>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">{t('lists.form.hostedPage')}</h3>
        <div className="mt-1.5 flex gap-2">
          <a
            href={data.hostedUrl}
            target="_blank"
            rel="noreferrer"
            className="min-w-0 flex-1 truncate rounded-lg bg-slate-50 px-3 py-2 text-sm text-brand-800 hover:underline"
          >
            {data.hostedUrl}
          </a>
          <CopyButton text={data.hostedUrl} label={t('lists.form.copyLink')} />
        </div>
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">{t('lists.form.embedTitle')}</h3>
        <Textarea
          readOnly
          aria-label={t('lists.form.snippetLabel')}
          rows={10}
          className="mt-1.5 font-mono text-xs"
          value={data.snippet}
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton text={data.snippet} label={t('lists.form.copyCode')} className="mt-2" />
      </div>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">{t('lists.form.consentText')}</h3>
        <p className="mt-1 text-sm text-slate-600">{data.consentText}</p>
      </div>
    </div>
  );
}
