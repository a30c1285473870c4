import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ConfirmDialog } from '@/app/confirm-dialog';
import { configureApiClient } from '@/lib/api-client';
import { queryClient } from '@/lib/query-client';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { AdminPage } from './admin-page';

const SLOW = { timeout: 5_000 };

const operatorSession = {
  user: { id: 'op', name: 'Olga Operadora', email: 'olga@carteiro.com.br', emailVerified: true },
  account: { id: 'a0', uuid: 'a0', name: 'Carteiro', timeZone: 'America/Sao_Paulo' },
  accounts: [],
  role: 'owner',
  isOperator: true,
};

const account = {
  id: 'acc-1',
  name: 'Padaria Pão Quente',
  ownerUserId: 'u1',
  ownerEmail: 'dono@padaria.com.br',
  balanceMillis: 12_345,
  priceMillis: 4,
  status: 'active',
  emailsSent: 15_000,
  createdAt: '2026-11-01T12:00:00.000Z',
};

const alert = {
  id: 7,
  kind: 'hard_bounce_rate',
  reason:
    'Envio pausado automaticamente: a taxa de devoluções permanentes chegou a 12,5% (limite 5%) após 800 entregas.',
  createdAt: '2026-11-20T15:30:00.000Z',
  acknowledgedAt: null,
  accountId: 'acc-1',
  accountName: 'Padaria Pão Quente',
  accountStatus: 'active',
  ownerEmail: 'dono@padaria.com.br',
  campaignId: 'camp-1',
  campaignName: 'Promoção de Natal',
  campaignStatus: 'paused',
  sent: 800,
  bounced: 100,
  complained: 1,
  bounceRate: 0.125,
  complaintRate: 0.00125,
};

let restore: () => void = () => {};
afterEach(() => restore());

function renderAdmin(
  session: object = operatorSession,
  { membersFailAfterFirst = false, client = testQueryClient() } = {},
) {
  const calls: Array<{ path: string; method: string; body: unknown }> = [];
  let membersReads = 0;
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    const method = init?.method ?? 'GET';
    calls.push({ path, method, body: init?.body ? JSON.parse(String(init.body)) : undefined });
    if (path === '/api/admin/accounts') return Response.json({ accounts: [account] });
    if (path.startsWith('/api/admin/campaign-alerts') && method === 'GET') return Response.json({ alerts: [alert] });
    if (path === '/api/admin/campaign-alerts/7/review')
      return Response.json({ id: 7, acknowledgedAt: new Date().toISOString(), changed: true });
    if (path === '/api/admin/operators' && method === 'GET')
      return Response.json({
        operators: [
          { userId: 'op', email: 'olga@carteiro.com.br', name: 'Olga Operadora', source: 'config', grantedAt: null },
          {
            userId: 'u9',
            email: 'rui@carteiro.com.br',
            name: 'Rui Suporte',
            source: 'role',
            grantedAt: '2026-11-10T12:00:00.000Z',
          },
        ],
      });
    if (path === '/api/admin/operators' && method === 'POST') return Response.json({ userId: 'u10', created: true });
    if (path === '/api/admin/accounts/acc-1/adjustments') return Response.json({ id: 'l1' }, { status: 201 });
    if (path === '/api/admin/accounts/acc-1/price') return Response.json({ ok: true });
    if (path === '/api/admin/operators/u9' && method === 'DELETE') return Response.json({ removed: true });
    if (path === '/api/admin/accounts/acc-1/members' && membersFailAfterFirst && ++membersReads > 1)
      return Response.json({ error: 'forbidden', message: 'Acesso negado' }, { status: 403 });
    if (path === '/api/admin/accounts/acc-1/members')
      return Response.json({
        members: [
          {
            userId: 'u1',
            name: 'Dono',
            email: 'dono@padaria.com.br',
            role: 'owner',
            disabledAt: null,
            disabledReason: null,
          },
          {
            userId: 'u2',
            name: 'Caixa',
            email: 'caixa@padaria.com.br',
            role: 'member',
            disabledAt: '2026-11-22T13:00:00.000Z',
            disabledReason: 'Senha vazada',
          },
        ],
      });
    if (path.startsWith('/api/admin/users/') && method === 'POST') return Response.json({ changed: true });
    if (path === '/api/admin/audit-log')
      return Response.json({
        entries: [
          {
            id: 'e1',
            operatorEmail: 'olga@carteiro.com.br',
            action: 'account.suspend',
            accountId: 'acc-1',
            accountName: 'Padaria Pão Quente',
            reason: 'Denúncias de spam',
            details: null,
            createdAt: '2026-11-21T10:00:00.000Z',
          },
          {
            id: 'e2',
            operatorEmail: 'olga@carteiro.com.br',
            action: 'balance.credit',
            accountId: 'acc-1',
            accountName: 'Padaria Pão Quente',
            reason: 'Cortesia',
            details: { amountMillis: 50_000 },
            createdAt: '2026-11-21T09:00:00.000Z',
          },
        ],
      });
    return Response.json({ topups: [] });
  });
  restore = configureApiClient({ fetch });
  client.setQueryData(SESSION_QUERY_KEY, session);
  renderWithProviders(
    <>
      <AdminPage />
      <ConfirmDialog />
    </>,
    { client },
  );
  return calls;
}

