import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** GET /api/dashboard/stats (server/src/modules/reports/reports.ts `dashboardStats`). */
export interface DashboardStats {
  /** Messages delivered since the first day of this month (UTC). */
  sentThisMonth: number;
  sentTotal: number;
  /** Unique human opens / clicks over the messages delivered since the start of the previous month (0–1). */
  openRate: number;
  clickRate: number;
  rateWindowDelivered: number;
}

export function getDashboardStats(signal?: AbortSignal) {
  return apiFetch<DashboardStats>('/api/dashboard/stats', { signal });
}

export function useDashboardStats() {
  return useQuery({ queryKey: ['dashboard', 'stats'], queryFn: ({ signal }) => getDashboardStats(signal) });
}
