import { act } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { LISTS_KEY, type MailingList } from '@/lib/queries/lists';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { useDeleteList } from './delete-list';

let restore: () => void = () => {};
afterEach(() => restore());

const list = (id: string, name: string) => ({ id, name }) as MailingList;

/** Renders the hook and answers its delete. */
function renderDelete(client: ReturnType<typeof testQueryClient>): (id: string) => Promise<void> {
  let remove: ((id: string) => Promise<void>) | undefined;
  function Probe() {
    remove = useDeleteList().mutateAsync;
    return null;
  }
  renderWithProviders(<Probe />, { client });
  return (id) => (remove as (id: string) => Promise<void>)(id);
}

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
    const remove = renderDelete(client);

    await act(() => remove('a'));

    expect(client.getQueryData<MailingList[]>(LISTS_KEY)?.map((l) => l.name)).toEqual(['Feira de sábado']);
    expect(client.getQueryState(LISTS_KEY)?.isInvalidated).toBe(true);
    expect(client.getQueryState([...LISTS_KEY, 'a'])?.isInvalidated).toBe(false);
    expect(calls).toEqual(['DELETE /api/lists/a']);
  });
});
