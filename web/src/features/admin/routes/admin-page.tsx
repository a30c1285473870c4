import { formatBRL, parseReaisToMillis } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { Link } from 'react-router';
import { PageHeader } from '@/components/coming-soon-page';
import { Badge } from '@/components/ui/badge';
import { Button, buttonVariants } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { Spinner } from '@/components/ui/spinner';
import { useSessionData } from '@/features/auth/utils/use-session';
import { formatCount, formatDateTime } from '@/features/dashboard/utils/format';
import { messageOf, toastError, toastSuccess } from '@/features/dashboard/utils/notify';
import { cn } from '@/lib/cn';
import { useI18n } from '@/lib/i18n';
import { queryClient } from '@/lib/query-client';
import { confirmAction } from '@/stores/app-store';
import {
  type AdminAccount,
  adjustBalance,
  confirmTopup,
  listAdminAccounts,
  listAuditLog,
  listPendingTopups,
  setPrice,
  setStatus,
} from '../api/admin';

type Tab = 'contas' | 'recargas' | 'auditoria';

function refresh() {
  void queryClient.invalidateQueries({ queryKey: ['admin'] });
}

/** `/admin`: the operator back office (403 page for everyone else). */
export function AdminPage() {
  const { t } = useI18n();
  const session = useSessionData();
  const [tab, setTab] = useState<Tab>('contas');

  useEffect(() => {
    document.title = `${t('admin.title')} — Carteiro`;
  }, [t]);

  if (!session.isOperator) return <Forbidden />;

  const tabs: Array<[Tab, string]> = [
    ['contas', t('admin.tabs.accounts')],
    ['recargas', t('admin.tabs.topups')],
    ['auditoria', t('admin.tabs.audit')],
  ];
  return (
    <div>
      <PageHeader title={t('admin.title')} />
      <div
        role="tablist"
        aria-label={t('admin.title')}
        className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200"
      >
        {tabs.map(([id, label]) => (
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
          </button>
        ))}
      </div>
      <div role="tabpanel">
        {tab === 'contas' ? <Accounts /> : tab === 'recargas' ? <PendingTopups /> : <AuditLog />}
      </div>
    </div>
  );
}

