import { act, screen, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { RegisterPage } from '@/features/auth/routes/register-page';
import { configureApiClient } from '@/lib/api-client';
import { resetPublicConfigCache } from '@/lib/public-config';
import { renderWithProviders } from '@/test/render';
import { TERMS_OF_USE_UPDATED, TermsOfUsePage } from './terms-of-use-page';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetPublicConfigCache();
});

async function renderAt(path: string) {
  restore = configureApiClient({
    fetch: vi.fn(async () =>
      Response.json({
        contactEmail: 'contato@carteiro.example',
        operatorLegalName: 'Carteiro Tecnologia Ltda.',
        operatorTaxId: '11.222.333/0001-81',
      }),
    ),
  });
  renderWithProviders(
    <Routes>
      <Route path="/terms-of-use" element={<TermsOfUsePage />} />
      <Route path="/auth/register" element={<RegisterPage />} />
    </Routes>,
    { at: path },
  );
  await act(async () => {});
}

describe('terms of use', () => {
  it('is a pt-BR page with its date, its title, the operator and the rules of sending', async () => {
    await renderAt('/terms-of-use');
    expect(screen.getByRole('heading', { level: 1, name: 'Termos de uso' })).toBeTruthy();
    const text = screen.getByRole('main').textContent ?? '';
    expect(text).toContain(`Última atualização: ${TERMS_OF_USE_UPDATED}`);
    expect(text).toContain('mantido por Carteiro Tecnologia Ltda., CNPJ/CPF 11.222.333/0001-81.');
    for (const phrase of ['base legal da LGPD', 'descadastro', 'spam', 'Saldo pré-pago'])
      expect(text).toContain(phrase);
    expect(
      within(screen.getByRole('main')).getByRole('link', { name: 'Política de privacidade' }).getAttribute('href'),
    ).toBe('/privacy-policy');
    expect(document.title).toBe('Termos de uso — Carteiro');
  });

  it('sign-up links to the terms of use and the privacy policy, each in a new tab so the form is kept', async () => {
    await renderAt('/auth/register');
    const form = screen.getByRole('button', { name: 'Criar conta' }).closest('form') as HTMLFormElement;
    expect(form.textContent).toContain(
      'Ao criar a conta, você concorda com os Termos de uso e a Política de privacidade.',
    );
    const terms = screen.getByRole('link', { name: 'Termos de uso' });
    const privacy = screen.getByRole('link', { name: 'Política de privacidade' });
    expect(terms.getAttribute('href')).toBe('/terms-of-use');
    expect(privacy.getAttribute('href')).toBe('/privacy-policy');
    expect(terms.getAttribute('target')).toBe('_blank');
    expect(screen.getByLabelText('Seu nome')).toBeTruthy();
  });
});
