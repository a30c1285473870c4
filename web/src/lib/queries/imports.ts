import type { ImportProgress, ImportStartInput, ImportUpload } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';
import { uploadWithRetry } from '@/lib/upload';

/** CSV imports of contacts (the import dialog on the contacts and list pages): upload, start, progress. */

export type { ImportUpload };

/** Sends the raw CSV (retried on 5xx/408/429 with back-off, spec §9). */
export function uploadImport(file: File, signal?: AbortSignal): Promise<ImportUpload> {
  return uploadWithRetry<ImportUpload>('/api/imports', {
    body: file,
    headers: { 'Content-Type': 'text/csv', 'x-file-name': encodeURIComponent(file.name) },
    signal,
  });
}

export function startImport(id: string, input: ImportStartInput): Promise<ImportProgress> {
  return apiFetch<ImportProgress>(`/api/imports/${encodeURIComponent(id)}/start`, { body: input });
}

/** contact_upload_progress: the job's counters (polled while it runs). */
export function getImport(id: string, signal?: AbortSignal): Promise<ImportProgress> {
  return apiFetch<ImportProgress>(`/api/imports/${encodeURIComponent(id)}`, { signal });
}

export function rejectedRowsUrl(id: string): string {
  return `/api/imports/${encodeURIComponent(id)}/rejected.csv`;
}
