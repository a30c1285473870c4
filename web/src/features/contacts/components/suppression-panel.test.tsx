import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '@/app/confirm-dialog';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import { dismissToast } from '@/stores/app-store';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { SuppressionPanel, splitAddresses } from './suppression-panel';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  act(() => dismissToast());
});

const summary = { total: 3, byReason: { erased: 1, unsubscribed: 2, bounced: 0, complained: 0, manual: 0 } };

function renderPanel(fetch: typeof globalThis.fetch) {
  restore = configureApiClient({ fetch });
  const client = testQueryClient();
  return renderWithProviders(
    <>
      <SuppressionPanel />
      <ConfirmDialog />
    </>,
    { client },
  );
}

const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body));

describe('splitAddresses', () => {
  it('takes one address per line or separated by commas, semicolons or spaces', () => {
    expect(splitAddresses(' a@x.com\r\nb@x.com, c@x.com;d@x.com  e@x.com\n\n')).toEqual([
      'a@x.com',
      'b@x.com',
      'c@x.com',
      'd@x.com',
      'e@x.com',
    ]);
    expect(splitAddresses('  \n ')).toEqual([]);
  });
});

describe('SuppressionPanel', () => {
  it('shows the counts by reason and adds pasted addresses, keeping the invalid lines to fix', async () => {
    const fetch = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      if (String(url) === '/api/suppressions' && init?.method === 'POST') {
        return Response.json({ added: 1, alreadySuppressed: 1, invalid: ['nada'], invalidCount: 1 });
      }
      return Response.json(summary);
    });
    renderPanel(fetch);
    expect(await screen.findByText('3 endereços suprimidos')).toBeTruthy();
    expect(screen.getByTestId('suppression-counts').textContent).toContain('Descadastrados2');
    expect(screen.getByTestId('suppression-counts').textContent).toContain('Excluídos a pedido (LGPD)1');

    fireEvent.click(screen.getByRole('button', { name: 'Adicionar à lista de supressão' }));
    expect(await screen.findByText('Informe ao menos um e-mail.')).toBeTruthy();

    const textarea = screen.getByLabelText('Adicionar endereços (um por linha, ou separados por vírgula)');
    fireEvent.change(textarea, { target: { value: 'novo@x.com\nvelho@x.com, nada' } });
    fireEvent.click(screen.getByRole('button', { name: 'Adicionar à lista de supressão' }));
    expect(await screen.findByText('Adicionados: 1 · já estavam na lista: 1 · inválidos: 1.')).toBeTruthy();
    const post = fetch.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(bodyOf(post?.[1])).toEqual({ emails: ['novo@x.com', 'velho@x.com', 'nada'] });
    expect((textarea as HTMLTextAreaElement).value).toBe('nada');
  });

  it('looks an address up and takes a manual entry off the list after confirmation', async () => {
    let suppressed = true;
    const fetch = vi.fn(async (url: RequestInfo | URL, _init?: RequestInit) => {
      const path = String(url);
      if (path === '/api/suppressions/lookup') {
        return Response.json({
          email: 'engano@x.com',
          suppressed,
          reason: suppressed ? 'manual' : null,
          createdAt: suppressed ? '2026-03-01T15:00:00.000Z' : null,
        });
      }
      if (path === '/api/suppressions/remove') {
        suppressed = false;
        return Response.json({ removed: true });
      }
      return Response.json(summary);
    });
    renderPanel(fetch);
    fireEvent.change(screen.getByLabelText('Consultar um endereço'), { target: { value: 'Engano@x.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Consultar' }));
    expect(
      await screen.findByText(
        'engano@x.com está na lista de supressão (Adicionados por você) desde 01/03/2026, 12:00.',
      ),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Retirar da lista' }));
    expect(screen.getByRole('alertdialog', { name: 'Retirar da lista de supressão?' })).toBeTruthy();
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Continuar' }));
    });
    expect(await screen.findByText('engano@x.com não está na lista de supressão.')).toBeTruthy();
    const remove = fetch.mock.calls.find(([url]) => String(url) === '/api/suppressions/remove');
    expect(bodyOf(remove?.[1])).toEqual({ email: 'engano@x.com' });
  });

  it('offers no removal for an entry the recipient caused', async () => {
    const fetch = vi.fn(async (url: RequestInfo | URL) =>
      String(url) === '/api/suppressions/lookup'
        ? Response.json({ email: 'saiu@x.com', suppressed: true, reason: 'erased', createdAt: '2026-03-01T15:00:00Z' })
        : Response.json(summary),
    );
    renderPanel(fetch);
    fireEvent.change(screen.getByLabelText('Consultar um endereço'), { target: { value: 'saiu@x.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Consultar' }));
    expect(await screen.findByText(/Só o próprio destinatário pode desfazer isso/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Retirar da lista' })).toBeNull();
  });
});
