import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { NotFound } from './not-found';

describe('NotFound', () => {
  it('names the tab after the page, not the page the person came from', () => {
    document.title = 'Campanhas — Carteiro';
    renderWithProviders(<NotFound />);
    expect(screen.getByRole('heading', { name: 'Página não encontrada' })).toBeTruthy();
    expect(document.title).toBe('Página não encontrada — Carteiro');
  });
});
