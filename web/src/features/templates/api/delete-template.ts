import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { TEMPLATES_KEY } from '@/lib/queries/templates';

export function deleteTemplate(id: string): Promise<void> {
  return apiFetch<void>(`/api/templates/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTemplate,
    onSuccess: () => client.invalidateQueries({ queryKey: TEMPLATES_KEY }),
  });
}
