import { toastError, toastSuccess } from '@/lib/notify';
import { queryClient } from '@/lib/query-client';
import { confirmAction } from '@/stores/app-store';

/** Refetches everything the back office shows (accounts, top-ups, alerts, audit log, operators, people). */
export function refreshAdmin(): void {
  void queryClient.invalidateQueries({ queryKey: ['admin'] });
}

/**
 * Every operator action goes the same way: the confirmation dialog first; then the call, a pt-BR toast for its
 * outcome (the error's own message under `failure`), and the back office refetched either way — a failure can
 * mean someone else changed the same thing.
 */
export function confirmAdminAction<T>(options: {
  title: string;
  description: string;
  run: () => Promise<T>;
  success: string | ((result: T) => string);
  failure: string;
  onSuccess?: () => void;
}): void {
  confirmAction({
    title: options.title,
    description: options.description,
    action: async () => {
      try {
        const result = await options.run();
        toastSuccess(typeof options.success === 'function' ? options.success(result) : options.success);
        options.onSuccess?.();
      } catch (caught) {
        toastError(options.failure, caught);
      }
      refreshAdmin();
    },
  });
}
