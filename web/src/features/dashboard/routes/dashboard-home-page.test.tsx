import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { DashboardHomePage } from './dashboard-home-page';

const SLOW = { timeout: 5_000 };

const session = {
  user: { id: 'u1', name: 'Paula Lima', email: 'paula@example.com', emailVerified: true },
  account: { id: 'a1', uuid: 'a1', name: 'Loja da Paula', timeZone: 'America/Sao_Paulo' },
  accounts: [],
  role: 'owner',
  isOperator: false,
};

function campaign(id: string, name: string, startedAt: string | null, sent: number, opened: number, clicked: number) {
  return {
    id,
    name,
    subject: name,
    status: startedAt ? 'sent' : 'draft',
    scheduledAt: null,
    startedAt,
    finishedAt: startedAt,
    updatedAt: startedAt ?? '2026-11-01T12:00:00.000Z',
    counters: { recipients: sent, sent, opened, clicked },
  };
}

let restore: () => void = () => {};
afterEach(() => restore());

function renderHome(stats: unknown, campaigns: unknown[]) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input);
    if (path === '/api/dashboard/stats') return Response.json(stats);
    if (path === '/api/campaigns') return Response.json({ items: campaigns });
    if (path === '/api/billing/balance')
      return Response.json({
        balanceMillis: 49_995,
        priceMillis: 5,
        emailsPaid: 9_999,
        formatted: 'R$ 49,995',
        lowBalance: false,
        lowBalanceThresholdMillis: 0,
      });
    return Response.json({ items: [{}] });
  });
  restore = configureApiClient({ fetch });
  const client = testQueryClient();
  client.setQueryData(SESSION_QUERY_KEY, session);
  renderWithProviders(<DashboardHomePage />, { client });
}

describe('DashboardHomePage', () => {
  it('shows the account numbers from /api/dashboard/stats pt-BR formatted and the recent campaigns chart', async () => {
    renderHome(
      { sentThisMonth: 12_345, sentTotal: 1_234_567, openRate: 0.3551, clickRate: 0.042, rateWindowDelivered: 20_000 },
      [
        campaign('c1', 'Black Friday', '2026-11-20T12:00:00.000Z', 10_000, 3_500, 400),
        campaign('c2', 'Boas-vindas', '2026-11-02T12:00:00.000Z', 2_345, 1_000, 100),
        campaign('c3', 'Rascunho', null, 0, 0, 0),
      ],
    );
    expect((await screen.findByTestId('home-sent-month', undefined, SLOW)).textContent).toBe('12.345');
    expect(screen.getByText('1.234.567 desde o início')).toBeTruthy();
    expect(screen.getByTestId('home-open-rate').textContent).toBe('35,5%');
    expect(screen.getByTestId('home-click-rate').textContent).toBe('4,2%');
    expect(screen.getAllByText(/sobre os e-mails entregues desde 01\/\d\d\/\d{4} \(20\.000\)/)).toHaveLength(2);

    const chart = await screen.findByTestId('home-chart', undefined, SLOW);
    expect(
      within(chart).getByText('Últimas campanhas (2): 12.345 entregues, 4.500 aberturas e 500 cliques.', undefined),
    ).toBeTruthy();
    expect(within(chart).getByRole('figure', { name: /Gráfico de entregues, aberturas e cliques/ })).toBeTruthy();
    const rows = within(chart).getAllByRole('row').slice(1);
    // Oldest first, drafts left out.
    expect(rows.map((r) => r.textContent)).toEqual(['Boas-vindas2.3451.000100', 'Black Friday10.0003.500400']);
  }, 20_000);

  it('agrees the chart summary\'s words with their counts ("1 abertura e 1 clique")', async () => {
    renderHome({ sentThisMonth: 5, sentTotal: 5, openRate: 0.2, clickRate: 0.2, rateWindowDelivered: 5 }, [
      campaign('c1', 'Novidades', '2026-11-20T12:00:00.000Z', 1, 1, 1),
      campaign('c2', 'Natal', '2026-11-21T12:00:00.000Z', 4, 0, 0),
    ]);
    const chart = await screen.findByTestId('home-chart', undefined, SLOW);
    expect(within(chart).getByText('Últimas campanhas (2): 5 entregues, 1 abertura e 1 clique.')).toBeTruthy();
  }, 20_000);

  it('has an empty chart state and dashes for rates before the first send', async () => {
    renderHome({ sentThisMonth: 0, sentTotal: 0, openRate: 0, clickRate: 0, rateWindowDelivered: 0 }, []);
    expect((await screen.findByTestId('home-open-rate', undefined, SLOW)).textContent).toBe('—');
    expect(screen.getAllByText('ainda sem e-mails entregues')).toHaveLength(2);
    expect(await screen.findByText('O gráfico aparece depois do primeiro envio.', undefined, SLOW)).toBeTruthy();
  }, 20_000);
});
