import type { SkipReason } from '@carteiro/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { CAMPAIGNS_KEY } from './types';

export interface RecipientActivity {
  messageId: number;
  contactId: string | null;
  email: string;
  status: string;
  sentAt: string | null;
  opens: number;
  clicks: number;
  lastOpenAt: string | null;
  lastClickAt: string | null;
  unsubscribed: boolean;
  bounce: string | null;
  complained: boolean;
  /** Why a skipped message was not sent (SkipReason); null otherwise. */
  skipReason?: SkipReason | null;
  /** A/B test: the variant's letter; null for a normal campaign or a recipient waiting for the winner. */
  variant?: string | null;
}

export interface RecipientPage {
  items: RecipientActivity[];
  nextCursor: string | null;
}

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
