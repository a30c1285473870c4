import { Link } from 'react-router';
import { Button, buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { useI18n } from '@/lib/i18n';

/** The back office's shared states: no access, loading, and a failed query with its retry. */
export function Forbidden() {
  const { t } = useI18n();
  return (
    <EmptyState
      title={t('admin.forbiddenTitle')}
      description={t('admin.forbiddenBody')}
      action={
        <Link to="/dashboard" className={buttonVariants()}>
          {t('admin.backToDashboard')}
        </Link>
      }
    />
  );
}

export function QueryState({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useI18n();
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-2xl border border-slate-200 bg-white px-6 py-12 text-center"
    >
      <p className="font-semibold text-slate-900">{t('admin.loadError')}</p>
      <p className="text-sm text-slate-600">{errorText(error)}</p>
      <Button variant="outline" size="sm" onClick={retry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}

export function Loading() {
  const { t } = useI18n();
  return (
    <div className="flex justify-center py-14">
      <Spinner label={t('common.loading')} />
    </div>
  );
}
