import type { AddSuppressionsResult, SuppressionLookup, SuppressionSummary } from '@carteiro/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export type { AddSuppressionsResult, SuppressionLookup, SuppressionSummary };

const SUPPRESSIONS_KEY = ['suppressions'] as const;

/** Counts of the account's suppression list by reason (it keeps hashes, never the addresses). */
export function useSuppressionSummary() {
  return useQuery({
    queryKey: SUPPRESSIONS_KEY,
    queryFn: ({ signal }) => apiFetch<SuppressionSummary>('/api/suppressions', { signal }),
  });
}

export function useAddSuppressions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (emails: string[]) => apiFetch<AddSuppressionsResult>('/api/suppressions', { body: { emails } }),
    onSuccess: () => client.invalidateQueries({ queryKey: SUPPRESSIONS_KEY }),
  });
}

/** Addresses travel in POST bodies, never in URLs. */
export function lookupSuppression(email: string) {
  return apiFetch<SuppressionLookup>('/api/suppressions/lookup', { body: { email } });
}

export function useRemoveSuppression() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (email: string) => apiFetch<{ removed: true }>('/api/suppressions/remove', { body: { email } }),
    onSuccess: () => client.invalidateQueries({ queryKey: SUPPRESSIONS_KEY }),
  });
}
