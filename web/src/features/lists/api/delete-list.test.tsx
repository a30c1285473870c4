import { QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { LISTS_KEY, type MailingList } from '@/lib/queries/lists';
import { testQueryClient } from '@/test/render';
import { useDeleteList } from './delete-list';

let restore: () => void = () => {};
afterEach(() => restore());

const list = (id: string, name: string) => ({ id, name }) as MailingList;

describe('useDeleteList', () => {
  it('takes the deleted list out of the cached lists before any refetch answers, and does not refetch it', async () => {
    const calls: string[] = [];
    const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      calls.push(`${init?.method ?? 'GET'} ${String(url)}`);
      if (init?.method === 'DELETE') return new Response(null, { status: 204 });
      // A refetch that never answers: what the lists page shows meanwhile is the cache.
      return new Promise<Response>(() => {});
    });
    restore = configureApiClient({ fetch });
    const client = testQueryClient();
    client.setQueryData(LISTS_KEY, [list('a', 'Clientes da loja'), list('b', 'Feira de sábado')]);
    client.setQueryData([...LISTS_KEY, 'a'], list('a', 'Clientes da loja'));
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const { result } = renderHook(() => useDeleteList(), { wrapper });

    await act(() => result.current.mutateAsync('a'));

    expect(client.getQueryData<MailingList[]>(LISTS_KEY)?.map((l) => l.name)).toEqual(['Feira de sábado']);
    expect(client.getQueryState(LISTS_KEY)?.isInvalidated).toBe(true);
    expect(client.getQueryState([...LISTS_KEY, 'a'])?.isInvalidated).toBe(false);
    expect(calls).toEqual(['DELETE /api/lists/a']);
  });
});
