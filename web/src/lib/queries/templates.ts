import type { TemplateSummary, TemplateView } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/**
 * Templates as several pages read them (the templates pages, the campaign form and its A/B variants, automations).
 * TEMPLATES_KEY is the one cache key: a template's mutations invalidate it for every reader.
 */

export type { TemplateSummary, TemplateView as Template };

export const TEMPLATES_KEY = ['templates'] as const;

export async function getTemplates(signal?: AbortSignal): Promise<TemplateSummary[]> {
  return (await apiFetch<{ items: TemplateSummary[] }>('/api/templates', { signal })).items;
}

export function useTemplates() {
  return useQuery({ queryKey: TEMPLATES_KEY, queryFn: ({ signal }) => getTemplates(signal) });
}

export function getTemplate(id: string, signal?: AbortSignal): Promise<TemplateView> {
  return apiFetch<TemplateView>(`/api/templates/${encodeURIComponent(id)}`, { signal });
}

export function useTemplate(id: string) {
  return useQuery({ queryKey: [...TEMPLATES_KEY, id], queryFn: ({ signal }) => getTemplate(id, signal) });
}
