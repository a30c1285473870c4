import type { ImportProgress } from '@carteiro/shared';
import { useSyncExternalStore } from 'react';
import { isApiError } from '@/lib/api-client';
import { getLocale, translate } from '@/lib/i18n';
import { getImport } from '@/lib/queries/imports';
import { queryClient } from '@/lib/query-client';
import { appStore } from '@/stores/app-store';

/** localStorage key of the running (or just finished, not yet dismissed) import. */
export const IMPORT_STORAGE_KEY = 'carteiro.contactImport';
const POLL_MS = 700;

interface TrackerState {
  importId: string | null;
  progress: ImportProgress | null;
  error: string | null;
}

let state: TrackerState = { importId: null, progress: null, error: null };
let timer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();

function set(next: Partial<TrackerState>) {
  state = { ...state, ...next };
  const running = state.progress && (state.progress.status === 'queued' || state.progress.status === 'running');
  appStore.dispatch({
    type: 'SET_CONTACT_UPLOAD_PROGRESS',
    progress: state.importId ? (state.progress?.percent ?? 0) : null,
  });
  if (!running && state.progress?.status === 'done') {
    void queryClient.invalidateQueries({ queryKey: ['contacts'] });
    void queryClient.invalidateQueries({ queryKey: ['lists'] });
  }
  for (const listener of listeners) listener();
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null;
  }
}

async function poll() {
  timer = null;
  const id = state.importId;
  if (!id) return;
  try {
    const progress = await getImport(id);
    if (state.importId !== id) return;
    set({ progress, error: null });
    if (progress.status === 'queued' || progress.status === 'running' || progress.status === 'uploaded') {
      timer = setTimeout(poll, POLL_MS);
    }
  } catch (error) {
    if (state.importId !== id) return;
    if (isApiError(error) && error.status === 404) {
      dismissImport();
      return;
    }
    set({ error: isApiError(error) ? error.message : translate(getLocale(), 'imports.progress.pollFailed') });
    timer = setTimeout(poll, POLL_MS * 4);
  }
}

/** Starts following an import job: its id is kept in localStorage so a reload resumes the progress bar. */
export function trackImport(id: string, initial?: ImportProgress) {
  if (timer) clearTimeout(timer);
  storage()?.setItem(IMPORT_STORAGE_KEY, id);
  set({ importId: id, progress: initial ?? null, error: null });
  timer = setTimeout(poll, initial ? POLL_MS : 0);
}

/** After a reload: picks up the import saved in localStorage (no-op when already tracking). */
export function resumeImport() {
  if (state.importId) return;
  const id = storage()?.getItem(IMPORT_STORAGE_KEY);
  if (id) trackImport(id);
}

/** Forgets the import (summary closed). */
export function dismissImport() {
  if (timer) clearTimeout(timer);
  timer = null;
  storage()?.removeItem(IMPORT_STORAGE_KEY);
  set({ importId: null, progress: null, error: null });
}

export function useImportTracker(): TrackerState {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => state,
    () => state,
  );
}
