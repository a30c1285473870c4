import type { ImportProgress } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

/** contact_upload_progress: the job's counters (polled while it runs). */
export function getImport(id: string, signal?: AbortSignal): Promise<ImportProgress> {
  return apiFetch<ImportProgress>(`/api/imports/${encodeURIComponent(id)}`, { signal });
}

export function rejectedRowsUrl(id: string): string {
  return `/api/imports/${encodeURIComponent(id)}/rejected.csv`;
}
