import { formatTaxId } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { Logo } from '@/components/logo';
import { Button, buttonVariants } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { errorText } from '@/lib/error-text';
import { formatDateTime } from '@/lib/format';
import { useI18n } from '@/lib/i18n';
import { usePageTitle } from '@/lib/use-page-title';
import { getReceipt } from '../api/topups';

/** The printable recibo of a paid top-up (`@media print` hides the app chrome). */
export function ReceiptPage() {
  const { t } = useI18n();
  const { id = '' } = useParams();
  const receipt = useQuery({ queryKey: ['billing', 'receipt', id], queryFn: ({ signal }) => getReceipt(id, signal) });

  usePageTitle(t('balance.receipt.title'));

  if (receipt.isPending) {
    return (
      <div className="flex justify-center py-20">
        <Spinner label={t('common.loading')} />
      </div>
    );
  }
  if (receipt.isError) {
    return (
      <div role="alert" className="rounded-2xl border border-slate-200 bg-white p-6">
        <p className="font-semibold text-slate-900">{t('balance.receipt.error')}</p>
        <p className="mt-1 text-sm text-slate-600">{errorText(receipt.error)}</p>
        <Link
          to="/dashboard/my-balance"
          className={buttonVariants({ variant: 'outline', size: 'sm', className: 'mt-4' })}
        >
          {t('balance.backToBalance')}
        </Link>
      </div>
    );
  }
  const r = receipt.data;
  return (
    <div className="receipt-page">
      <style>{`@media print {
        body * { visibility: hidden; }
        .receipt-sheet, .receipt-sheet * { visibility: visible; }
        .receipt-sheet { position: absolute; inset: 0 auto auto 0; width: 100%; box-shadow: none !important; border: 0 !important; }
        .no-print { display: none !important; }
        @page { margin: 18mm; }
      }`}</style>
      <div className="no-print mb-6 flex flex-wrap items-center justify-between gap-3">
        <Link to="/dashboard/my-balance" className={buttonVariants({ variant: 'ghost' })}>
          {t('balance.backToBalance')}
        </Link>
        <Button onClick={() => window.print()}>{t('balance.receipt.print')}</Button>
      </div>
      <article className="receipt-sheet mx-auto max-w-2xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm sm:p-10">
        <header className="flex flex-wrap items-start justify-between gap-4 border-b border-slate-200 pb-6">
          <Logo />
          <div className="text-right">
            <h1 className="text-xl font-bold text-slate-900">{t('balance.receipt.title')}</h1>
            <p className="text-sm text-slate-500">
              {t('balance.receipt.number')} {r.receiptNumber}
            </p>
          </div>
        </header>
        <p className="mt-6 text-sm text-slate-600">{t('balance.receipt.amount')}</p>
        <p className="text-4xl font-bold tabular-nums text-slate-900">{r.formattedAmount}</p>
        <p className="mt-4 text-slate-800">{r.description}</p>
        <dl className="mt-6 grid gap-x-6 gap-y-3 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-slate-500">{t('balance.receipt.paidAt')}</dt>
            <dd className="font-medium text-slate-900">{formatDateTime(r.paidAt)}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t('balance.receipt.method')}</dt>
            <dd className="font-medium text-slate-900">{r.method}</dd>
          </div>
          <div>
            <dt className="text-slate-500">{t('balance.receipt.payer')}</dt>
            <dd className="font-medium text-slate-900">
              {r.payer?.legalName || r.payer?.name}
              {r.payer?.taxId ? <span className="block text-slate-600">{formatTaxId(r.payer.taxId)}</span> : null}
              {r.payer?.address ? (
                <span className="block whitespace-pre-line text-slate-600">{r.payer.address}</span>
              ) : null}
            </dd>
          </div>
          <div>
            <dt className="text-slate-500">{t('balance.receipt.payee')}</dt>
            <dd className="font-medium text-slate-900">
              {r.payee.name} — {r.payee.city}
              <span className="block text-slate-600">
                {t('balance.receipt.pixKey')}: {r.payee.pixKey}
              </span>
            </dd>
          </div>
          <div className="sm:col-span-2">
            <dt className="text-slate-500">{t('balance.topup.txid')}</dt>
            <dd className="break-all font-mono text-slate-900">{r.receiptNumber}</dd>
            {r.providerPaymentId && r.provider === 'pix-api' ? (
              <>
                <dt className="text-slate-500">{t('balance.receipt.endToEndId')}</dt>
                <dd className="break-all font-mono text-slate-900">{r.providerPaymentId}</dd>
              </>
            ) : null}
          </div>
        </dl>
        <p className="mt-8 border-t border-slate-200 pt-4 text-xs text-slate-500">{t('balance.receipt.footer')}</p>
      </article>
    </div>
  );
}
