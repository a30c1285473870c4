import { TOAST_LIMIT } from '@carteiro/shared';

export interface Toast {
  /** Random numeric id (spec §3). */
  id: number;
  title?: string;
  description?: string;
  variant?: 'default' | 'success' | 'error';
  /** False once dismissed: hidden, then removed after the long delay. */
  open: boolean;
}

export type ToastAction =
  | { type: 'ADD_TOAST'; toast: Toast }
  | { type: 'UPDATE_TOAST'; toast: Partial<Toast> & Pick<Toast, 'id'> }
  | { type: 'DISMISS_TOAST'; toastId?: number }
  | { type: 'REMOVE_TOAST'; toastId?: number };

/**
 * Pure list transitions of spec §4: new toasts go to the front and the list is cut to TOAST_LIMIT (1), so a new
 * toast replaces the previous one; dismiss closes (all toasts when no id); remove drops (all when no id).
 * Timers live in the store (app-store.ts), not here.
 */
export function toastReducer(toasts: readonly Toast[], action: ToastAction): Toast[] {
  switch (action.type) {
    case 'ADD_TOAST':
      return [action.toast, ...toasts].slice(0, TOAST_LIMIT);
    case 'UPDATE_TOAST':
      return toasts.map((t) => (t.id === action.toast.id ? { ...t, ...action.toast } : t));
    case 'DISMISS_TOAST':
      return toasts.map((t) => (action.toastId === undefined || t.id === action.toastId ? { ...t, open: false } : t));
    case 'REMOVE_TOAST':
      return action.toastId === undefined ? [] : toasts.filter((t) => t.id !== action.toastId);
  }
}
