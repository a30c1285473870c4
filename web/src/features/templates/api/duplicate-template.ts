import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { TEMPLATES_KEY, type Template } from '@/lib/queries/templates';

export function duplicateTemplate(id: string): Promise<Template> {
  return apiFetch<Template>(`/api/templates/${encodeURIComponent(id)}/duplicate`, { method: 'POST', body: {} });
}

export function useDuplicateTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: duplicateTemplate,
    onSuccess: () => client.invalidateQueries({ queryKey: TEMPLATES_KEY }),
  });
}
