import type { AdminSenderDomainRow, SenderDomainStatus } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { EmptyState } from '@/components/ui/empty-state';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { apiFetch } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { formatDateTime } from '@/lib/format';
import { type MessageKey, useI18n } from '@/lib/i18n';
import { confirmAdminAction } from '../utils/confirm-admin-action';

const STATUS: Record<SenderDomainStatus, { label: MessageKey; tone: 'success' | 'warning' | 'danger' }> = {
  verified: { label: 'senders.domainStatus.verified', tone: 'success' },
  pending: { label: 'senders.domainStatus.pending', tone: 'warning' },
  broken: { label: 'senders.domainStatus.broken', tone: 'danger' },
  suspended: { label: 'senders.domainStatus.suspended', tone: 'danger' },
};

function listSenderDomains(signal?: AbortSignal) {
  return apiFetch<{ items: AdminSenderDomainRow[] }>('/api/admin/sender-domains', { signal });
}

/**
 * Back office → Domínios: every sender domain per account with its status; the operator suspends one (its
 * mail is refused at once) or lifts the suspension. Both are audited.
 */
export function SenderDomainsAdmin() {
  const { t } = useI18n();
  const domains = useQuery({
    queryKey: ['admin', 'sender-domains'],
    queryFn: ({ signal }) => listSenderDomains(signal),
  });
  if (domains.isPending) return <Spinner />;
  if (domains.isError) return <p className="text-sm text-red-700">{errorText(domains.error)}</p>;
  if (domains.data.items.length === 0) {
    return <EmptyState title={t('admin.senderDomains.empty')} description={t('admin.senderDomains.emptyBody')} />;
  }
  return (
    <ul className="divide-y divide-slate-100 rounded-2xl border border-slate-200 bg-white shadow-sm">
      {domains.data.items.map((d) => (
        <DomainItem key={d.id} domain={d} />
      ))}
    </ul>
  );
}

function DomainItem({ domain }: { domain: AdminSenderDomainRow }) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const status = STATUS[domain.status];
  function onSuspend(event: FormEvent) {
    event.preventDefault();
    confirmAdminAction({
      title: t('admin.senderDomains.suspendConfirm', { domain: domain.domain }),
      description: t('admin.senderDomains.suspendBody', { account: domain.accountName }),
      run: () =>
        apiFetch(`/api/admin/sender-domains/${encodeURIComponent(domain.id)}/suspend`, {
          method: 'POST',
          body: { reason },
        }),
      success: t('admin.senderDomains.suspended', { domain: domain.domain }),
      failure: t('admin.senderDomains.suspendFailed'),
    });
  }
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm" data-domain={domain.domain}>
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {domain.domain} <Badge tone={status.tone}>{t(status.label)}</Badge>
        </p>
        <p className="text-xs text-slate-600">
          {domain.accountName}
          {' · '}
          {domain.lastCheckedAt
            ? t('admin.senderDomains.checkedAt', { when: formatDateTime(domain.lastCheckedAt) })
            : t('admin.senderDomains.neverChecked')}
          {domain.suspendedReason
            ? ` · ${t('admin.senderDomains.reasonShown', { reason: domain.suspendedReason })}`
            : ''}
        </p>
      </div>
      {domain.status === 'suspended' ? (
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            confirmAdminAction({
              title: t('admin.senderDomains.unsuspendConfirm', { domain: domain.domain }),
              description: t('admin.senderDomains.unsuspendBody'),
              run: () =>
                apiFetch(`/api/admin/sender-domains/${encodeURIComponent(domain.id)}/unsuspend`, { method: 'POST' }),
              success: t('admin.senderDomains.unsuspended', { domain: domain.domain }),
              failure: t('admin.senderDomains.unsuspendFailed'),
            })
          }
        >
          {t('admin.senderDomains.unsuspend')}
        </Button>
      ) : (
        <form onSubmit={onSuspend} className="flex items-center gap-2">
          <Input
            aria-label={t('admin.senderDomains.reasonLabel', { domain: domain.domain })}
            placeholder={t('admin.senderDomains.reason')}
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            className="w-48"
          />
          <Button size="sm" variant="destructive" type="submit" disabled={reason.trim().length < 3}>
            {t('admin.senderDomains.suspend')}
          </Button>
        </form>
      )}
    </li>
  );
}
