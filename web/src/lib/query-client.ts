import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api-client';

/** The app's one query cache. 4xx answers are not retried (they will not change by retrying). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      retry: (failureCount, error) =>
        !(isApiError(error) && error.status >= 400 && error.status < 500) && failureCount < 2,
      refetchOnWindowFocus: false,
    },
  },
});
