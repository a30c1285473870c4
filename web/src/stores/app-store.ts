import { TOAST_REMOVE_DELAY_AFTER_DISMISS_MS, TOAST_REMOVE_DELAY_MS } from '@carteiro/shared';
import { createContext, useContext, useSyncExternalStore } from 'react';
import { type Toast, type ToastAction, toastReducer } from './toast-reducer';

export interface SessionUser {
  id: string;
  name: string;
  email: string;
  emailVerified: boolean;
}

export interface SessionAccount {
  id: string;
  uuid: string;
  name: string;
  [field: string]: unknown;
}

export interface ConfirmDialog {
  title: string;
  description: string;
  /** Runs when the user presses "Continuar". */
  action: () => void | Promise<void>;
}

/** The client-side shared state of spec §3. */
export interface AppState {
  toasts: Toast[];
  user: SessionUser | null;
  account: SessionAccount | null;
  dialog: ConfirmDialog | null;
  /** Progress of the running contact CSV import, 0–100, or null when none runs. */
  contactUploadProgress: number | null;
}

export type AppAction =
  | ToastAction
  | { type: 'SET_USER'; user: SessionUser | null }
  | { type: 'SET_ACCOUNT'; account: SessionAccount | null }
  | { type: 'SET_DIALOG'; dialog: ConfirmDialog | null }
  | { type: 'SET_CONTACT_UPLOAD_PROGRESS'; progress: number | null };

export const initialAppState: AppState = {
  toasts: [],
  user: null,
  account: null,
  dialog: null,
  contactUploadProgress: null,
};

export function appReducer(state: AppState, action: AppAction): AppState {
  switch (action.type) {
    case 'SET_USER':
      return { ...state, user: action.user };
    case 'SET_ACCOUNT':
      return { ...state, account: action.account };
    case 'SET_DIALOG':
      return { ...state, dialog: action.dialog };
    case 'SET_CONTACT_UPLOAD_PROGRESS':
      return { ...state, contactUploadProgress: action.progress };
    default:
      return { ...state, toasts: toastReducer(state.toasts, action) };
  }
}

export type ToastInput = Omit<Toast, 'id' | 'open'>;

/**
 * A tiny external store (useSyncExternalStore) holding the shared state plus the toast removal timers.
 * Timers: each toast gets one pending removal — 5000 ms after it is set (added or updated), 1,000,000 ms after
 * it is dismissed. Setting a toast (add/update/dismiss) first cancels its pending removal (spec §4).
 */
export function createAppStore(initial: AppState = initialAppState) {
  let state = initial;
  const listeners = new Set<() => void>();
  const removalTimers = new Map<number, ReturnType<typeof setTimeout>>();

  function cancelRemoval(id: number) {
    const timer = removalTimers.get(id);
    if (timer !== undefined) {
      clearTimeout(timer);
      removalTimers.delete(id);
    }
  }

  function scheduleRemoval(id: number, delayMs: number) {
    cancelRemoval(id);
    removalTimers.set(
      id,
      setTimeout(() => {
        removalTimers.delete(id);
        dispatch({ type: 'REMOVE_TOAST', toastId: id });
      }, delayMs),
    );
  }

  function dispatch(action: AppAction) {
    const before = state.toasts;
    state = appReducer(state, action);
    switch (action.type) {
      case 'ADD_TOAST':
        scheduleRemoval(action.toast.id, TOAST_REMOVE_DELAY_MS);
        break;
      case 'UPDATE_TOAST':
        if (state.toasts.some((t) => t.id === action.toast.id && t.open)) {
          scheduleRemoval(action.toast.id, TOAST_REMOVE_DELAY_MS);
        }
        break;
      case 'DISMISS_TOAST':
        for (const t of before) {
          if (action.toastId === undefined || t.id === action.toastId) {
            scheduleRemoval(t.id, TOAST_REMOVE_DELAY_AFTER_DISMISS_MS);
          }
        }
        break;
      case 'REMOVE_TOAST':
        break;
      default:
        break;
    }
    // Toasts that left the list (replaced by a newer one, or removed) have nothing left to remove.
    const ids = new Set(state.toasts.map((t) => t.id));
    for (const id of removalTimers.keys()) if (!ids.has(id)) cancelRemoval(id);
    for (const listener of listeners) listener();
  }

  return {
    getState: () => state,
    dispatch,
    subscribe(listener: () => void) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    /** Shows a toast (replacing the current one) and returns its id. */
    toast(input: ToastInput): number {
      const id = randomToastId();
      dispatch({ type: 'ADD_TOAST', toast: { ...input, id, open: true } });
      return id;
    },
    /** Asks for confirmation: the dialog stays open until Cancelar/Continuar. */
    confirm(dialog: ConfirmDialog) {
      dispatch({ type: 'SET_DIALOG', dialog });
    },
    /** Number of pending toast removals (for tests). */
    pendingRemovals: () => removalTimers.size,
  };
}

export type AppStore = ReturnType<typeof createAppStore>;

function randomToastId(): number {
  const bytes = new Uint32Array(1);
  crypto.getRandomValues(bytes);
  return bytes[0]!;
}

/** The app's one store. Tests create their own with `createAppStore()` and pass it through `AppStoreContext`. */
export const appStore = createAppStore();

export const AppStoreContext = createContext<AppStore>(appStore);

export function useAppStore(): AppStore {
  return useContext(AppStoreContext);
}

export function useAppState<T>(selector: (state: AppState) => T): T {
  const store = useAppStore();
  return useSyncExternalStore(
    store.subscribe,
    () => selector(store.getState()),
    () => selector(store.getState()),
  );
}

export const useToasts = () => useAppState((s) => s.toasts);
export const useUser = () => useAppState((s) => s.user);
export const useAccount = () => useAppState((s) => s.account);
export const useDialog = () => useAppState((s) => s.dialog);
export const useContactUploadProgress = () => useAppState((s) => s.contactUploadProgress);

/** Imperative helpers bound to the app store, usable outside React too. */
export const toast = (input: ToastInput) => appStore.toast(input);
export const dismissToast = (toastId?: number) => appStore.dispatch({ type: 'DISMISS_TOAST', toastId });
export const confirmAction = (dialog: ConfirmDialog) => appStore.confirm(dialog);
