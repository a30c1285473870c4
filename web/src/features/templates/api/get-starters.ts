import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { TEMPLATES_KEY } from '@/lib/queries/templates';
import type { StarterTemplate } from './types';

export async function getStarterTemplates(signal?: AbortSignal): Promise<StarterTemplate[]> {
  return (await apiFetch<{ items: StarterTemplate[] }>('/api/templates/starters', { signal })).items;
}

export function useStarterTemplates() {
  return useQuery({
    queryKey: [...TEMPLATES_KEY, 'starters'],
    queryFn: ({ signal }) => getStarterTemplates(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
