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
import { confirmAdminAction } from '../utils/confirm-admin-action';

const STATUS: Record<SenderDomainStatus, { label: string; tone: 'success' | 'warning' | 'danger' }> = {
  verified: { label: 'Verificado', tone: 'success' },
  pending: { label: 'Aguardando DNS', tone: 'warning' },
  broken: { label: 'Com problema', tone: 'danger' },
  suspended: { label: 'Suspenso', tone: 'danger' },
};

function listSenderDomains(signal?: AbortSignal) {
  return apiFetch<{ items: AdminSenderDomainRow[] }>('/api/admin/sender-domains', { signal });
}

/**
 * Back office → Domínios: every sender domain per account with its status; the operator suspends one (its
 * mail is refused at once) or lifts the suspension. Both are audited.
 */
export function SenderDomainsAdmin() {
  const domains = useQuery({
    queryKey: ['admin', 'sender-domains'],
    queryFn: ({ signal }) => listSenderDomains(signal),
  });
  if (domains.isPending) return <Spinner />;
  if (domains.isError) return <p className="text-sm text-red-700">{errorText(domains.error)}</p>;
  if (domains.data.items.length === 0) {
    return <EmptyState title="Nenhum domínio" description="Nenhuma conta adicionou um domínio de envio ainda." />;
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
  const [reason, setReason] = useState('');
  const status = STATUS[domain.status];
  function onSuspend(event: FormEvent) {
    event.preventDefault();
    confirmAdminAction({
      title: `Suspender ${domain.domain}?`,
      description: `A conta ${domain.accountName} não poderá enviar deste domínio até que a suspensão seja retirada.`,
      run: () =>
        apiFetch(`/api/admin/sender-domains/${encodeURIComponent(domain.id)}/suspend`, {
          method: 'POST',
          body: { reason },
        }),
      success: `${domain.domain} suspenso.`,
      failure: 'Não foi possível suspender o domínio.',
    });
  }
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 px-4 py-3 text-sm" data-domain={domain.domain}>
      <div className="min-w-0">
        <p className="font-semibold text-slate-900">
          {domain.domain} <Badge tone={status.tone}>{status.label}</Badge>
        </p>
        <p className="text-xs text-slate-600">
          {domain.accountName}
          {domain.lastCheckedAt ? ` · verificado em ${formatDateTime(domain.lastCheckedAt)}` : ' · nunca verificado'}
          {domain.suspendedReason ? ` · motivo: ${domain.suspendedReason}` : ''}
        </p>
      </div>
      {domain.status === 'suspended' ? (
        <Button
          size="sm"
          variant="outline"
          onClick={() =>
            confirmAdminAction({
              title: `Reativar ${domain.domain}?`,
              description: 'A conta volta a poder enviar deste domínio enquanto ele estiver verificado.',
              run: () =>
                apiFetch(`/api/admin/sender-domains/${encodeURIComponent(domain.id)}/unsuspend`, { method: 'POST' }),
              success: `${domain.domain} reativado.`,
              failure: 'Não foi possível reativar o domínio.',
            })
          }
        >
          Reativar
        </Button>
      ) : (
        <form onSubmit={onSuspend} className="flex items-center gap-2">
          <Input
            aria-label={`Motivo da suspensão de ${domain.domain}`}
            placeholder="Motivo"
            value={reason}
            onChange={(e) => setReason(e.target.value)}
            className="w-48"
          />
          <Button size="sm" variant="destructive" type="submit" disabled={reason.trim().length < 3}>
            Suspender
          </Button>
        </form>
      )}
    </li>
  );
}
