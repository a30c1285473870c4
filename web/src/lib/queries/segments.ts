import type { SegmentCreateInput, SegmentGroup, SegmentPreviewContact, SegmentView } from '@carteiro/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch, isApiError } from '@/lib/api-client';

/** Segments API calls and their query hooks (Contatos → Segmentos, and the campaign audience step). */

export const SEGMENTS_KEY = ['segments'] as const;

export function useSegments(enabled = true) {
  return useQuery({
    queryKey: SEGMENTS_KEY,
    enabled,
    queryFn: async ({ signal }) => (await apiFetch<{ items: SegmentView[] }>('/api/segments', { signal })).items,
  });
}

export function useSegment(id: string | undefined) {
  return useQuery({
    queryKey: [...SEGMENTS_KEY, id],
    enabled: !!id,
    queryFn: ({ signal }) => apiFetch<SegmentView>(`/api/segments/${id}`, { signal }),
  });
}

export function useCustomFields() {
  return useQuery({
    queryKey: [...SEGMENTS_KEY, 'fields'],
    queryFn: async ({ signal }) =>
      (await apiFetch<{ customFields: string[] }>('/api/segments/fields', { signal })).customFields,
  });
}

export function useSaveSegment(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SegmentCreateInput) =>
      id
        ? apiFetch<SegmentView>(`/api/segments/${id}`, { method: 'PATCH', body: input })
        : apiFetch<SegmentView>('/api/segments', { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: SEGMENTS_KEY }),
  });
}

export function useDeleteSegment() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/segments/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: SEGMENTS_KEY }),
  });
}

/**
 * A count or preview the server answered is not asked again by itself: past its time bound the server stopped it
 * (a 503 saying to simplify the conditions), and asking again would run the same long read twice more. A failure
 * to reach the server is retried as everywhere.
 */
export const retrySegmentRead = (failureCount: number, error: unknown): boolean =>
  !(isApiError(error) && error.status > 0) && failureCount < 2;

/**
 * The live count and the first matches of an unsaved tree. `tree` is null while the draft is invalid (no
 * request then); the previous answer stays on screen while the next one loads.
 */
export function useSegmentMatches(tree: SegmentGroup | null) {
  const key = JSON.stringify(tree);
  const count = useQuery({
    queryKey: [...SEGMENTS_KEY, 'count', key],
    enabled: tree !== null,
    placeholderData: keepPreviousData,
    retry: retrySegmentRead,
    queryFn: async ({ signal }) =>
      (await apiFetch<{ count: number }>('/api/segments/count', { body: { conditions: tree }, signal })).count,
  });
  const preview = useQuery({
    queryKey: [...SEGMENTS_KEY, 'preview', key],
    enabled: tree !== null,
    placeholderData: keepPreviousData,
    retry: retrySegmentRead,
    queryFn: async ({ signal }) =>
      (
        await apiFetch<{ items: SegmentPreviewContact[] }>('/api/segments/preview', {
          body: { conditions: tree },
          signal,
        })
      ).items,
  });
  return { count, preview };
}
