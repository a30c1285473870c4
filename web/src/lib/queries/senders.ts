import type { SenderAlignment, SenderDomainDto, SenderListDto } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';

/** Sender identities: addresses, domains and the From addresses the account may use. */
export const SENDERS_QUERY_KEY = ['senders'] as const;

export function getSenders(signal?: AbortSignal): Promise<SenderListDto> {
  return apiFetch<SenderListDto>('/api/senders', { signal });
}

export function useSenders() {
  return useQuery({ queryKey: SENDERS_QUERY_KEY, queryFn: ({ signal }) => getSenders(signal) });
}

export function refreshSenders(): void {
  void queryClient.invalidateQueries({ queryKey: SENDERS_QUERY_KEY });
}

export function addSenderAddress(email: string): Promise<unknown> {
  return apiFetch('/api/sender-addresses', { method: 'POST', body: { email } });
}

export function deleteSenderAddress(id: string): Promise<unknown> {
  return apiFetch(`/api/sender-addresses/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function confirmSenderAddress(token: string): Promise<{ email: string }> {
  return apiFetch<{ email: string }>('/api/sender-addresses/confirm', { method: 'POST', body: { token } });
}

export function addSenderDomain(domain: string): Promise<SenderDomainDto> {
  return apiFetch<SenderDomainDto>('/api/sender-domains', { method: 'POST', body: { domain } });
}

export function checkSenderDomain(id: string): Promise<SenderDomainDto> {
  return apiFetch<SenderDomainDto>(`/api/sender-domains/${encodeURIComponent(id)}/check`, { method: 'POST' });
}

export function deleteSenderDomain(id: string): Promise<unknown> {
  return apiFetch(`/api/sender-domains/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useSenderAlignment(fromEmail: string | null) {
  return useQuery({
    queryKey: [...SENDERS_QUERY_KEY, 'alignment', fromEmail],
    queryFn: ({ signal }) =>
      apiFetch<SenderAlignment>(`/api/senders/alignment?fromEmail=${encodeURIComponent(fromEmail ?? '')}`, { signal }),
    enabled: Boolean(fromEmail),
  });
}

export function useUnverifiedSenders() {
  return useQuery({
    queryKey: [...SENDERS_QUERY_KEY, 'unverified'],
    queryFn: ({ signal }) => apiFetch<{ emails: string[] }>('/api/senders/unverified', { signal }),
  });
}
