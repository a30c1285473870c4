import type { ImportProgress, ImportStartInput } from '@carteiro/shared';
import { apiFetch } from '@/lib/api-client';

export function startImport(id: string, input: ImportStartInput): Promise<ImportProgress> {
  return apiFetch<ImportProgress>(`/api/imports/${encodeURIComponent(id)}/start`, { body: input });
}
