import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { PageHeader } from '@/components/coming-soon-page';
import { cn } from '@/lib/cn';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { useSessionData } from '@/lib/use-session';
import { listCampaignAlerts } from '../api/admin';
import { Accounts, type Focus } from '../components/accounts-panel';
import { Forbidden } from '../components/admin-states';
import { AuditLog } from '../components/audit-log';
import { CampaignAlerts } from '../components/campaign-alerts';
import { Operators } from '../components/operators';
import { PaidTopups } from '../components/paid-topups';
import { PendingTopups } from '../components/pending-topups';
import { SenderDomainsAdmin } from '../components/sender-domains';

type Tab = 'contas' | 'recargas' | 'alertas' | 'dominios' | 'auditoria' | 'operadores';

/** `/admin`: the operator back office (403 page for everyone else). */
export function AdminPage() {
  const { t } = useI18n();
  const session = useSessionData();
  const [tab, setTab] = useState<Tab>('contas');
  const [focus, setFocus] = useState<Focus | null>(null);
  const openAlerts = useQuery({
    queryKey: ['admin', 'alerts', 'open'],
    queryFn: ({ signal }) => listCampaignAlerts(false, signal),
    enabled: session.isOperator,
  });

  usePageTitle(t('admin.title'));

  if (!session.isOperator) return <Forbidden />;

  const alertCount = openAlerts.data?.length ?? 0;
  const tabs: Array<[Tab, string, number]> = [
    ['contas', t('admin.tabs.accounts'), 0],
    ['recargas', t('admin.tabs.topups'), 0],
    ['alertas', t('admin.tabs.alerts'), alertCount],
    ['dominios', t('admin.tabs.domains'), 0],
    ['auditoria', t('admin.tabs.audit'), 0],
    ['operadores', t('admin.tabs.operators'), 0],
  ];
  const showAccount = (accountId: string, search: string) => {
    setFocus({ accountId, search });
    setTab('contas');
  };
  return (
    <div>
      <PageHeader title={t('admin.title')} />
      <div
        role="tablist"
        aria-label={t('admin.title')}
        className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200"
      >
        {tabs.map(([id, label, count]) => (
          <button
            key={id}
            type="button"
            role="tab"
            aria-selected={tab === id}
            onClick={() => setTab(id)}
            className={cn(
              '-mb-px whitespace-nowrap border-b-2 px-4 py-2.5 text-sm font-medium',
              tab === id ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-600 hover:text-slate-900',
            )}
          >
            {label}
            {count > 0 ? (
              <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800 tabular-nums">
                {count}
              </span>
            ) : null}
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'contas' ? (
          <Accounts key={focus?.accountId ?? 'todas'} focus={focus} />
        ) : tab === 'recargas' ? (
          <>
            <PendingTopups />
            <PaidTopups />
          </>
        ) : tab === 'alertas' ? (
          <CampaignAlerts onShowAccount={showAccount} />
        ) : tab === 'dominios' ? (
          <SenderDomainsAdmin />
        ) : tab === 'auditoria' ? (
          <AuditLog />
        ) : (
          <Operators />
        )}
      </div>
    </div>
  );
}
