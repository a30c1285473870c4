import type { ApiKey, ApiKeyCreateInput, CreatedApiKey } from '@carteiro/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export const API_KEYS_KEY = ['api-keys'] as const;

export async function getApiKeys(signal?: AbortSignal): Promise<ApiKey[]> {
  return (await apiFetch<{ items: ApiKey[] }>('/api/api-keys', { signal })).items;
}

export function useApiKeys() {
  return useQuery({ queryKey: API_KEYS_KEY, queryFn: ({ signal }) => getApiKeys(signal) });
}

/** Creates a key; the answer carries the whole secret, the only time it is ever shown. */
export function createApiKey(input: ApiKeyCreateInput): Promise<CreatedApiKey> {
  return apiFetch<CreatedApiKey>('/api/api-keys', { body: input });
}

export function useCreateApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: () => client.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}

export function revokeApiKey(id: string): Promise<ApiKey> {
  return apiFetch<ApiKey>(`/api/api-keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useRevokeApiKey() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => client.invalidateQueries({ queryKey: API_KEYS_KEY }),
  });
}
