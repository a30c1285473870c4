import type { FieldType } from '@carteiro/shared';
import { uploadWithRetry } from '@/lib/upload';

/** The server's answer to an upload: what it detected and the first rows, for the mapping step. */
export interface ImportUpload {
  importId: string;
  totalRows: number;
  delimiter: string;
  encoding: string;
  hasBom: boolean;
  columns: string[];
  preview: string[][];
  suggestedMapping: Record<string, string>;
  /** Custom-field columns written as dates (header → date); the others are text until the owner says otherwise. */
  suggestedTypes?: Record<string, FieldType>;
}

/** Sends the raw CSV (retried on 5xx/408/429 with back-off, spec §9). */
export function uploadImport(file: File, signal?: AbortSignal): Promise<ImportUpload> {
  return uploadWithRetry<ImportUpload>('/api/imports', {
    body: file,
    headers: { 'Content-Type': 'text/csv', 'x-file-name': encodeURIComponent(file.name) },
    signal,
  });
}
