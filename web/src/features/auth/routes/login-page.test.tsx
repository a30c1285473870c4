import { ERROR_MESSAGES_PT_BR } from '@carteiro/shared';
import { fireEvent, screen } from '@testing-library/react';
import { Route, Routes, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DashboardLayout } from '@/app/dashboard-layout';
import { configureApiClient } from '@/lib/api-client';
import { resetPublicConfigCache } from '@/lib/public-config';
import { queryClient } from '@/lib/query-client';
import '@/lib/i18n/app-messages';
import { renderWithProviders } from '@/test/render';
import { LoginPage } from './login-page';

const SLOW = { timeout: 5_000 };

type Handler = (path: string, init?: RequestInit) => Response | Promise<Response>;

let restore: () => void = () => {};
beforeEach(() => {
  resetPublicConfigCache();
  queryClient.clear();
});
afterEach(() => {
  restore();
  queryClient.clear();
});

const apiError = (status: number, code: string) =>
  Response.json(
    { error: { code, message: ERROR_MESSAGES_PT_BR[code as keyof typeof ERROR_MESSAGES_PT_BR] } },
    { status },
  );

function mockApi(handler: Handler, config: { googleSignIn?: boolean } = {}) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input);
    if (path === '/api/public-config') return Response.json({ googleSignIn: config.googleSignIn ?? false });
    return handler(path, init);
  });
  restore = configureApiClient({ fetch });
  return fetch;
}

function Where() {
  const location = useLocation();
  return <p data-testid="where">{`${location.pathname}${location.search}`}</p>;
}

function renderAt(path: string) {
  return renderWithProviders(
    <Routes>
      <Route path="/auth/login" element={<LoginPage />} />
      <Route path="/dashboard/*" element={<Where />} />
    </Routes>,
    { at: path },
  );
}

function fillAndSubmit(email: string, password: string) {
  fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: email } });
  fireEvent.change(screen.getByLabelText('Senha'), { target: { value: password } });
  fireEvent.click(screen.getByRole('button', { name: 'Entrar' }));
}

describe('LoginPage', () => {
  it('hides the Google button unless the server has Google sign-in configured', async () => {
    const fetch = mockApi(() => Response.json({}));
    renderAt('/auth/login');
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledWith('/api/public-config', expect.anything()));
    await screen.findByRole('button', { name: 'Entrar com link por e-mail' }, SLOW);
    expect(screen.queryByRole('button', { name: /Google/ })).toBeNull();
  });

  it('shows the Google button when Google sign-in is configured', async () => {
    mockApi(() => Response.json({}), { googleSignIn: true });
    renderAt('/auth/login');
    expect(await screen.findByRole('button', { name: /Google/ }, SLOW)).toBeTruthy();
  });

  it('shows "E-mail ou senha incorretos." for a wrong password', async () => {
    mockApi((path) => (path === '/api/auth/sign-in/email' ? apiError(401, 'invalid-credential') : Response.json({})));
    renderAt('/auth/login');
    fillAndSubmit('ana@example.com', 'errada-123');
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe('E-mail ou senha incorretos.');
  });

  it.each([
    ['too-many-requests', 429],
    ['user-disabled', 403],
  ])('shows the pt-BR message of %s', async (code, status) => {
    mockApi((path) => (path === '/api/auth/sign-in/email' ? apiError(status, code) : Response.json({})));
    renderAt('/auth/login');
    fillAndSubmit('ana@example.com', 'errada-123');
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe(
      ERROR_MESSAGES_PT_BR[code as keyof typeof ERROR_MESSAGES_PT_BR],
    );
  });

  it('shows the network-request-failed message when the request cannot reach the server', async () => {
    mockApi(() => {
      throw new TypeError('Failed to fetch');
    });
    renderAt('/auth/login');
    fillAndSubmit('ana@example.com', 'qualquer-123');
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe(
      'Não foi possível conectar. Verifique sua internet e tente de novo.',
    );
  });

  it('says the session expired when sent back by the dashboard for that reason', async () => {
    mockApi(() => Response.json({}));
    renderAt('/auth/login?next=%2Fdashboard&erro=user-token-expired');
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe('Sua sessão expirou. Entre de novo.');
  });

  it('says the access was blocked when a sign-in link was refused for that reason; other codes say nothing', async () => {
    mockApi(() => Response.json({}));
    const { unmount } = renderAt('/auth/login?erro=user-disabled');
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe(ERROR_MESSAGES_PT_BR['user-disabled']);
    unmount();
    renderAt('/auth/login?erro=%3Cscript%3E');
    await screen.findByRole('button', { name: 'Entrar' });
    expect(screen.queryByRole('alert')).toBeNull();
  });
});

describe('dashboard guard', () => {
  it('sends an anonymous visitor to /auth/login?next=… and back there after sign-in', async () => {
    let signedIn = false;
    const session = {
      user: { id: 'u1', name: 'Ana', email: 'ana@example.com', emailVerified: true },
      account: {
        id: 'a1',
        uuid: 'a1',
        ownerUserId: 'u1',
        name: 'Loja da Ana',
        legalName: null,
        taxId: null,
        address: null,
        timeZone: 'America/Sao_Paulo',
        defaultFromName: null,
        defaultFromEmail: null,
        priceMillis: 5,
        balanceMillis: 0,
        status: 'active',
        createdAt: '2026-01-01T00:00:00.000Z',
        updatedAt: '2026-01-01T00:00:00.000Z',
      },
      accounts: [{ id: 'a1', name: 'Loja da Ana', role: 'owner' }],
      role: 'owner',
      isOperator: false,
    };
    mockApi((path, init) => {
      if (path.startsWith('/api/session')) return signedIn ? Response.json(session) : apiError(401, 'unauthenticated');
      if (path === '/api/auth/sign-in/email' && init?.method === 'POST') {
        signedIn = true;
        return Response.json({ user: session.user });
      }
      return Response.json({});
    });
    renderWithProviders(
      <Routes>
        <Route path="/auth/login" element={<LoginPage />} />
        <Route path="/dashboard" element={<DashboardLayout />}>
          <Route path="*" element={<Where />} />
        </Route>
      </Routes>,
      { at: '/dashboard/campaigns?aba=rascunhos' },
    );
    await screen.findByRole('button', { name: 'Entrar' }, SLOW);
    fillAndSubmit('ana@example.com', 'senha-certa-1');
    expect((await screen.findByTestId('where', undefined, SLOW)).textContent).toBe(
      '/dashboard/campaigns?aba=rascunhos',
    );
  });

  it('sends a visitor whose session ended to the login page with the session-expired message', async () => {
    mockApi((path) => (path.startsWith('/api/session') ? apiError(401, 'user-token-expired') : Response.json({})));
    renderWithProviders(
      <Routes>
        <Route path="/auth/login" element={<LoginPage />} />
        <Route path="/dashboard" element={<DashboardLayout />}>
          <Route path="*" element={<Where />} />
        </Route>
      </Routes>,
      { at: '/dashboard/lists' },
    );
    expect((await screen.findByRole('alert', undefined, SLOW)).textContent).toBe('Sua sessão expirou. Entre de novo.');
  });
});
