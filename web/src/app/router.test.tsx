import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createRoutesFromChildren, MemoryRouter, matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ApiPage } from '@/features/api-keys/routes/api-page';
import '@/lib/i18n/app-messages';
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

  it('the API page is a clearly labelled empty state, never fake data', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <MemoryRouter>
          <ApiPage />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    expect(screen.getByRole('heading', { level: 1, name: 'API' })).toBeTruthy();
    expect(screen.getByText('Em breve: chaves de API e documentação')).toBeTruthy();
    expect(screen.getByText(/Crie e revogue chaves de API/)).toBeTruthy();
    expect(document.querySelector('table')).toBeNull();
    expect(document.title).toBe('API — Carteiro');
  });
});
