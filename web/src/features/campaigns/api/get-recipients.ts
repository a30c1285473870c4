import type { RecipientActivity, RecipientPage } from '@carteiro/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CAMPAIGNS_KEY } from './types';

export type { RecipientActivity, RecipientPage };

export const RECIPIENTS_PAGE_SIZE = 50;

export function getCampaignRecipients(
  id: string,
  options: { search?: string; cursor?: string | null; limit?: number },
  signal?: AbortSignal,
) {
  const params = new URLSearchParams({ limit: String(options.limit ?? RECIPIENTS_PAGE_SIZE) });
  if (options.search) params.set('search', options.search);
  if (options.cursor) params.set('cursor', options.cursor);
  return apiFetch<RecipientPage>(`/api/campaigns/${encodeURIComponent(id)}/recipients?${params}`, { signal });
}

/** Per-recipient activity, searched by e-mail, one keyset page at a time ("Carregar mais"). */
export function useCampaignRecipients(id: string, search: string, enabled: boolean) {
  return useInfiniteQuery({
    queryKey: [...CAMPAIGNS_KEY, id, 'recipients', search],
    queryFn: ({ pageParam, signal }) => getCampaignRecipients(id, { search, cursor: pageParam }, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled,
  });
}
