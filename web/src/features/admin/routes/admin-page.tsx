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
import { cn } from '@/lib/cn';
import { formatCount, formatDateTime } from '@/lib/format';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { messageOf } from '@/lib/notify';
import { useSessionData } from '@/lib/use-session';
import {
  type AdminAccount,
  adjustBalance,
  type CampaignAlert,
  confirmTopup,
  grantOperator,
  listAdminAccounts,
  listAuditLog,
  listCampaignAlerts,
  listOperators,
  listPendingTopups,
  type OperatorEntry,
  reviewCampaignAlert,
  revokeOperator,
  setPrice,
  setStatus,
} from '../api/admin';
import { AccountMembers } from '../components/account-members';
import { PaidTopups } from '../components/paid-topups';
import { SenderDomainsAdmin } from '../components/sender-domains';
import { confirmAdminAction } from '../utils/confirm-admin-action';

type Tab = 'contas' | 'recargas' | 'alertas' | 'dominios' | 'auditoria' | 'operadores';

/** An account to show in the accounts tab (from an alert's "Ver conta"): searched by name, row opened. */
interface Focus {
  accountId: string;
  search: string;
}

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

  useEffect(() => {
    document.title = `${t('admin.title')} — Carteiro`;
  }, [t]);

  if (!session.isOperator) return <Forbidden />;

  const alertCount = openAlerts.data?.length ?? 0;
  const tabs: Array<[Tab, string, number]> = [
    ['contas', t('admin.tabs.accounts'), 0],
    ['recargas', t('admin.tabs.topups'), 0],
    ['alertas', t('admin.tabs.alerts'), alertCount],
    ['dominios', 'Domínios', 0],
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

function Accounts({ focus }: { focus: Focus | null }) {
  const { t } = useI18n();
  const [search, setSearch] = useState(focus?.search ?? '');
  const [open, setOpen] = useState<string | null>(focus?.accountId ?? null);
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
                <th className="whitespace-nowrap px-4 py-3 text-right font-semibold">{t('admin.accounts.volume')}</th>
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
            {/* Below lg the table scrolls sideways (min 48rem): the panel stays in view, as wide as the screen. */}
            <div
              className="sticky left-4 w-[calc(100vw-4.5rem)] lg:static lg:w-auto"
              data-testid="account-manage-panel"
            >
              <div className="grid gap-6 lg:grid-cols-3">
                <AdjustForm account={account} />
                <PriceForm account={account} />
                <StatusForm account={account} />
              </div>
              <div className="mt-6">
                <AccountMembers accountId={account.id} />
              </div>
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
    confirmAdminAction({
      title: direction === 'credit' ? t('admin.adjust.confirmCredit') : t('admin.adjust.confirmDebit'),
      description: t('admin.adjust.confirmBody', { amount: formatBRL(millis), account: account.name }),
      run: () => adjustBalance(account.id, { amountMillis: signed, reason: reason.value.trim() }),
      success: t('admin.adjust.done'),
      failure: t('admin.adjust.failed'),
      onSuccess: () => {
        amount.setValue('');
        reason.setValue('');
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
    confirmAdminAction({
      title: t('admin.price.confirm'),
      description: t('admin.price.confirmBody', { price: formatBRL(millis), account: account.name }),
      run: () => setPrice(account.id, { priceMillis: millis, reason: reason.value.trim() || undefined }),
      success: t('admin.price.done'),
      failure: t('admin.price.failed'),
      onSuccess: () => price.setValue(''),
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
    confirmAdminAction({
      title: suspend ? t('admin.status.suspendConfirm') : t('admin.status.reactivateConfirm'),
      description: suspend
        ? t('admin.status.suspendBody', { account: account.name })
        : t('admin.status.reactivateBody', { account: account.name }),
      run: () => setStatus(account.id, suspend ? 'suspend' : 'reactivate', reason.value.trim()),
      success: (result) => {
        if (!suspend) return t('admin.status.reactivated');
        const paused = result.pausedCampaignIds.length;
        return paused > 0 ? t('admin.status.pausedCount', { count: paused }) : t('admin.status.suspended');
      },
      failure: t('admin.status.failed'),
      onSuccess: () => reason.setValue(''),
    });
  }

  return (
    <form noValidate onSubmit={onSubmit} className="space-y-3">
      <h4 className="font-semibold text-slate-900">
        {suspend ? t('admin.status.suspend') : t('admin.status.reactivate')}
      </h4>
      {suspend ? null : <p className="text-xs text-slate-600">{t('admin.status.suspendedNotice')}</p>}
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
                confirmAdminAction({
                  title: t('admin.topups.confirmTitle'),
                  description: t('admin.topups.confirmBody', {
                    amount: formatBRL(topup.amountMillis),
                    account: account?.name ?? topup.accountId,
                  }),
                  run: () => confirmTopup(topup.id),
                  success: t('admin.topups.confirmed'),
                  failure: t('admin.topups.failed'),
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

const AUDIT_ACTIONS: Record<string, MessageKey> = {
  'account.suspend': 'admin.audit.actions.account.suspend',
  'account.reactivate': 'admin.audit.actions.account.reactivate',
  'account.price': 'admin.audit.actions.account.price',
  'balance.credit': 'admin.audit.actions.balance.credit',
  'balance.debit': 'admin.audit.actions.balance.debit',
  'topup.confirm': 'admin.audit.actions.topup.confirm',
  'topup.refund': 'admin.audit.actions.topup.refund',
  'campaign.pause': 'admin.audit.actions.campaign.pause',
  'campaign_alert.review': 'admin.audit.actions.campaign_alert.review',
  'operator.grant': 'admin.audit.actions.operator.grant',
  'operator.revoke': 'admin.audit.actions.operator.revoke',
  'user.disable': 'admin.audit.actions.user.disable',
  'user.enable': 'admin.audit.actions.user.enable',
};

/** Whom an entry without an account is about (operator access changes carry the e-mail). */
function auditSubject(entry: { accountName?: string | null; details?: unknown }): string {
  if (entry.accountName) return entry.accountName;
  const details = entry.details as Record<string, unknown> | null | undefined;
  return typeof details?.email === 'string' ? details.email : '—';
}

/** Money moved by an adjustment or a confirmed top-up, when the entry's details carry it. */
function auditAmount(details: unknown): string | null {
  if (!details || typeof details !== 'object') return null;
  const d = details as Record<string, unknown>;
  const amount = typeof d.amountMillis === 'number' ? d.amountMillis : null;
  if (amount !== null) return formatBRL(amount);
  if (typeof d.from === 'number' && typeof d.to === 'number') return `${formatBRL(d.from)} → ${formatBRL(d.to)}`;
  return null;
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
      <table className="w-full min-w-[48rem] text-sm" data-testid="audit-log">
        <thead className="bg-slate-50 text-left text-xs uppercase tracking-wide text-slate-500">
          <tr>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.when')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.action')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.account')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.reason')}</th>
            <th className="px-4 py-3 font-semibold">{t('admin.audit.operator')}</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {query.data.map((entry) => {
            const label = AUDIT_ACTIONS[entry.action];
            const amount = auditAmount(entry.details);
            return (
              <tr key={entry.id} data-action={entry.action}>
                <td className="whitespace-nowrap px-4 py-3 align-top text-slate-700">
                  {formatDateTime(entry.createdAt)}
                </td>
                <td className="px-4 py-3 align-top">
                  <p className="font-medium text-slate-900">{label ? t(label) : entry.action}</p>
                  {amount ? <p className="text-xs tabular-nums text-slate-600">{amount}</p> : null}
                </td>
                <td className="px-4 py-3 align-top text-slate-700">{auditSubject(entry)}</td>
                <td className="max-w-md px-4 py-3 align-top text-slate-700">{entry.reason ?? '—'}</td>
                <td className="px-4 py-3 align-top text-xs text-slate-600">{entry.operatorEmail ?? '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

const ALERT_KINDS: Record<CampaignAlert['kind'], MessageKey> = {
  hard_bounce_rate: 'admin.alerts.kind.hard_bounce_rate',
  complaint_rate: 'admin.alerts.kind.complaint_rate',
  policy_rejection: 'admin.alerts.kind.policy_rejection',
};

const CAMPAIGN_STATUS: Record<CampaignAlert['campaignStatus'], MessageKey> = {
  draft: 'dashboard.status.draft',
  scheduled: 'dashboard.status.scheduled',
  sending: 'dashboard.status.sending',
  paused: 'dashboard.status.paused',
  sent: 'dashboard.status.sent',
  cancelled: 'dashboard.status.cancelled',
  failed: 'dashboard.status.failed',
};

const percent = new Intl.NumberFormat('pt-BR', { style: 'percent', maximumFractionDigits: 2 });

/** Campaigns paused by bounce/complaint protection (and policy rejections) for the operator to review. */
function CampaignAlerts({ onShowAccount }: { onShowAccount: (accountId: string, search: string) => void }) {
  const { t } = useI18n();
  const [all, setAll] = useState(false);
  const query = useQuery({
    queryKey: ['admin', 'alerts', all ? 'all' : 'open'],
    queryFn: ({ signal }) => listCampaignAlerts(all, signal),
  });
  const checkboxId = useId();
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="max-w-2xl text-sm text-slate-600">{t('admin.alerts.intro')}</p>
        <label htmlFor={checkboxId} className="flex items-center gap-2 text-sm text-slate-700">
          <input
            id={checkboxId}
            type="checkbox"
            checked={all}
            onChange={(e) => setAll(e.target.checked)}
            className="h-4 w-4 rounded border-slate-300"
          />
          {t('admin.alerts.showReviewed')}
        </label>
      </div>
      {query.isPending ? (
        <Loading />
      ) : query.isError ? (
        <QueryState error={query.error} retry={() => void query.refetch()} />
      ) : query.data.length === 0 ? (
        <EmptyState title={t('admin.alerts.emptyTitle')} description={t('admin.alerts.emptyBody')} />
      ) : (
        <ul className="space-y-3">
          {query.data.map((alert) => (
            <CampaignAlertItem key={alert.id} alert={alert} onShowAccount={onShowAccount} />
          ))}
        </ul>
      )}
    </div>
  );
}

function CampaignAlertItem({
  alert,
  onShowAccount,
}: {
  alert: CampaignAlert;
  onShowAccount: (accountId: string, search: string) => void;
}) {
  const { t } = useI18n();
  const reviewed = alert.acknowledgedAt !== null;
  return (
    <li
      className={cn(
        'rounded-2xl border bg-white p-4 shadow-sm sm:p-5',
        reviewed ? 'border-slate-200 opacity-80' : 'border-amber-200',
      )}
      data-alert-id={alert.id}
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={alert.kind === 'policy_rejection' ? 'warning' : 'danger'}>{t(ALERT_KINDS[alert.kind])}</Badge>
            <Badge tone="neutral">{t(CAMPAIGN_STATUS[alert.campaignStatus])}</Badge>
            {alert.accountStatus === 'suspended' ? <Badge tone="danger">{t('admin.accounts.suspended')}</Badge> : null}
          </div>
          <p className="mt-2 font-semibold text-slate-900">{alert.campaignName}</p>
          <p className="text-sm text-slate-600">
            {alert.accountName} · {alert.ownerEmail ?? '—'}
          </p>
        </div>
        <div className="text-right text-xs text-slate-500">
          <p>
            {t(alert.kind === 'policy_rejection' ? 'admin.alerts.flaggedAt' : 'admin.alerts.when', {
              when: formatDateTime(alert.createdAt),
            })}
          </p>
          {alert.acknowledgedAt ? (
            <p>{t('admin.alerts.reviewedAt', { when: formatDateTime(alert.acknowledgedAt) })}</p>
          ) : null}
        </div>
      </div>
      <dl className="mt-3 grid max-w-md grid-cols-3 gap-3 text-sm">
        <div>
          <dt className="text-xs text-slate-500">{t('admin.alerts.sent')}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">{formatCount(alert.sent)}</dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">{t('admin.alerts.bounceRate')}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">
            {percent.format(alert.bounceRate)}{' '}
            <span className="font-normal text-slate-500">({formatCount(alert.bounced)})</span>
          </dd>
        </div>
        <div>
          <dt className="text-xs text-slate-500">{t('admin.alerts.complaintRate')}</dt>
          <dd className="font-semibold tabular-nums text-slate-900">
            {percent.format(alert.complaintRate)}{' '}
            <span className="font-normal text-slate-500">({formatCount(alert.complained)})</span>
          </dd>
        </div>
      </dl>
      <p className="mt-3 rounded-lg bg-slate-50 px-3 py-2 text-sm text-slate-700">{alert.reason}</p>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="outline" size="sm" onClick={() => onShowAccount(alert.accountId, alert.accountName)}>
          {t('admin.alerts.openAccount')}
        </Button>
        {reviewed ? null : (
          <Button
            size="sm"
            onClick={() =>
              confirmAdminAction({
                title: t('admin.alerts.reviewTitle'),
                description: t('admin.alerts.reviewBody', { campaign: alert.campaignName, account: alert.accountName }),
                run: () => reviewCampaignAlert(alert.id),
                success: t('admin.alerts.reviewed'),
                failure: t('admin.alerts.failed'),
              })
            }
          >
            {t('admin.alerts.review')}
          </Button>
        )}
      </div>
    </li>
  );
}

/** Who has the back office; operators grant and remove the role (audited), ADMIN_EMAILS is configuration. */
function Operators() {
  const { t } = useI18n();
  const session = useSessionData();
  const query = useQuery({ queryKey: ['admin', 'operators'], queryFn: ({ signal }) => listOperators(signal) });
  const email = useField();
  const reason = useField();
  const [error, setError] = useState<string | null>(null);

  function onGrant(event: FormEvent) {
    event.preventDefault();
    const value = email.value.trim();
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return setError(t('admin.operators.invalidEmail'));
    if (reason.value.trim().length < 3) return setError(t('admin.reasonRequired'));
    setError(null);
    confirmAdminAction({
      title: t('admin.operators.grantConfirm'),
      description: t('admin.operators.grantBody', { email: value }),
      run: () => grantOperator({ email: value, reason: reason.value.trim() }),
      success: t('admin.operators.granted'),
      failure: t('admin.operators.failed'),
      onSuccess: () => {
        email.setValue('');
        reason.setValue('');
      },
    });
  }

  return (
    <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
      <div className="space-y-3">
        <p className="text-sm text-slate-600">{t('admin.operators.intro')}</p>
        {query.isPending ? (
          <Loading />
        ) : query.isError ? (
          <QueryState error={query.error} retry={() => void query.refetch()} />
        ) : (
          <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
            {query.data.map((op) => (
              <OperatorItem key={`${op.source}:${op.email}`} entry={op} self={op.userId === session.user.id} />
            ))}
          </ul>
        )}
      </div>
      <form
        noValidate
        onSubmit={onGrant}
        className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
      >
        <h3 className="font-semibold text-slate-900">{t('admin.operators.grantTitle')}</h3>
        <div>
          <Label htmlFor={email.id}>{t('admin.operators.email')}</Label>
          <Input
            id={email.id}
            type="email"
            value={email.value}
            onChange={(e) => email.setValue(e.target.value)}
            className="mt-1"
          />
        </div>
        <div>
          <Label htmlFor={reason.id}>{t('admin.reason')}</Label>
          <Input
            id={reason.id}
            value={reason.value}
            onChange={(e) => reason.setValue(e.target.value)}
            className="mt-1"
          />
        </div>
        <FieldError>{error}</FieldError>
        <Button type="submit" size="sm">
          {t('admin.operators.grant')}
        </Button>
      </form>
    </div>
  );
}

function OperatorItem({ entry, self }: { entry: OperatorEntry; self: boolean }) {
  const { t } = useI18n();
  const reason = useField();
  const [removing, setRemoving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const userId = entry.userId;

  function onRevoke(event: FormEvent) {
    event.preventDefault();
    if (!userId) return;
    if (reason.value.trim().length < 3) return setError(t('admin.reasonRequired'));
    setError(null);
    confirmAdminAction({
      title: t('admin.operators.revokeConfirm'),
      description: t('admin.operators.revokeBody', { email: entry.email, reason: reason.value.trim() }),
      run: () => revokeOperator(userId, reason.value.trim()),
      success: t('admin.operators.revoked'),
      failure: t('admin.operators.failed'),
    });
  }

  return (
    <li className="px-4 py-3 text-sm" data-operator={entry.email}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div className="min-w-0">
          <p className="font-medium text-slate-900">
            {entry.email}
            {self ? <span className="ml-1 text-slate-500">({t('admin.operators.you')})</span> : null}
          </p>
          <p className="text-xs text-slate-500">
            {entry.name ?? t('admin.operators.notSignedUp')}
            {entry.grantedAt ? ` · ${formatDateTime(entry.grantedAt)}` : ''}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Badge tone={entry.source === 'config' ? 'neutral' : 'success'}>
            {entry.source === 'config' ? t('admin.operators.config') : t('admin.operators.role')}
          </Badge>
          {entry.source === 'role' && !self && !removing ? (
            <Button variant="outline" size="sm" onClick={() => setRemoving(true)}>
              {t('admin.operators.revoke')}
            </Button>
          ) : null}
        </div>
      </div>
      {removing ? (
        <form noValidate onSubmit={onRevoke} className="mt-3 flex flex-wrap items-end gap-2">
          <div className="min-w-[16rem] flex-1">
            <Label htmlFor={reason.id}>{t('admin.reason')}</Label>
            <Input
              id={reason.id}
              value={reason.value}
              onChange={(e) => reason.setValue(e.target.value)}
              className="mt-1"
            />
          </div>
          <Button type="submit" size="sm" variant="destructive">
            {t('admin.operators.revoke')}
          </Button>
          <Button type="button" size="sm" variant="outline" onClick={() => setRemoving(false)}>
            {t('common.cancel')}
          </Button>
          <FieldError>{error}</FieldError>
        </form>
      ) : null}
    </li>
  );
}
