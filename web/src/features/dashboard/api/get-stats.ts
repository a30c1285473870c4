import type { DashboardStats } from '@carteiro/shared';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export type { DashboardStats };

export function getDashboardStats(signal?: AbortSignal) {
  return apiFetch<DashboardStats>('/api/dashboard/stats', { signal });
}

export function useDashboardStats() {
  return useQuery({ queryKey: ['dashboard', 'stats'], queryFn: ({ signal }) => getDashboardStats(signal) });
}
