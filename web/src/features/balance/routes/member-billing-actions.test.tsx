import { cleanup, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DashboardHomePage } from '@/features/dashboard/routes/dashboard-home-page';
import { configureApiClient } from '@/lib/api-client';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { MyBalancePage } from './my-balance-page';

const SLOW = { timeout: 5_000 };

function session(role: 'owner' | 'admin' | 'member') {
  return {
    user: { id: 'u1', name: 'Bia Souza', email: 'bia@example.com', emailVerified: true },
    account: { id: 'a1', uuid: 'a1', name: 'Loja da Bia', timeZone: 'America/Sao_Paulo' },
    accounts: [],
    role,
    isOperator: false,
  };
}

let restore: () => void = () => {};
afterEach(() => {
  restore();
  cleanup();
});

function renderAs(role: 'owner' | 'admin' | 'member', page: ReactNode) {
  const paths: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input);
    paths.push(path);
    if (path === '/api/billing/balance')
      return Response.json({
        balanceMillis: 0,
        priceMillis: 5,
        emailsPaid: 0,
        formatted: 'R$ 0,00',
        lowBalance: true,
        lowBalanceThresholdMillis: 5_000,
      });
    if (path === '/api/campaigns') return Response.json({ items: [] });
    if (path.startsWith('/api/billing/statement')) return Response.json({ entries: [], nextCursor: null });
    if (path === '/api/billing/topups') return Response.json({ topups: [] });
    if (path.startsWith('/api/dashboard/stats'))
      return Response.json({ sentThisMonth: 0, sentTotal: 0, openRate: null, clickRate: null, rateWindowDelivered: 0 });
    return Response.json({ items: [] });
  });
  restore = configureApiClient({ fetch });
  const client = testQueryClient();
  client.setQueryData(SESSION_QUERY_KEY, session(role));
  renderWithProviders(page, { client });
  return paths;
}

describe('billing actions by role', () => {
  it('a member sees the balance but no "Adicionar créditos", extrato or top-ups on "Meu saldo"', async () => {
    const paths = renderAs('member', <MyBalancePage />);
    expect((await screen.findByTestId('balance', undefined, SLOW)).textContent).toMatch(/R\$\s0,00/);
    expect(screen.queryByRole('button', { name: 'Adicionar créditos' })).toBeNull();
    expect(screen.queryByText(/Adicionar créditos/)).toBeNull();
    expect(screen.getByText(/proprietário|administrador/i)).toBeTruthy();
    // The member never even asks for the owner-only APIs (the server would answer 403).
    expect(paths.filter((p) => p.startsWith('/api/billing/statement') || p.startsWith('/api/billing/topups'))).toEqual(
      [],
    );
  });

  it('an owner gets the "Adicionar créditos" button on "Meu saldo"', async () => {
    renderAs('owner', <MyBalancePage />);
    expect(await screen.findByRole('button', { name: 'Adicionar créditos' }, SLOW)).toBeTruthy();
  });

  it('a member sees no "Adicionar créditos" link or onboarding step on the dashboard; an owner does', async () => {
    renderAs('member', <DashboardHomePage />);
    await screen.findByTestId('home-balance', undefined, SLOW);
    expect(screen.queryByText(/Adicionar créditos/)).toBeNull();
    cleanup();
    restore();

    renderAs('owner', <DashboardHomePage />);
    await screen.findByTestId('home-balance', undefined, SLOW);
    expect((await screen.findAllByText(/Adicionar créditos/, undefined, SLOW)).length).toBeGreaterThan(0);
  });
});
