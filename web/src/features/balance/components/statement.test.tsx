import type { LedgerEntryDto } from '@carteiro/shared';
import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { Statement } from './statement';

const SLOW = { timeout: 5_000 };

const entry = (fields: Partial<LedgerEntryDto>): LedgerEntryDto => ({
  id: 'e',
  seq: 1,
  kind: 'topup',
  amountMillis: 0,
  balanceAfterMillis: 0,
  description: '',
  campaignId: null,
  topupId: null,
  emailCount: null,
  priceMillis: null,
  createdAt: '2026-11-20T15:30:00.000Z',
  ...fields,
});

const ENTRIES = [
  entry({
    id: 'e3',
    seq: 3,
    kind: 'send',
    amountMillis: -1_235,
    balanceAfterMillis: 48_765,
    description: 'Envio da campanha: 247 e-mails enviados × R$ 0,005',
    campaignId: 'camp-1',
    campaignName: 'Natal 2026',
    createdAt: '2026-11-21T12:00:00.000Z',
  }),
  entry({
    id: 'e1',
    seq: 1,
    kind: 'topup',
    amountMillis: 50_000,
    balanceAfterMillis: 50_000,
    description: 'Recarga por Pix',
    topupId: 'top-1',
  }),
];

let restore: () => void = () => {};
afterEach(() => {
  restore();
  cleanup();
});

function renderStatement() {
  const paths: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    const path = String(input);
    paths.push(path);
    const period = new URL(path, 'http://x').searchParams;
    return Response.json({ entries: period.has('from') ? [] : ENTRIES, nextCursor: null });
  });
  restore = configureApiClient({ fetch });
  const client = testQueryClient();
  renderWithProviders(<Statement timeZone="America/Sao_Paulo" />, { client });
  return paths;
}

describe('Statement (extrato)', () => {
  it('lists every entry with signed amount, running balance, campaign link and receipt link', async () => {
    renderStatement();
    const send = (await screen.findByText(/247 e-mails enviados/, undefined, SLOW)).closest('tr') as HTMLElement;
    expect(within(send).getByText('Envio')).toBeTruthy();
    expect(within(send).getByText(/^-R\$\s1,235$/)).toBeTruthy();
    expect(within(send).getByText(/R\$\s48,765/)).toBeTruthy();
    expect(within(send).getByRole('link', { name: 'Natal 2026' }).getAttribute('href')).toBe(
      '/dashboard/campaigns/camp-1/view',
    );
    const topup = screen.getByText('Recarga por Pix').closest('tr') as HTMLElement;
    expect(within(topup).getByText(/^\+R\$\s50,00$/)).toBeTruthy();
    expect(within(topup).getByRole('link', { name: 'Recibo' }).getAttribute('href')).toBe(
      '/dashboard/my-balance/topups/top-1/receipt',
    );
  });

  it('filters by a custom period: the list and the CSV export ask the server for the same dates', async () => {
    const paths = renderStatement();
    await screen.findByText('Recarga por Pix', undefined, SLOW);
    const csv = screen.getByRole('link', { name: 'Exportar CSV' });
    expect(csv.getAttribute('href')).toBe('/api/billing/statement.csv');

    fireEvent.click(screen.getByRole('button', { name: 'Personalizado' }));
    fireEvent.change(screen.getByLabelText('De'), { target: { value: '2026-10-01' } });
    fireEvent.change(screen.getByLabelText('Até'), { target: { value: '2026-10-31' } });
    expect(await screen.findByText('Nenhum lançamento no período', undefined, SLOW)).toBeTruthy();
    expect(paths.at(-1)).toBe('/api/billing/statement?from=2026-10-01&to=2026-10-31&limit=50');
    expect(screen.getByRole('link', { name: 'Exportar CSV' }).getAttribute('href')).toBe(
      '/api/billing/statement.csv?from=2026-10-01&to=2026-10-31',
    );

    fireEvent.click(screen.getByRole('button', { name: 'Este mês' }));
    await vi.waitFor(() => expect(paths.at(-1)).toMatch(/^\/api\/billing\/statement\?from=\d{4}-\d{2}-01&to=/));
  });
});