function Forbidden() {
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

function QueryState({ error, retry }: { error: unknown; retry: () => void }) {
  const { t } = useI18n();
  return (
    <div
      role="alert"
      className="flex flex-col items-center gap-3 rounded-2xl border border-slate-200 bg-white px-6 py-12 text-center"
    >
      <p className="font-semibold text-slate-900">{t('admin.loadError')}</p>
      <p className="text-sm text-slate-600">{messageOf(error)}</p>
      <Button variant="outline" size="sm" onClick={retry}>
        {t('common.retry')}
      </Button>
    </div>
  );
}

function Loading() {
  const { t } = useI18n();
  return (
    <div className="flex justify-center py-14">
      <Spinner label={t('common.loading')} />
    </div>
  );
}

function Accounts() {
  const { t } = useI18n();
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState<string | null>(null);
  const query = useQuery({ queryKey: ['admin', 'accounts'], queryFn: ({ signal }) => listAdminAccounts(signal) });
  if (query.isPending) return <Loading />;
  if (query.isError) return <QueryState error={query.error} retry={() => void query.refetch()} />;
  const term = search.trim().toLowerCase();
  const rows = query.data.filter(
    (a) => !term || a.name.toLowerCase().includes(term) || (a.ownerEmail ?? '').toLowerCase().includes(term),
  );
  return (
    <div className="space-y-4">
      <Input
        type="search"
        aria-label={t('admin.accounts.search')}
        placeholder={t('admin.accounts.search')}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
        className="max-w-sm"
      />
      {rows.length === 0 ? (
        <EmptyState title={t('admin.accounts.emptyTitle')} description={t('admin.accounts.emptyBody')} />
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
          <table className="w-full min-w-[48rem] text-sm">
            <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
              <tr>
                <th className="px-4 py-3 font-semibold">{t('admin.accounts.account')}</th>
                <th className="px-4 py-3 text-right font-semibold">{t('admin.accounts.balance')}</th>
                <th className="px-4 py-3 text-right font-semibold">{t('admin.accounts.price')}</th>
                <th className="px-4 py-3 text-right font-semibold">{t('admin.accounts.volume')}</th>
                <th className="px-4 py-3 font-semibold">{t('admin.accounts.status')}</th>
                <th className="px-4 py-3" />
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {rows.map((account) => (
                <AccountRow
                  key={account.id}
                  account={account}
                  open={open === account.id}
                  onToggle={() => setOpen((o) => (o === account.id ? null : account.id))}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

function AccountRow({ account, open, onToggle }: { account: AdminAccount; open: boolean; onToggle: () => void }) {
  const { t } = useI18n();
  return (
    <>
      <tr>
        <td className="px-4 py-3">
          <p className="font-medium text-slate-900">{account.name}</p>
          <p className="text-xs text-slate-500">{account.ownerEmail ?? '—'}</p>
        </td>
        <td className="px-4 py-3 text-right font-semibold tabular-nums text-slate-900">
          {formatBRL(account.balanceMillis)}
        </td>
        <td className="px-4 py-3 text-right tabular-nums text-slate-700">{formatBRL(account.priceMillis)}</td>
        <td className="px-4 py-3 text-right tabular-nums text-slate-700">{formatCount(account.emailsSent)}</td>
        <td className="px-4 py-3">
          <Badge tone={account.status === 'active' ? 'success' : 'danger'}>
            {account.status === 'active' ? t('admin.accounts.active') : t('admin.accounts.suspended')}
          </Badge>
        </td>
        <td className="px-4 py-3 text-right">
          <Button variant="outline" size="sm" aria-expanded={open} onClick={onToggle}>
            {t('admin.accounts.manage')}
          </Button>
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={6} className="bg-slate-50 px-4 py-5">
            <div className="grid gap-6 lg:grid-cols-3">
              <AdjustForm account={account} />
              <PriceForm account={account} />
              <StatusForm account={account} />
            </div>
          </td>
        </tr>
      ) : null}
    </>
  );
}

function useField() {
  const id = useId();
  const [value, setValue] = useState('');
  return { id, value, setValue };
}

function AdjustForm({ account }: { account: AdminAccount }) {
  const { t } = useI18n();
  const amount = useField();
  const reason = useField();
  const [direction, setDirection] = useState<'credit' | 'debit'>('credit');
  const [error, setError] = useState<string | null>(null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const millis = parseReaisToMillis(amount.value);
    if (!millis) return setError(t('admin.adjust.invalidAmount'));
    if (reason.value.trim().length < 3) return setError(t('admin.reasonRequired'));
    setError(null);
    const signed = direction === 'credit' ? millis : -millis;
    confirmAction({
      title: direction === 'credit' ? t('admin.adjust.confirmCredit') : t('admin.adjust.confirmDebit'),
      description: t('admin.adjust.confirmBody', { amount: formatBRL(millis), account: account.name }),
      action: async () => {
        try {
          await adjustBalance(account.id, { amountMillis: signed, reason: reason.value.trim() });
          toastSuccess(t('admin.adjust.done'));
          amount.setValue('');
          reason.setValue('');
        } catch (caught) {
          toastError(t('admin.adjust.failed'), caught);
        }
        refresh();
      },
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3">
      <h4 className="font-semibold text-slate-900">{t('admin.adjust.title')}</h4>
      <div className="flex gap-2">
        <select
          aria-label={t('admin.adjust.direction')}
          value={direction}
          onChange={(e) => setDirection(e.target.value as 'credit' | 'debit')}
          className="h-11 rounded-lg border border-slate-300 bg-white px-2 text-sm"
        >
          <option value="credit">{t('admin.adjust.credit')}</option>
          <option value="debit">{t('admin.adjust.debit')}</option>
        </select>
        <Input
          aria-label={t('admin.adjust.amount')}
          placeholder="R$ 0,00"
          inputMode="decimal"
          value={amount.value}
          onChange={(e) => amount.setValue(e.target.value)}
        />
      </div>
      <div>
        <Label htmlFor={reason.id}>{t('admin.reason')}</Label>
        <Input id={reason.id} value={reason.value} onChange={(e) => reason.setValue(e.target.value)} className="mt-1" />
      </div>
      <FieldError>{error}</FieldError>
      <Button type="submit" size="sm">
        {t('admin.adjust.submit')}
      </Button>
    </form>
  );
}

function PriceForm({ account }: { account: AdminAccount }) {
  const { t } = useI18n();
  const price = useField();
  const reason = useField();
  const [error, setError] = useState<string | null>(null);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const millis = parseReaisToMillis(price.value);
    if (millis === null || millis > 1000) return setError(t('admin.price.invalid'));
    setError(null);
    confirmAction({
      title: t('admin.price.confirm'),
      description: t('admin.price.confirmBody', { price: formatBRL(millis), account: account.name }),
      action: async () => {
        try {
          await setPrice(account.id, { priceMillis: millis, reason: reason.value.trim() || undefined });
          toastSuccess(t('admin.price.done'));
          price.setValue('');
        } catch (caught) {
          toastError(t('admin.price.failed'), caught);
        }
        refresh();
      },
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3">
      <h4 className="font-semibold text-slate-900">{t('admin.price.title')}</h4>
      <div>
        <Label htmlFor={price.id}>{t('admin.price.label', { current: formatBRL(account.priceMillis) })}</Label>
        <Input
          id={price.id}
          placeholder="0,004"
          inputMode="decimal"
          value={price.value}
          onChange={(e) => price.setValue(e.target.value)}
          className="mt-1"
        />
      </div>
      <div>
        <Label htmlFor={reason.id}>{t('admin.reasonOptional')}</Label>
        <Input id={reason.id} value={reason.value} onChange={(e) => reason.setValue(e.target.value)} className="mt-1" />
      </div>
      <FieldError>{error}</FieldError>
      <Button type="submit" size="sm" variant="outline">
        {t('admin.price.submit')}
      </Button>
    </form>
  );
}

function StatusForm({ account }: { account: AdminAccount }) {
  const { t } = useI18n();
  const reason = useField();
  const [error, setError] = useState<string | null>(null);
  const suspend = account.status === 'active';

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (reason.value.trim().length < 3) return setError(t('admin.reasonRequired'));
    setError(null);
    confirmAction({
      title: suspend ? t('admin.status.suspendConfirm') : t('admin.status.reactivateConfirm'),
      description: suspend
        ? t('admin.status.suspendBody', { account: account.name })
        : t('admin.status.reactivateBody', { account: account.name }),
      action: async () => {
        try {
          await setStatus(account.id, suspend ? 'suspend' : 'reactivate', reason.value.trim());
          toastSuccess(suspend ? t('admin.status.suspended') : t('admin.status.reactivated'));
          reason.setValue('');
        } catch (caught) {
          toastError(t('admin.status.failed'), caught);
        }
        refresh();
      },
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3">
      <h4 className="font-semibold text-slate-900">
        {suspend ? t('admin.status.suspend') : t('admin.status.reactivate')}
      </h4>
      <div>
        <Label htmlFor={reason.id}>{t('admin.reason')}</Label>
        <Input id={reason.id} value={reason.value} onChange={(e) => reason.setValue(e.target.value)} className="mt-1" />
      </div>
      <FieldError>{error}</FieldError>
      <Button type="submit" size="sm" variant={suspend ? 'destructive' : 'primary'}>
        {suspend ? t('admin.status.suspend') : t('admin.status.reactivate')}
      </Button>
    </form>
  );
}

function PendingTopups() {
  const { t } = useI18n();
  const topups = useQuery({ queryKey: ['admin', 'topups'], queryFn: ({ signal }) => listPendingTopups(signal) });
  const accounts = useQuery({ queryKey: ['admin', 'accounts'], queryFn: ({ signal }) => listAdminAccounts(signal) });
  if (topups.isPending) return <Loading />;
  if (topups.isError) return <QueryState error={topups.error} retry={() => void topups.refetch()} />;
  if (topups.data.length === 0) {
    return <EmptyState title={t('admin.topups.emptyTitle')} description={t('admin.topups.emptyBody')} />;
  }
  const nameOf = (id: string) => accounts.data?.find((a) => a.id === id);
  return (
    <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
      {topups.data.map((topup) => {
        const account = nameOf(topup.accountId);
        return (
          <li
            key={topup.id}
            className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm"
            data-txid={topup.txid}
          >
            <div className="min-w-0">
              <p className="font-semibold tabular-nums text-slate-900">
                {formatBRL(topup.amountMillis)}{' '}
                <Badge tone={topup.status === 'pending' ? 'warning' : topup.status === 'review' ? 'danger' : 'neutral'}>
                  {t(`balance.status.${topup.status}`)}
                </Badge>
              </p>
              <p className="truncate text-xs text-slate-500">
                {account ? `${account.name} · ${account.ownerEmail ?? ''}` : topup.accountId} · txid {topup.txid} ·{' '}
                {formatDateTime(topup.createdAt)}
              </p>
              {topup.reviewReason ? <p className="text-xs text-red-700">{topup.reviewReason}</p> : null}
            </div>
            <Button
              size="sm"
              onClick={() =>
                confirmAction({
                  title: t('admin.topups.confirmTitle'),
                  description: t('admin.topups.confirmBody', {
                    amount: formatBRL(topup.amountMillis),
                    account: account?.name ?? topup.accountId,
                  }),
                  action: async () => {
                    try {
                      await confirmTopup(topup.id);
                      toastSuccess(t('admin.topups.confirmed'));
                    } catch (caught) {
                      toastError(t('admin.topups.failed'), caught);
                    }
                    refresh();
                  },
                })
              }
            >
              {t('admin.topups.confirm')}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

function AuditLog() {
  const { t } = useI18n();
  const query = useQuery({ queryKey: ['admin', 'audit'], queryFn: ({ signal }) => listAuditLog(signal) });
  if (query.isPending) return <Loading />;
  if (query.isError) return <QueryState error={query.error} retry={() => void query.refetch()} />;
  if (query.data.length === 0)
    return <EmptyState title={t('admin.audit.emptyTitle')} description={t('admin.audit.emptyBody')} />;
  return (
    <div className="overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm">
      <table className="w-full min-w-[40rem] text-sm">
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.when')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.operator')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.action')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.reason')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {query.data.map((entry) => (
            <tr key={entry.id}>
              <td className="whitespace-nowrap px-4 py-3 text-slate-700">{formatDateTime(entry.createdAt)}</td>
              <td className="px-4 py-3 text-slate-700">{entry.operatorEmail ?? '—'}</td>
              <td className="px-4 py-3 font-mono text-xs text-slate-900">{entry.action}</td>
              <td className="px-4 py-3 text-slate-700">{entry.reason ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
