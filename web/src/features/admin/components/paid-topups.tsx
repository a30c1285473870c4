import { formatBRL, parseReaisToMillis } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { FieldError, Label } from '@/components/ui/label';
import { formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { type AdminTopup, listAdminAccounts, listPaidTopups, refundTopup } from '../api/admin';
import { confirmAdminAction } from '../utils/confirm-admin-action';

/** Paid top-ups charged through a provider, each with a refund form (whole or part of what is left). */
export function PaidTopups() {
  const { t } = useI18n();
  const topups = useQuery({ queryKey: ['admin', 'topups', 'paid'], queryFn: ({ signal }) => listPaidTopups(signal) });
  const accounts = useQuery({ queryKey: ['admin', 'accounts'], queryFn: ({ signal }) => listAdminAccounts(signal) });
  const accountName = (id: string) => accounts.data?.find((a) => a.id === id)?.name ?? id;
  const refundable = (topups.data ?? []).filter((x) => x.chargeProvider && x.refundedMillis < x.amountMillis);
  if (refundable.length === 0) return null;
  return (
    <section className="mt-6 space-y-2" aria-labelledby="paid-topups-title">
      <h2 id="paid-topups-title" className="text-base font-semibold text-slate-900">
        {t('admin.refunds.title')}
      </h2>
      <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
        {refundable.map((topup) => (
          <RefundRow key={topup.id} topup={topup} accountName={accountName(topup.accountId)} />
        ))}
      </ul>
    </section>
  );
}

function RefundRow({ topup, accountName }: { topup: AdminTopup; accountName: string }) {
  const { t } = useI18n();
  const id = useId();
  const left = topup.amountMillis - topup.refundedMillis;
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  // One key per refund the operator means: a double click sends the same key, the server refunds once.
  const [requestKey, setRequestKey] = useState(() => crypto.randomUUID());

  function submit(event: FormEvent) {
    event.preventDefault();
    const millis = amount.trim() === '' ? left : parseReaisToMillis(amount);
    if (millis === null || millis <= 0 || millis % 10 !== 0) return setError(t('admin.refunds.invalidAmount'));
    if (millis > left) return setError(t('admin.refunds.tooMuch', { max: formatBRL(left) }));
    if (reason.trim().length < 3) return setError(t('admin.refunds.reasonRequired'));
    setError(null);
    confirmAdminAction({
      title: t('admin.refunds.confirmTitle'),
      description: t('admin.refunds.confirmBody', { amount: formatBRL(millis), account: accountName }),
      run: () => refundTopup(topup.id, { amountMillis: millis, reason: reason.trim(), requestKey }),
      success: (result) =>
        result.status === 'failed'
          ? t('admin.refunds.refused', { reason: result.failureReason ?? '' })
          : t('admin.refunds.done'),
      failure: t('admin.refunds.failed'),
      onSuccess: () => {
        setRequestKey(crypto.randomUUID());
        setAmount('');
        setReason('');
      },
    });
  }

  return (
    <li className="space-y-2 px-4 py-3 text-sm" data-txid={topup.txid}>
      <p className="font-semibold tabular-nums text-slate-900">
        {formatBRL(topup.amountMillis)} · {accountName}
        {topup.refundedMillis > 0 ? (
          <span className="ml-2 text-xs font-normal text-slate-600">
            {t('admin.refunds.already', { amount: formatBRL(topup.refundedMillis) })}
          </span>
        ) : null}
      </p>
      <p className="text-xs text-slate-500">
        txid {topup.txid} · {topup.paidAt ? formatDateTime(topup.paidAt) : ''}
      </p>
      <form className="flex flex-wrap items-end gap-2" onSubmit={submit} noValidate>
        <div>
          <Label htmlFor={`${id}-amount`}>{t('admin.refunds.amount', { max: formatBRL(left) })}</Label>
          <Input
            id={`${id}-amount`}
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            placeholder={formatBRL(left)}
          />
        </div>
        <div className="min-w-48 flex-1">
          <Label htmlFor={`${id}-reason`}>{t('admin.refunds.reason')}</Label>
          <Input id={`${id}-reason`} value={reason} maxLength={140} onChange={(e) => setReason(e.target.value)} />
        </div>
        <Button type="submit" size="sm" variant="outline">
          {t('admin.refunds.submit')}
        </Button>
      </form>
      <FieldError>{error}</FieldError>
    </li>
  );
}
