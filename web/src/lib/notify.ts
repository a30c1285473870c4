import { errorText } from '@/lib/error-text';
import { toast } from '@/stores/app-store';

/** A red toast with the failure's text (errorText: the server's message in pt-BR). */
export function toastError(title: string, error: unknown): void {
  toast({ variant: 'error', title, description: errorText(error) });
}

export function toastSuccess(title: string, description?: string): void {
  toast({ variant: 'success', title, description });
}
