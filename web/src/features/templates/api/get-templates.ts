import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { TEMPLATES_KEY, type TemplateSummary } from './types';

export async function getTemplates(signal?: AbortSignal): Promise<TemplateSummary[]> {
  return (await apiFetch<{ items: TemplateSummary[] }>('/api/templates', { signal })).items;
}

export function useTemplates() {
  return useQuery({ queryKey: TEMPLATES_KEY, queryFn: ({ signal }) => getTemplates(signal) });
}
