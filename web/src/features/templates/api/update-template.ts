import type { TemplateUpdateInput } from '@carteiro/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { TEMPLATES_KEY, type Template } from '@/lib/queries/templates';

/** Saves; the server checks the Liquid and answers 400 with "Linha N: …" in pt-BR. */
export function updateTemplate(id: string, input: TemplateUpdateInput): Promise<Template> {
  return apiFetch<Template>(`/api/templates/${encodeURIComponent(id)}`, { method: 'PATCH', body: input });
}

export function useUpdateTemplate(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TemplateUpdateInput) => updateTemplate(id, input),
    onSuccess: (template) => {
      client.setQueryData([...TEMPLATES_KEY, id], template);
      return client.invalidateQueries({ queryKey: TEMPLATES_KEY, exact: true });
    },
  });
}
