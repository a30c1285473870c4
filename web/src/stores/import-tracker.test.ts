import type { ImportProgress } from '@carteiro/shared';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { appStore } from '@/stores/app-store';
import { dismissImport, IMPORT_STORAGE_KEY, resumeImport, trackImport } from '@/stores/import-tracker';

const ID = '0190b5d2-0000-7000-8000-000000000001';

function progress(percent: number, status: ImportProgress['status']): ImportProgress {
  return {
    id: ID,
    status,
    fileName: 'clientes.csv',
    totalRows: 100,
    processedRows: percent,
    percent,
    inserted: percent,
    updated: 0,
    unchanged: 0,
    skippedInvalid: 0,
    skippedDuplicate: 0,
    skippedSuppressed: 0,
    rejectedCount: 0,
    error: null,
    createdAt: new Date().toISOString(),
    startedAt: null,
    finishedAt: null,
  };
}

let restore: () => void = () => {};
afterEach(() => {
  dismissImport();
  restore();
  vi.useRealTimers();
});

describe('import tracker (contact_upload_progress)', () => {
  it('polls the job into the store until it is done and keeps the id for a reload', async () => {
    vi.useFakeTimers();
    const answers = [progress(40, 'running'), progress(100, 'done')];
    const fetch = vi.fn(async () => Response.json(answers.shift() ?? progress(100, 'done')));
    restore = configureApiClient({ fetch });
    trackImport(ID, progress(0, 'queued'));
    expect(localStorage.getItem(IMPORT_STORAGE_KEY)).toBe(ID);
    expect(appStore.getState().contactUploadProgress).toBe(0);
    await vi.advanceTimersByTimeAsync(700);
    expect(appStore.getState().contactUploadProgress).toBe(40);
    await vi.advanceTimersByTimeAsync(700);
    expect(appStore.getState().contactUploadProgress).toBe(100);
    await vi.advanceTimersByTimeAsync(5000);
    expect(fetch).toHaveBeenCalledTimes(2);
    dismissImport();
    expect(appStore.getState().contactUploadProgress).toBeNull();
    expect(localStorage.getItem(IMPORT_STORAGE_KEY)).toBeNull();
  });

  it('resumes the import saved in localStorage after a reload', async () => {
    vi.useFakeTimers();
    const fetch = vi.fn(async (_url: RequestInfo | URL, _init?: RequestInit) => Response.json(progress(70, 'running')));
    restore = configureApiClient({ fetch });
    localStorage.setItem(IMPORT_STORAGE_KEY, ID);
    resumeImport();
    await vi.advanceTimersByTimeAsync(0);
    expect(String(fetch.mock.calls[0]?.[0])).toBe(`/api/imports/${ID}`);
    expect(appStore.getState().contactUploadProgress).toBe(70);
  });
});
