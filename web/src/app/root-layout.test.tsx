import { fireEvent, screen } from '@testing-library/react';
import { Link, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '@/test/render';
import { RootLayout } from './root-layout';

afterEach(() => vi.restoreAllMocks());

describe('RootLayout', () => {
  it('opens each new page at its top, but leaves an #anchor link where it points', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => {});
    renderWithProviders(
      <Routes>
        <Route element={<RootLayout />}>
          <Route
            index
            element={
              <>
                <Link to="/privacy-policy">Política</Link>
                <Link to="/#precos">Preços</Link>
              </>
            }
          />
          <Route path="privacy-policy" element={<h1>Política de privacidade</h1>} />
        </Route>
      </Routes>,
      { at: '/' },
    );
    scrollTo.mockClear();
    fireEvent.click(screen.getByRole('link', { name: 'Preços' }));
    expect(scrollTo).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('link', { name: 'Política' }));
    expect(screen.getByRole('heading', { name: 'Política de privacidade' })).toBeTruthy();
    expect(scrollTo).toHaveBeenCalledWith({ top: 0, left: 0, behavior: 'instant' });
  });
});
