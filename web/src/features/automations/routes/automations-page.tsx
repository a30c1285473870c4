import { Link } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { ErrorPanel, formatNumber, LoadingPanel, pluralForm, TableShell, td, th } from '@/components/kit';
import { buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { useAutomations } from '../api/automations';
import { StatusBadge } from '../components/status-badge';
import { useTriggerText } from '../components/use-trigger-text';

/** Automações: the account's automations with their trigger, state and contacts in progress. */
export function AutomationsPage() {
  const { t, locale } = useI18n();
  usePageTitle(t('automations.title'));
  const automations = useAutomations();
  const triggerText = useTriggerText();
  const newLink = (
    <Link to="/dashboard/automations/new" className={buttonVariants()}>
      {t('automations.new')}
    </Link>
  );
  return (
    <div>
      <PageHeader title={t('automations.title')}>{newLink}</PageHeader>
      <p className="-mt-4 mb-6 text-slate-600">{t('automations.subtitle')}</p>
      {automations.isPending ? (
        <LoadingPanel label={t('automations.loading')} />
      ) : automations.isError ? (
        <ErrorPanel error={automations.error} onRetry={() => automations.refetch()} />
      ) : automations.data.length === 0 ? (
        <EmptyState title={t('automations.empty.title')} description={t('automations.empty.body')} action={newLink} />
      ) : (
        <TableShell>
          <thead>
            <tr>
              <th className={th}>{t('automations.table.name')}</th>
              <th className={th}>{t('automations.table.trigger')}</th>
              <th className={th}>{t('automations.table.status')}</th>
              <th className={th}>{t('automations.table.contacts')}</th>
            </tr>
          </thead>
          <tbody>
            {automations.data.map((a) => (
              <tr key={a.id} className="hover:bg-slate-50">
                <td className={td}>
                  <Link to={`/dashboard/automations/${a.id}`} className="font-semibold text-brand-800 hover:underline">
                    {a.name}
                  </Link>
                  <p className="text-xs text-slate-500">
                    {t(`automations.stepsCount.${pluralForm(locale, a.steps.length)}`, {
                      count: formatNumber(a.steps.length),
                    })}
                  </p>
                </td>
                <td className={td}>{triggerText(a.trigger)}</td>
                <td className={td}>
                  <StatusBadge status={a.status} />
                </td>
                <td className={td}>
                  {t(`automations.activeCount.${pluralForm(locale, a.active)}`, { count: formatNumber(a.active) })}
                </td>
              </tr>
            ))}
          </tbody>
        </TableShell>
      )}
    </div>
  );
}
