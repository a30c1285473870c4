import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { cn } from '@/lib/cn';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { revealInStrip } from '@/lib/reveal-in-strip';
import { usePageTitle } from '@/lib/use-page-title';
import { AccountForm } from '../components/account-form';
import { SecurityPanel } from '../components/security-panel';
import { SendersPanel } from '../components/senders-panel';
import { TeamPanel } from '../components/team-panel';

const TABS = [
  {
    id: 'conta',
    label: 'page.settings.tabs.account',
    soon: 'page.settings.account.soon',
    description: 'page.settings.account.description',
  },
  {
    id: 'equipe',
    label: 'page.settings.tabs.team',
    soon: 'page.settings.team.soon',
    description: 'page.settings.team.description',
  },
  {
    id: 'seguranca',
    label: 'settings.tabs.security',
    soon: 'page.settings.senders.soon',
    description: 'page.settings.senders.description',
  },
  {
    id: 'remetentes',
    label: 'page.settings.tabs.senders',
    soon: 'page.settings.senders.soon',
    description: 'page.settings.senders.description',
  },
] as const satisfies ReadonlyArray<{ id: string; label: MessageKey; soon: MessageKey; description: MessageKey }>;

/** Settings with three tabs (account, team, sender identities); the tab lives in `?aba=` so it can be linked. */
export function SettingsPage() {
  const { t } = useI18n();
  const [searchParams, setSearchParams] = useSearchParams();
  const current = TABS.find((tab) => tab.id === searchParams.get('aba')) ?? TABS[0];

  usePageTitle(t('page.settings.title'));

  // On a phone the tabs scroll sideways: a link to ?aba=remetentes must show that tab whole, not cut at the edge.
  const tabList = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const list = tabList.current;
    const tab = list?.querySelector<HTMLElement>(`#tab-${current.id}`);
    if (list && tab) revealInStrip(list, tab);
  }, [current.id]);

  return (
    <div>
      <PageHeader title={t('page.settings.title')} />
      <div
        ref={tabList}
        role="tablist"
        aria-label={t('page.settings.title')}
        className="relative mb-6 flex gap-1 overflow-x-auto border-b border-slate-200"
      >
        {TABS.map((tab) => {
          const selected = tab.id === current.id;
          return (
            <button
              key={tab.id}
              type="button"
              role="tab"
              id={`tab-${tab.id}`}
              aria-selected={selected}
              aria-controls={`painel-${tab.id}`}
              onClick={() => setSearchParams({ aba: tab.id }, { replace: true })}
              className={cn(
                '-mb-px whitespace-nowrap border-b-2 px-4 py-2.5 text-sm font-medium',
                selected ? 'border-brand-700 text-brand-800' : 'border-transparent text-slate-600 hover:text-slate-900',
              )}
            >
              {t(tab.label)}
            </button>
          );
        })}
      </div>
      <div role="tabpanel" id={`painel-${current.id}`} aria-labelledby={`tab-${current.id}`}>
        <div className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
          {current.id === 'conta' ? (
            <AccountForm />
          ) : current.id === 'equipe' ? (
            <TeamPanel />
          ) : current.id === 'seguranca' ? (
            <SecurityPanel />
          ) : (
            <SendersPanel />
          )}
        </div>
      </div>
    </div>
  );
}
