import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '@/app/confirm-dialog';
import { configureApiClient } from '@/lib/api-client';
import { setLocale } from '@/lib/i18n';
import { appStore } from '@/stores/app-store';
import { renderWithProviders, testQueryClient } from '@/test/render';
import type { CampaignProgress } from '../api/get-progress';
import type { Campaign } from '../api/types';
import { CampaignProgressCard } from './campaign-live';

const SLOW = { timeout: 5_000 };
const ID = '0190b5d2-0000-7000-8000-0000000000c2';

const progress: CampaignProgress = {
  status: 'sending',
  recipients: 10_000,
  sent: 4_000,
  failed: 12,
  skipped: 8,
  remaining: 5_980,
  ratePerSecond: 12.5,
  estimatedEnd: '2026-11-20T15:30:00.000Z',
  pausedReason: null,
  startedAt: '2026-11-20T15:00:00.000Z',
  finishedAt: null,
  abTestDecideAt: null,
};

let restore: () => void = () => {};
afterEach(() => {
  restore();
  appStore.dispatch({ type: 'SET_DIALOG', dialog: null });
});

function renderCard(status: Campaign['status'], answer: CampaignProgress) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    if (path.endsWith('/progress')) return Response.json(answer);
    if (init?.method === 'POST') return Response.json({ status: 'cancelled' });
    return Response.json({});
  });
  restore = configureApiClient({ fetch });
  const client = testQueryClient();
  renderWithProviders(
    <>
      <CampaignProgressCard campaign={{ id: ID, name: 'Promoção', status } as Campaign} />
      <ConfirmDialog />
    </>,
    { client },
  );
  return fetch;
}

describe('CampaignProgressCard', () => {
  it('shows sent, failed, remaining, rate and estimated end; cancel asks first', async () => {
    const fetch = renderCard('sending', progress);
    const card = await screen.findByTestId('campaign-progress');
    await within(card).findByText('4.020 de 10.000 · 40%', undefined, SLOW);
    expect(screen.getByRole('progressbar', { name: 'Progresso do envio' }).getAttribute('aria-valuenow')).toBe('40');
    expect(within(card).getByText('Enviados').nextSibling?.textContent).toBe('4.000');
    expect(within(card).getByText('Falharam').nextSibling?.textContent).toBe('12');
    expect(within(card).getByText('8 ignorados')).toBeTruthy();
    expect(within(card).getByText('Faltam').nextSibling?.textContent).toBe('5.980');
    expect(within(card).getByText('12,5/s')).toBeTruthy();
    // 15:30 UTC is 12:30 in São Paulo.
    expect(within(card).getByText('Término estimado').nextSibling?.textContent).toBe('12:30');

    fireEvent.click(screen.getByRole('button', { name: 'Cancelar envio' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancelar o envio?' });
    expect(within(dialog).getByText(/5\.980 destinatários que ainda não receberam/)).toBeTruthy();
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/cancel'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/cancel'))).toBe(true), SLOW);
  }, 20_000);

  it('when paused shows the reason and offers to resume', async () => {
    const fetch = renderCard('paused', {
      ...progress,
      status: 'paused',
      ratePerSecond: 0,
      estimatedEnd: null,
      pausedReason: 'Pausada automaticamente: taxa de devoluções acima de 5%.',
    });
    await screen.findByText('Envio pausado', undefined, SLOW);
    await screen.findByText('Pausada automaticamente: taxa de devoluções acima de 5%.', undefined, SLOW);
    expect(screen.getByText('Término estimado').nextSibling?.textContent).toBe('Pausado');
    fireEvent.click(screen.getByRole('button', { name: 'Retomar envio' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/resume'))).toBe(true), SLOW);
  }, 20_000);

  it('says one in the singular: "1 ignorado", "1 destinatário que ainda não recebeu"', async () => {
    renderCard('sending', { ...progress, skipped: 1, remaining: 1 });
    const card = await screen.findByTestId('campaign-progress');
    await within(card).findByText('1 ignorado', undefined, SLOW);
    fireEvent.click(screen.getByRole('button', { name: 'Cancelar envio' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancelar o envio?' });
    expect(within(dialog).getByText(/^1 destinatário que ainda não recebeu não receberá mais\./)).toBeTruthy();
  }, 20_000);

  it('in English: the progress, its numbers and the actions', async () => {
    await setLocale('en');
    try {
      renderCard('sending', progress);
      const card = await screen.findByTestId('campaign-progress');
      await within(card).findByText('4.020 of 10.000 · 40%', undefined, SLOW);
      expect(screen.getByRole('progressbar', { name: 'Sending progress' })).toBeTruthy();
      expect(within(card).getByText('8 skipped')).toBeTruthy();
      expect(within(card).getByText('Estimated end')).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Pause sending' })).toBeTruthy();
      expect(screen.getByRole('button', { name: 'Cancel sending' })).toBeTruthy();
    } finally {
      await setLocale('pt-BR');
    }
  }, 20_000);

  it('renders nothing once the campaign is sent', () => {
    renderCard('sent', { ...progress, status: 'sent' });
    expect(screen.queryByTestId('campaign-progress')).toBeNull();
  }, 20_000);
});
