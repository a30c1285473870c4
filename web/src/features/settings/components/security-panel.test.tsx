import { ERROR_MESSAGES_PT_BR } from '@carteiro/shared';
import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { SecurityPanel } from './security-panel';

const SLOW = { timeout: 5_000 };

const session = {
  user: { id: 'u1', name: 'Ana', email: 'ana@example.com', emailVerified: true },
  account: { id: 'a1', uuid: 'a1', name: 'Loja da Ana' },
  accounts: [],
  role: 'owner',
  isOperator: false,
};

let restore: () => void = () => {};
afterEach(() => restore());

function renderPanel(handler: (path: string, body: unknown) => Response) {
  const calls: Array<{ path: string; body: unknown }> = [];
  restore = configureApiClient({
    fetch: vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
      const path = String(input);
      if (path === '/api/public-config') return Response.json({});
      const body = init?.body ? JSON.parse(String(init.body)) : undefined;
      if (path.startsWith('/api/auth/')) calls.push({ path, body });
      return handler(path, body);
    }),
  });
  const client = testQueryClient();
  client.setQueryData(SESSION_QUERY_KEY, session);
  renderWithProviders(<SecurityPanel />, { client });
  return calls;
}

const recentLogin = () =>
  Response.json(
    { error: { code: 'requires-recent-login', message: ERROR_MESSAGES_PT_BR['requires-recent-login'] } },
    { status: 403 },
  );

describe('SecurityPanel', () => {
  it('changes the password signing the other sessions out', async () => {
    const calls = renderPanel(() => Response.json({ token: null }));
    fireEvent.change(screen.getByLabelText('Senha atual'), { target: { value: 'antiga-123' } });
    fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: 'nova-senha-456' } });
    fireEvent.change(screen.getByLabelText('Confirme a nova senha'), { target: { value: 'nova-senha-456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Alterar senha' }));
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/auth/change-password'), SLOW);
    expect(calls[0]?.body).toEqual({
      currentPassword: 'antiga-123',
      newPassword: 'nova-senha-456',
      revokeOtherSessions: true,
    });
  });

  it('asks to sign in again when the password change needs a recent sign-in', async () => {
    renderPanel(recentLogin);
    fireEvent.change(screen.getByLabelText('Senha atual'), { target: { value: 'antiga-123' } });
    fireEvent.change(screen.getByLabelText('Nova senha'), { target: { value: 'nova-senha-456' } });
    fireEvent.change(screen.getByLabelText('Confirme a nova senha'), { target: { value: 'nova-senha-456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Alterar senha' }));
    await screen.findByText(/entre de novo antes de alterar a senha/, undefined, SLOW);
    expect(screen.getByRole('link', { name: 'Entrar de novo' }).getAttribute('href')).toBe(
      '/auth/login?next=%2Fdashboard%2Fsettings%3Faba%3Dseguranca',
    );
  });

  it('asks to change the e-mail and says a confirmation link was sent', async () => {
    const calls = renderPanel(() => Response.json({ status: true }));
    fireEvent.change(screen.getByLabelText('Novo e-mail'), { target: { value: ' Novo@Example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Alterar e-mail' }));
    await screen.findByText(/Enviamos um link de confirmação/, undefined, SLOW);
    expect(calls).toEqual([
      {
        path: '/api/auth/change-email',
        body: { newEmail: 'novo@example.com', callbackURL: '/dashboard/settings?aba=seguranca' },
      },
    ]);
  });

  it('refuses the current e-mail and an invalid one without calling the server', async () => {
    const calls = renderPanel(() => Response.json({}));
    fireEvent.change(screen.getByLabelText('Novo e-mail'), { target: { value: 'ANA@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Alterar e-mail' }));
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe('Este já é o seu e-mail de acesso.');
    fireEvent.change(screen.getByLabelText('Novo e-mail'), { target: { value: 'nao-e-email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Alterar e-mail' }));
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe('Digite um e-mail válido.');
    expect(calls).toEqual([]);
  });

  it('asks to sign in again when the e-mail change needs a recent sign-in', async () => {
    renderPanel(recentLogin);
    fireEvent.change(screen.getByLabelText('Novo e-mail'), { target: { value: 'novo@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Alterar e-mail' }));
    await screen.findByText(/entre de novo antes de alterar o e-mail/, undefined, SLOW);
  });
});
