import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type RenderResult, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';

/** A query client for one test: no retries, so a failed answer shows at once. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export interface ProvidersOptions {
  /** The URL the router starts at (default `/`); pass `<Routes>` as the element to match a path. */
  at?: string;
  /** The query client (default a fresh testQueryClient; the app's own when a component calls it directly). */
  client?: QueryClient;
}

/**
 * The one way a web test renders: the element inside the app's providers — TanStack Query and a memory router.
 * Answers the render result and the client (to seed or read the cache).
 */
export function renderWithProviders(
  element: ReactNode,
  { at = '/', client = testQueryClient() }: ProvidersOptions = {},
): RenderResult & { client: QueryClient } {
  const result = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[at]}>{element}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...result, client };
}
