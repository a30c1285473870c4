import { cleanup, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { setLocale } from '@/lib/i18n';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { queryClient } from '@/lib/query-client';
import { renderWithProviders } from '@/test/render';
import { TeamPanel } from './team-panel';

const session = {
  user: { id: 'u1', name: 'Maria', email: 'dona.maria@padaria-do-bairro.com.br', emailVerified: true },
  account: { id: 'a1', uuid: 'a1', name: 'Padaria' },
  accounts: [],
  role: 'owner',
  isOperator: false,
};

let restore: () => void = () => {};
afterEach(async () => {
  cleanup();
  restore();
  await setLocale('pt-BR');
  queryClient.clear();
});

describe('TeamPanel (Configurações → Equipe)', () => {
  it('shows when a member joined in full: the date is never cut by the e-mail ellipsis on a phone', async () => {
    restore = configureApiClient({
      fetch: vi.fn(async (input: RequestInfo | URL) => {
        const path = String(input);
        if (path === '/api/account/members') {
          return Response.json({
            members: [
              {
                userId: 'u1',
                role: 'owner',
                joinedAt: '2026-11-24T12:00:00.000Z',
                name: 'Maria',
                email: 'dona.maria@padaria-do-bairro.com.br',
              },
            ],
          });
        }
        if (path === '/api/account/invitations') return Response.json({ invitations: [] });
        return Response.json({});
      }),
    });
    queryClient.setQueryData(SESSION_QUERY_KEY, session);
    renderWithProviders(<TeamPanel />, { client: queryClient });
    const since = await screen.findByTestId('member-since');
    expect(since.textContent).toMatch(/24\/11\/2026/);
    // No ancestor truncates (text-overflow: ellipsis) the line that holds the date.
    expect(since.closest('.truncate')).toBeNull();
  });

  it('in English, refuses an invalid invitation address in English and sends nothing', async () => {
    const fetch = vi.fn(async (input: RequestInfo | URL, _init?: RequestInit) => {
      const path = String(input);
      if (path === '/api/account/members') return Response.json({ members: [] });
      if (path === '/api/account/invitations') return Response.json({ invitations: [] });
      return Response.json({});
    });
    restore = configureApiClient({ fetch });
    await setLocale('en');
    queryClient.setQueryData(SESSION_QUERY_KEY, session);
    renderWithProviders(<TeamPanel />, { client: queryClient });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'maria-sem-arroba' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(await screen.findByText('Invalid e-mail.')).toBeTruthy();
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'POST')).toBe(false);
  });
});
