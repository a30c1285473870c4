import { formatBRL, parseReaisToMillis } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { formatCount } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { type AdminAccount, adjustBalance, listAdminAccounts, setPrice, setStatus } from '../api/admin';
import { confirmAdminAction } from '../utils/confirm-admin-action';
import { AccountMembers } from './account-members';
import { useField } from './use-field';

/** An account to show in the accounts tab (from an alert's "Ver conta"): searched by name, row opened. */
export interface Focus {
  accountId: string;
  search: string;
}

export function Accounts({ focus }: { focus: Focus | null }) {
  const { t } = useI18n();
  const [search, setSearch] = useState(focus?.search ?? '');
  const [open, setOpen] = useState<string | null>(focus?.accountId ?? null);
  const query = useQuery({ queryKey: ['admin', 'accounts'], queryFn: ({ signal }) => listAdminAccounts(signal) });
  if (query.isPending) return <LoadingPanel />;
  if (query.isError) return <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />;
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
