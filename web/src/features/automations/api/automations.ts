import type { AutomationReport, AutomationSaveInput, AutomationView } from '@carteiro/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** Automations API calls and their query hooks (Automações). */

export const AUTOMATIONS_KEY = ['automations'] as const;

export function useAutomations() {
  return useQuery({
    queryKey: AUTOMATIONS_KEY,
    queryFn: async ({ signal }) => (await apiFetch<{ items: AutomationView[] }>('/api/automations', { signal })).items,
  });
}

export function useAutomation(id: string | undefined) {
  return useQuery({
    queryKey: [...AUTOMATIONS_KEY, id],
    enabled: !!id,
    queryFn: ({ signal }) => apiFetch<AutomationView>(`/api/automations/${id}`, { signal }),
  });
}

export function useAutomationReport(id: string | undefined) {
  return useQuery({
    queryKey: [...AUTOMATIONS_KEY, id, 'report'],
    enabled: !!id,
    refetchInterval: 15_000,
    queryFn: ({ signal }) => apiFetch<AutomationReport>(`/api/automations/${id}/report`, { signal }),
  });
}

export function useSaveAutomation(id: string | undefined) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: AutomationSaveInput) =>
      id
        ? apiFetch<AutomationView>(`/api/automations/${id}`, { method: 'PUT', body: input })
        : apiFetch<AutomationView>('/api/automations', { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: AUTOMATIONS_KEY }),
  });
}

/** "Ativar" / "Retomar" (activate) and "Pausar" (pause). */
export function useAutomationControl() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'activate' | 'pause' }) =>
      apiFetch<AutomationView>(`/api/automations/${id}/${action}`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: AUTOMATIONS_KEY }),
  });
}

export function useDeleteAutomation() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(`/api/automations/${id}`, { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: AUTOMATIONS_KEY }),
  });
}
