import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { resetPublicConfigCache } from '@/lib/public-config';
import { PrivacyPolicyPage } from './privacy-policy-page';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetPublicConfigCache();
});

async function renderPolicy() {
  restore = configureApiClient({
    fetch: vi.fn(async () => Response.json({ contactEmail: 'dpo@carteiro.example' })),
  });
  render(
    <MemoryRouter initialEntries={['/privacy-policy']}>
      <Routes>
        <Route path="/" element={<h1>Início</h1>} />
        <Route path="/privacy-policy" element={<PrivacyPolicyPage />} />
      </Routes>
    </MemoryRouter>,
  );
  await act(async () => {});
}

describe('PrivacyPolicyPage (spec §1)', () => {
  it('has every point of the spec’s policy, in pt-BR', async () => {
    await renderPolicy();
    expect(screen.getByRole('heading', { level: 1, name: 'Política de privacidade' })).toBeTruthy();
    const text = screen.getByRole('main').textContent ?? '';
    for (const phrase of [
      // What is collected: contact information, communication preferences, interactions (opens, clicks).
      'Informações de contato',
      'Preferências de comunicação',
      'Interações com os e-mails',
      'aberto',
      'clicados',
      // Uses: personalise, manage subscriptions, improve the service.
      'Personalizar',
      'Gerenciar inscrições',
      'Melhorar o serviço',
      // Preferences and one-click unsubscribe.
      'atualizar as suas preferências',
      'descadastro em um clique',
      // Sharing only with sending providers or where the law requires.
      'não são compartilhados',
      'provedores de envio de e-mail',
      'lei',
      // Rights: access, correct, delete, withdraw consent.
      'acessar',
      'corrigir',
      'excluir',
      'revogar o consentimento',
      'LGPD',
    ]) {
      expect(text, phrase).toContain(phrase);
    }
    expect(screen.getByRole('link', { name: 'dpo@carteiro.example' }).getAttribute('href')).toBe(
      'mailto:dpo@carteiro.example',
    );
  });

  it('"Voltar" goes back to the landing page', async () => {
    await renderPolicy();
    const back = screen.getAllByRole('link', { name: /Voltar/ });
    expect(back.length).toBeGreaterThan(0);
    for (const link of back) expect(link.getAttribute('href')).toBe('/');
    fireEvent.click(back[0] as HTMLElement);
    expect(screen.getByRole('heading', { level: 1, name: 'Início' })).toBeTruthy();
  });
});
