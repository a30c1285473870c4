import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { ErrorPanel, LoadingPanel } from '@/components/kit';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { cn } from '@/lib/cn';
import { formatCount, formatDateTime } from '@/lib/format';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { type CampaignAlert, listCampaignAlerts, reviewCampaignAlert } from '../api/admin';
import { confirmAdminAction } from '../utils/confirm-admin-action';

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
export function CampaignAlerts({ onShowAccount }: { onShowAccount: (accountId: string, search: string) => void }) {
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
        <LoadingPanel />
      ) : query.isError ? (
        <ErrorPanel error={query.error} onRetry={() => void query.refetch()} />
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
