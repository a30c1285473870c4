import type { FormSnippet } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { LISTS_KEY } from '@/lib/queries/lists';

export type { FormSnippet };

/** The list's hosted pt-BR subscribe page and its embeddable HTML form. */
export function getFormSnippet(id: string, signal?: AbortSignal) {
  return apiFetch<FormSnippet>(`/api/lists/${encodeURIComponent(id)}/form-snippet`, { signal });
}

export function useFormSnippet(id: string, enabled: boolean) {
  return useQuery({
    queryKey: [...LISTS_KEY, id, 'form'],
    queryFn: ({ signal }) => getFormSnippet(id, signal),
    enabled,
  });
}
