import type { TemplateCreateInput } from '@carteiro/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { TEMPLATES_KEY, type Template } from '@/lib/queries/templates';

export function createTemplate(input: TemplateCreateInput): Promise<Template> {
  return apiFetch<Template>('/api/templates', { body: input });
}

export function useCreateTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createTemplate,
    onSuccess: () => client.invalidateQueries({ queryKey: TEMPLATES_KEY }),
  });
}
