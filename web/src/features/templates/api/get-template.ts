import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { TEMPLATES_KEY, type Template } from './types';

export function getTemplate(id: string, signal?: AbortSignal): Promise<Template> {
  return apiFetch<Template>(`/api/templates/${encodeURIComponent(id)}`, { signal });
}

export function useTemplate(id: string) {
  return useQuery({ queryKey: [...TEMPLATES_KEY, id], queryFn: ({ signal }) => getTemplate(id, signal) });
}
