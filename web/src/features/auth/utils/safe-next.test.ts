import { describe, expect, it } from 'vitest';
import { loginPathFor, safeNextPath } from './safe-next';

describe('safeNextPath', () => {
  it.each(['/dashboard', '/dashboard/campaigns/new', '/dashboard/lists/7?aba=contatos#topo'])(
    'keeps the same-origin path %s',
    (path) => {
      expect(safeNextPath(path)).toBe(path);
    },
  );

  it.each([
    null,
    '',
    '//evil.example/x',
    '/\\evil.example',
    'https://evil.example',
    'javascript:alert(1)',
    'dashboard',
    '/\t/evil.example',
    '/%0a',
  ])('falls back to /dashboard for %j', (next) => {
    const result = safeNextPath(next);
    expect(result.startsWith('/') && !result.startsWith('//')).toBe(true);
    if (next !== '/%0a') expect(result).toBe('/dashboard');
  });

  it('builds the login path with an encoded next', () => {
    expect(loginPathFor('/dashboard/campaigns/new')).toBe('/auth/login?next=%2Fdashboard%2Fcampaigns%2Fnew');
    expect(loginPathFor('//evil.example')).toBe('/auth/login?next=%2Fdashboard');
    expect(loginPathFor('/dashboard/lists', 'user-token-expired')).toBe(
      '/auth/login?next=%2Fdashboard%2Flists&erro=user-token-expired',
    );
    expect(loginPathFor('/dashboard/lists', 'unauthenticated')).toBe('/auth/login?next=%2Fdashboard%2Flists');
  });
});
