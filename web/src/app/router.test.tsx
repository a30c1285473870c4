import { QueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createRoutesFromChildren, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { API_KEYS_KEY } from '@/features/api-keys/api/api-keys';
import { BALANCE_QUERY_KEY } from '@/lib/queries/balance';
import { SENDERS_QUERY_KEY } from '@/lib/queries/senders';
import { SESSION_QUERY_KEY } from '@/lib/session';
import { ApiPage } from './api-page';
import '@/lib/i18n/app-messages';
import { renderWithProviders } from '@/test/render';
import { AppRoutes } from './router';

/** The route objects behind <AppRoutes/> (the same tree BrowserRouter renders). */
function routes() {
  const element = AppRoutes() as ReactElement<{ children: React.ReactNode }>;
  return createRoutesFromChildren(element.props.children);
}

/** The route pattern a path lands on, e.g. "/dashboard/lists/:id" ("*" for the 404 page). */
function patternOf(path: string): string | undefined {
  const matches = matchRoutes(routes(), path);
  if (!matches) return undefined;
  const leaf = matches.at(-1)?.route;
  if (!leaf?.element) return undefined;
  return `/${matches
    .map((m) => m.route.path)
    .filter(Boolean)
    .join('/')}`;
}

const ID = '0190b5d2-0000-7000-8000-000000000001';

// spec §2: public, /auth/* and /dashboard/* (the contacts screen lives at /dashboard/contacts).
const SPEC_ROUTES = [
  '/',
  '/privacy-policy',
  '/campaign/:id/template-viewer',
  '/auth/login',
  '/auth/register',
  '/auth/forgot-password',
  '/auth/reset-password',
  '/auth/invite/:accountId',
  '/dashboard',
  '/dashboard/my-balance',
  '/dashboard/campaigns',
  '/dashboard/campaigns/new',
  '/dashboard/campaigns/edit',
  '/dashboard/campaigns/calendar',
  '/dashboard/campaigns/:id/template',
  '/dashboard/campaigns/:id/view',
  '/dashboard/api',
  '/dashboard/api/docs',
  '/dashboard/lists',
  '/dashboard/lists/new',
  '/dashboard/lists/:id',
  '/dashboard/contacts',
];

describe('routes of spec §2', () => {
  it.each(SPEC_ROUTES)('%s has a page of its own', (pattern) => {
    // "/dashboard/lists/new" must not fall into "/dashboard/lists/:id", nor anything into the 404 page.
    expect(patternOf(pattern.replace(/:\w+/g, ID))).toBe(pattern);
  });

  it('sends unknown paths to the 404 page, inside and outside the dashboard', () => {
    expect(patternOf('/nao-existe')).toBe('/*');
    expect(patternOf('/dashboard/nao-existe')).toBe('/dashboard/*');
    expect(patternOf('/auth/nao-existe')).toBe('/*');
  });

  function renderApiPage(role: 'owner' | 'member') {
    const client = new QueryClient({
      defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
    });
    client.setQueryData(SESSION_QUERY_KEY, {
      user: { id: 'u1', name: 'Olívia', email: 'olivia@example.com', emailVerified: true },
      account: { id: ID, uuid: ID, name: 'Loja da Olívia' },
      accounts: [],
      role,
      isOperator: false,
    });
    client.setQueryData(API_KEYS_KEY, [
      {
        id: ID,
        name: 'Loja virtual',
        scope: 'send_only',
        prefix: 'ct_live_8f3a',
        createdAt: '2026-11-01T12:00:00.000Z',
        createdBy: { userId: 'u1', name: 'Olívia', email: 'olivia@example.com' },
        lastUsedAt: null,
        revokedAt: null,
      },
    ]);
    // The quick start sends from a verified sender of the account — here the confirmed login address.
    client.setQueryData(SENDERS_QUERY_KEY, {
      addresses: [{ id: ID, email: 'olivia@example.com', status: 'confirmed', createdAt: '2026-11-01T12:00:00.000Z' }],
      domains: [],
      allowed: { addresses: ['olivia@example.com'], domains: [] },
    });
    client.setQueryData(BALANCE_QUERY_KEY, {
      balanceMillis: 10_000,
      priceMillis: 5,
      emailsPaid: 2000,
      formatted: 'R$ 10,00',
      lowBalance: false,
      lowBalanceThresholdMillis: 5000,
    });
    renderWithProviders(<ApiPage />, { client });
  }

  it('the API page lists the keys by prefix, offers the quick start and the docs, and lets owners manage', () => {
    renderApiPage('owner');
    expect(screen.getByRole('heading', { level: 1, name: 'API' })).toBeTruthy();
    expect(screen.getByText('ct_live_8f3a…')).toBeTruthy();
    expect(screen.getByText('Somente envio')).toBeTruthy();
    expect(screen.getByText('Nunca usada')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nova chave' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Revogar' })).toBeTruthy();
    expect(screen.getByTestId('api-quick-start').textContent).toContain('/api/v1/messages');
    expect(screen.getByTestId('api-quick-start').textContent).toContain('olivia@example.com');
    expect(screen.getByRole('link', { name: 'Abrir a documentação' }).getAttribute('href')).toBe('/dashboard/api/docs');
    expect(document.title).toBe('API — Carteiro');
  });

  it('the API page is read-only for members', () => {
    renderApiPage('member');
    expect(screen.getByText(/Só proprietários e administradores/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Nova chave' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Revogar' })).toBeNull();
  });
});
