import type {
  WebhookDeliveryDto,
  WebhookDeliveryStatus,
  WebhookEndpointCreate,
  WebhookEndpointDto,
  WebhookEndpointUpdate,
  WebhookSecret,
} from '@carteiro/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export const WEBHOOKS_KEY = ['webhooks'] as const;

export type { WebhookSecret };

const base = '/api/webhooks/endpoints';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

export function useWebhookEndpoints() {
  return useQuery({
    queryKey: WEBHOOKS_KEY,
    queryFn: async ({ signal }) => (await apiFetch<{ items: WebhookEndpointDto[] }>(base, { signal })).items,
  });
}

export function useCreateWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: WebhookEndpointCreate) => apiFetch<WebhookEndpointDto>(base, { body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}

export function useUpdateWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: string; input: WebhookEndpointUpdate }) =>
      apiFetch<WebhookEndpointDto>(one(id), { method: 'PATCH', body: input }),
    onSuccess: () => client.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}

export function useDeleteWebhookEndpoint() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<void>(one(id), { method: 'DELETE' }),
    onSuccess: () => client.invalidateQueries({ queryKey: WEBHOOKS_KEY }),
  });
}

export function revealWebhookSecret(id: string): Promise<WebhookSecret> {
  return apiFetch<WebhookSecret>(`${one(id)}/secret`);
}

export function useRotateWebhookSecret() {
  return useMutation({
    mutationFn: (id: string) => apiFetch<WebhookSecret>(`${one(id)}/secret/rotate`, { method: 'POST' }),
  });
}

export function useSendTestWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiFetch<{ eventId: string }>(`${one(id)}/test`, { method: 'POST' }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...WEBHOOKS_KEY, 'deliveries'] }),
  });
}

export function useWebhookDeliveries(
  endpointId: string,
  filter: { status: WebhookDeliveryStatus | ''; eventType: string },
) {
  const params = new URLSearchParams();
  if (filter.status) params.set('status', filter.status);
  if (filter.eventType) params.set('eventType', filter.eventType);
  const query = params.toString();
  return useQuery({
    queryKey: [...WEBHOOKS_KEY, 'deliveries', endpointId, filter],
    queryFn: async ({ signal }) =>
      (
        await apiFetch<{ items: WebhookDeliveryDto[] }>(`${one(endpointId)}/deliveries${query ? `?${query}` : ''}`, {
          signal,
        })
      ).items,
    // A live log: deliveries appear (test event, new events) and move on their own while it is open.
    refetchInterval: 2000,
  });
}

export function useRedeliverWebhook() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (deliveryId: string) =>
      apiFetch<{ id: string }>(`/api/webhooks/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, {
        method: 'POST',
      }),
    onSuccess: () => client.invalidateQueries({ queryKey: [...WEBHOOKS_KEY, 'deliveries'] }),
  });
}
