import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '@/app/confirm-dialog';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import { renderWithProviders } from '@/test/render';
import { PaidTopups } from './paid-topups';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  cleanup();
});

describe('PaidTopups (operator refunds)', () => {
  it('refunds part of a paid top-up: checks the maximum, confirms, sends amount, reason and one request key', async () => {
    const posts: Array<{ path: string; body: Record<string, unknown> }> = [];
    const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      if (init?.method === 'POST') {
        const body = JSON.parse(String(init.body)) as Record<string, unknown>;
        posts.push({ path, body });
        return Response.json(
          { id: 'r1', amountMillis: body.amountMillis, status: 'processing', failureReason: null },
          { status: 201 },
        );
      }
      if (path === '/api/admin/topups?status=paid') {
        return Response.json({
          topups: [
            {
              id: 't1',
              accountId: 'acc-1',
              txid: 'TX1',
              amountMillis: 50_000,
              refundedMillis: 10_000,
              chargeProvider: 'pix-api',
              paidAt: '2026-11-20T12:00:00.000Z',
            },
            {
              id: 't2',
              accountId: 'acc-1',
              txid: 'TX2',
              amountMillis: 20_000,
              refundedMillis: 0,
              chargeProvider: null,
              paidAt: '2026-11-20T12:00:00.000Z',
            },
          ],
        });
      }
      if (path === '/api/admin/accounts')
        return Response.json({ accounts: [{ id: 'acc-1', name: 'Padaria Pão Quente' }] });
      return Response.json({});
    });
    restore = configureApiClient({ fetch });
    renderWithProviders(
      <>
        <PaidTopups />
        <ConfirmDialog />
      </>,
    );
    const row = (await screen.findByText('TX1', { exact: false })).closest('li') as HTMLElement;
    // Static top-ups (no provider) cannot be refunded here.
    expect(screen.queryByText('TX2', { exact: false })).toBeNull();
    expect(within(row).getByText(/10,00 já devolvidos/)).toBeTruthy();

    fireEvent.change(within(row).getByLabelText(/^Valor \(até R\$.40,00\)$/), { target: { value: '500,00' } });
    fireEvent.change(within(row).getByLabelText('Motivo (vai para o pagador)'), {
      target: { value: 'Pedido do cliente' },
    });
    fireEvent.click(within(row).getByRole('button', { name: 'Devolver' }));
    expect(await within(row).findByText(/^O máximo a devolver é R\$.40,00\.$/)).toBeTruthy();

    fireEvent.change(within(row).getByLabelText(/^Valor \(até R\$.40,00\)$/), { target: { value: '15,00' } });
    fireEvent.click(within(row).getByRole('button', { name: 'Devolver' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Devolver o Pix?' });
    expect(within(dialog).getByText(/R\$.15,00 voltam ao pagador/)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    await vi.waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]?.path).toBe('/api/admin/topups/t1/refunds');
    expect(posts[0]?.body).toMatchObject({ amountMillis: 15_000, reason: 'Pedido do cliente' });
    expect(String(posts[0]?.body.requestKey)).toMatch(/^[0-9a-f-]{36}$/);
  });
});
