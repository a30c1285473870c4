import { Link } from 'react-router';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { useI18n } from '@/lib/i18n';

/** The back office's no-access page (loading and failures are the kit's LoadingPanel and ErrorPanel). */
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
