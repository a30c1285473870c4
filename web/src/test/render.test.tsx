import fs from 'node:fs';
import path from 'node:path';
import { useQueryClient } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { renderWithProviders, testQueryClient } from './render';

function Probe() {
  const client = useQueryClient();
  const location = useLocation();
  return (
    <p>
      {location.pathname}
      {location.search} · {String(client.getQueryData(['probe']))}
    </p>
  );
}

describe('renderWithProviders', () => {
  it('renders inside a query client and a router at the given URL', () => {
    const client = testQueryClient();
    client.setQueryData(['probe'], 'semeado');
    renderWithProviders(<Probe />, { at: '/dashboard/lists?aba=1', client });
    expect(screen.getByText('/dashboard/lists?aba=1 · semeado')).toBeTruthy();
  });

  it('is the only place a web test builds the providers', () => {
    const root = path.resolve(import.meta.dirname, '..');
    const own = (dir: string): string[] =>
      fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) return own(full);
        if (!/\.test\.tsx?$/.test(entry.name)) return [];
        return /<(QueryClientProvider|MemoryRouter)\b/.test(fs.readFileSync(full, 'utf8')) ? [full] : [];
      });
    expect(own(root).map((file) => path.relative(root, file))).toEqual([]);
  });
});
