import type { TopupDto } from '@carteiro/shared';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import { queryClient } from '@/lib/query-client';
import { renderWithProviders } from '@/test/render';
import { formatTimeLeft, TopupPage } from './topup-page';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  cleanup();
  queryClient.clear();
});

function topup(fields: Partial<TopupDto>): TopupDto {
  return {
    id: 't1',
    txid: 'ABCDEFGHJKLMNPQRSTUVWXYZa',
    amountMillis: 20_000,
    status: 'pending',
    brCode: '000201…',
    qrSvgDataUrl: 'data:image/svg+xml;base64,PHN2Zy8+',
    mode: 'static',
    canSimulatePayment: false,
    refundedMillis: 0,
    expiresAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    paidAt: null,
    createdAt: new Date().toISOString(),
    ...fields,
  };
}

function renderPage(first: TopupDto, afterPost?: TopupDto) {
  let current = first;
  const calls: string[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    calls.push(`${init?.method ?? 'GET'} ${path}`);
    if (path.endsWith('/simulate-payment') && afterPost) {
      current = afterPost;
      return Response.json(current);
    }
    return Response.json(current);
  });
  restore = configureApiClient({ fetch });
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/my-balance/topups/:id" element={<TopupPage />} />
    </Routes>,
    { at: '/dashboard/my-balance/topups/t1', client: queryClient },
  );
  return calls;
}

describe('top-up page', () => {
  it('counts down to the expiry', () => {
    const now = Date.parse('2025-03-10T12:00:00Z');
    expect(formatTimeLeft('2025-03-10T12:10:00Z', now)).toBe('10:00');
    expect(formatTimeLeft('2025-03-10T12:00:09Z', now)).toBe('0:09');
    expect(formatTimeLeft('2025-03-10T13:00:05Z', now)).toBe('1:00:05');
    expect(formatTimeLeft('2025-03-10T11:59:00Z', now)).toBe('0:00');
  });

  it('labels a static BR Code "Confirmação manual" and shows the countdown, without simulate when not allowed', async () => {
    renderPage(topup({ mode: 'static' }));
    await screen.findByText('Confirmação manual');
    expect(screen.getByTestId('topup-countdown').textContent).toMatch(/^Expira em (9:5\d|10:00)$/);
    expect(screen.queryByRole('button', { name: 'Simular pagamento' })).toBeNull();
    // One promise on the page: checked by hand, so no "fica verde sozinha" next to "algumas horas úteis".
    const text = document.body.textContent ?? '';
    expect(text).toContain('quando a nossa equipe conferir');
    expect(text).not.toContain('fica verde sozinha');
  });

  it('a dynamic charge says it confirms itself; "Simular pagamento" pays it and the page turns to "Pago ✓"', async () => {
    const calls = renderPage(
      topup({ mode: 'dynamic', canSimulatePayment: true }),
      topup({ mode: 'dynamic', status: 'paid', paidAt: new Date().toISOString() }),
    );
    await screen.findByText('Confirmação automática');
    expect(screen.queryByText('Confirmação manual')).toBeNull();
    expect(document.body.textContent).toContain('esta página fica verde sozinha');
    fireEvent.click(screen.getByRole('button', { name: 'Simular pagamento' }));
    await screen.findByText('Pago ✓');
    expect(calls).toContain('POST /api/billing/topups/t1/simulate-payment');
  });
});