describe('AdminPage', () => {
  it('shows a 403 page to non-operators and calls no admin API', async () => {
    const calls = renderAdmin({ ...operatorSession, isOperator: false });
    expect(await screen.findByText('Acesso restrito (403)')).toBeTruthy();
    expect(calls.filter((c) => c.path.startsWith('/api/admin'))).toEqual([]);
  });

  it('lists accounts with owner, balance, price, volume and status, pt-BR formatted', async () => {
    renderAdmin();
    const row = (await screen.findByText('Padaria Pão Quente', undefined, SLOW)).closest('tr') as HTMLElement;
    expect(within(row).getByText('dono@padaria.com.br')).toBeTruthy();
    expect(within(row).getByText(/R\$\s12,345/)).toBeTruthy();
    expect(within(row).getByText(/R\$\s0,004/)).toBeTruthy();
    expect(within(row).getByText('15.000')).toBeTruthy();
    expect(within(row).getByText('Ativa')).toBeTruthy();
  });

  it('debits a balance only with a reason and after confirming; sets a negotiated price in reais', async () => {
    const calls = renderAdmin();
    const row = (await screen.findByText('Padaria Pão Quente', undefined, SLOW)).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Gerenciar' }));
    const adjust = screen.getByRole('heading', { name: 'Crédito ou débito' }).closest('form') as HTMLElement;
    fireEvent.change(within(adjust).getByLabelText('Tipo de ajuste'), { target: { value: 'debit' } });
    fireEvent.change(within(adjust).getByLabelText('Valor em reais'), { target: { value: '2,345' } });
    fireEvent.click(within(adjust).getByRole('button', { name: 'Lançar ajuste' }));
    expect(await within(adjust).findByText('Informe o motivo (ao menos 3 caracteres).')).toBeTruthy();
    expect(calls.some((c) => c.path.endsWith('/adjustments'))).toBe(false);
    fireEvent.change(within(adjust).getByLabelText('Motivo'), { target: { value: 'Estorno de cortesia' } });
    fireEvent.click(within(adjust).getByRole('button', { name: 'Lançar ajuste' }));
    const confirmDebit = await screen.findByRole('alertdialog', { name: 'Debitar saldo?' });
    expect(within(confirmDebit).getByText(/R\$\s2,345 na conta Padaria Pão Quente/)).toBeTruthy();
    fireEvent.click(within(confirmDebit).getByRole('button', { name: 'Continuar' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/admin/accounts/acc-1/adjustments')).toMatchObject({
        method: 'POST',
        body: { amountMillis: -2_345, reason: 'Estorno de cortesia' },
      }),
    );
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    const price = screen.getByRole('heading', { name: 'Preço negociado' }).closest('form') as HTMLElement;
    fireEvent.change(within(price).getByLabelText(/Preço por e-mail \(atual: R\$\s0,004\)/), {
      target: { value: '1,5' },
    });
    fireEvent.click(within(price).getByRole('button', { name: 'Definir preço' }));
    expect(await within(price).findByText('Digite um preço entre R$ 0,000 e R$ 1,000.')).toBeTruthy();
    fireEvent.change(within(price).getByLabelText(/Preço por e-mail/), { target: { value: '0,003' } });
    fireEvent.change(within(price).getByLabelText('Motivo (opcional)'), { target: { value: 'Volume anual' } });
    fireEvent.click(within(price).getByRole('button', { name: 'Definir preço' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Alterar o preço?' })).getByRole('button', {
        name: 'Continuar',
      }),
    );
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/admin/accounts/acc-1/price')).toMatchObject({
        method: 'PUT',
        body: { priceMillis: 3, reason: 'Volume anual' },
      }),
    );
  });

  it('lists campaigns paused by protection with rates and marks one reviewed', async () => {
    const calls = renderAdmin();
    const tab = await screen.findByRole('tab', { name: /Campanhas pausadas/ });
    await vi.waitFor(() => expect(tab.textContent).toBe('Campanhas pausadas1')); // open alerts count
    fireEvent.click(tab);
    const item = (await screen.findByText('Promoção de Natal', undefined, SLOW)).closest('li') as HTMLElement;
    expect(within(item).getByText('Devoluções permanentes')).toBeTruthy();
    expect(within(item).getByText('Pausada')).toBeTruthy();
    expect(within(item).getByText(/Padaria Pão Quente · dono@padaria\.com\.br/)).toBeTruthy();
    expect(within(item).getByText('800')).toBeTruthy();
    expect(item.textContent).toContain('12,5%');
    expect(item.textContent).toContain('0,13%');
    expect(within(item).getByText(/taxa de devoluções permanentes chegou a 12,5%/)).toBeTruthy();

    fireEvent.click(within(item).getByRole('button', { name: 'Marcar como revisado' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Marcar como revisado?' });
    expect(dialog.textContent).toContain('Promoção de Natal');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    await vi.waitFor(() =>
      expect(calls.some((c) => c.path === '/api/admin/campaign-alerts/7/review' && c.method === 'POST')).toBe(true),
    );

    // "Ver conta" goes to the accounts tab with that account found and opened.
    fireEvent.click(within(item).getByRole('button', { name: 'Ver conta' }));
    expect(await screen.findByRole('button', { name: 'Suspender conta' }, SLOW)).toBeTruthy();
    expect((screen.getByRole('searchbox') as HTMLInputElement).value).toBe('Padaria Pão Quente');
  });

  it('shows the audit log with pt-BR actions, account, amount and reason', async () => {
    renderAdmin();
    fireEvent.click(await screen.findByRole('tab', { name: 'Auditoria' }));
    const table = await screen.findByTestId('audit-log', undefined, SLOW);
    expect(within(table).getByText('Conta suspensa')).toBeTruthy();
    expect(within(table).getByText('Denúncias de spam')).toBeTruthy();
    expect(within(table).getByText('Crédito lançado')).toBeTruthy();
    expect(within(table).getByText(/R\$\s50,00/)).toBeTruthy();
    expect(within(table).getAllByText('Padaria Pão Quente')).toHaveLength(2);
  });

  it('lists the people of an account and blocks or unblocks one only with a reason and after confirming', async () => {
    const calls = renderAdmin();
    const row = (await screen.findByText('Padaria Pão Quente', undefined, SLOW)).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Gerenciar' }));
    await screen.findByRole('heading', { name: 'Pessoas da conta' });
    const owner = (await screen.findByText('Dono', undefined, SLOW)).closest('li') as HTMLElement;
    expect(within(owner).getByText('dono@padaria.com.br · Proprietário')).toBeTruthy();
    expect(within(owner).queryByText('Bloqueado')).toBeNull();
    const cashier = screen.getByText('Caixa').closest('li') as HTMLElement;
    expect(within(cashier).getByText('Bloqueado')).toBeTruthy();
    expect(within(cashier).getByText(/Motivo: Senha vazada/)).toBeTruthy();

    fireEvent.click(within(owner).getByRole('button', { name: 'Bloquear acesso' }));
    fireEvent.click(within(owner).getByRole('button', { name: 'Bloquear acesso' }));
    expect(await within(owner).findByText('Informe o motivo (ao menos 3 caracteres).')).toBeTruthy();
    fireEvent.change(within(owner).getByLabelText('Motivo'), { target: { value: 'Envio de spam' } });
    fireEvent.click(within(owner).getByRole('button', { name: 'Bloquear acesso' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Bloquear o acesso?' });
    expect(within(dialog).getByText(/dono@padaria\.com\.br sai de todas as sessões/)).toBeTruthy();
    expect(calls.some((c) => c.path.startsWith('/api/admin/users/'))).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Continuar' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/admin/users/u1/disable')).toMatchObject({
        method: 'POST',
        body: { reason: 'Envio de spam' },
      }),
    );
    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    fireEvent.click(within(cashier).getByRole('button', { name: 'Desbloquear' }));
    fireEvent.change(within(cashier).getByLabelText('Motivo'), { target: { value: 'Senha trocada' } });
    fireEvent.click(within(cashier).getByRole('button', { name: 'Desbloquear' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Desbloquear o acesso?' })).getByRole('button', {
        name: 'Continuar',
      }),
    );
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/admin/users/u2/enable')?.body).toEqual({ reason: 'Senha trocada' }),
    );
  });

  it("keeps an account's people on screen when the refetch after an action fails, and says so", async () => {
    // The back office refetches through the app's own cache after an action (refreshAdmin).
    renderAdmin(operatorSession, { membersFailAfterFirst: true, client: queryClient });
    onTestFinished(() => queryClient.clear());
    const row = (await screen.findByText('Padaria Pão Quente', undefined, SLOW)).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByRole('button', { name: 'Gerenciar' }));
    const owner = (await screen.findByText('Dono', undefined, SLOW)).closest('li') as HTMLElement;
    fireEvent.click(within(owner).getByRole('button', { name: 'Bloquear acesso' }));
    fireEvent.change(within(owner).getByLabelText('Motivo'), { target: { value: 'Envio de spam' } });
    fireEvent.click(within(owner).getByRole('button', { name: 'Bloquear acesso' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Bloquear o acesso?' })).getByRole('button', {
        name: 'Continuar',
      }),
    );
    expect(await screen.findByText('Não foi possível carregar as pessoas desta conta.', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('Dono')).toBeTruthy();
    expect(screen.getByText('Caixa')).toBeTruthy();
  });

  it('lists operators and grants and removes the role with a reason', async () => {
    const calls = renderAdmin();
    fireEvent.click(await screen.findByRole('tab', { name: 'Operadores' }));
    const self = (await screen.findByText(/olga@carteiro\.com\.br/, undefined, SLOW)).closest('li') as HTMLElement;
    expect(within(self).getByText('Configuração (ADMIN_EMAILS)')).toBeTruthy();
    expect(within(self).getByText('(você)')).toBeTruthy();
    expect(within(self).queryByRole('button', { name: 'Remover acesso' })).toBeNull();

    fireEvent.change(screen.getByLabelText('E-mail de quem já tem conta no Carteiro'), {
      target: { value: 'nova@carteiro.com.br' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Dar acesso' }));
    expect(await screen.findByText('Informe o motivo (ao menos 3 caracteres).')).toBeTruthy();
    const form = screen.getByRole('button', { name: 'Dar acesso' }).closest('form') as HTMLElement;
    fireEvent.change(within(form).getByLabelText('Motivo'), { target: { value: 'Entrou no suporte' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Dar acesso' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Dar acesso de operação?' })).getByRole('button', {
        name: 'Continuar',
      }),
    );
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/admin/operators' && c.method === 'POST')?.body).toEqual({
        email: 'nova@carteiro.com.br',
        reason: 'Entrou no suporte',
      }),
    );

    await vi.waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    const rui = screen.getByText('rui@carteiro.com.br').closest('li') as HTMLElement;
    expect(within(rui).getByText('Acesso concedido')).toBeTruthy();
    fireEvent.click(within(rui).getByRole('button', { name: 'Remover acesso' }));
    fireEvent.change(within(rui).getByLabelText('Motivo'), { target: { value: 'Saiu do suporte' } });
    fireEvent.click(within(rui).getByRole('button', { name: 'Remover acesso' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog', { name: 'Remover o acesso de operação?' })).getByRole('button', {
        name: 'Continuar',
      }),
    );
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/admin/operators/u9' && c.method === 'DELETE')?.body).toEqual({
        reason: 'Saiu do suporte',
      }),
    );
  });
});
