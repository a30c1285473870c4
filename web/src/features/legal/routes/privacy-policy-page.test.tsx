import { act, fireEvent, screen } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { resetPublicConfigCache } from '@/lib/public-config';
import { renderWithProviders } from '@/test/render';
import { PRIVACY_POLICY_UPDATED, PrivacyPolicyPage } from './privacy-policy-page';

let restore: () => void = () => {};
afterEach(() => {
  restore();
  resetPublicConfigCache();
});

async function renderPolicy(config: Record<string, string> = { contactEmail: 'dpo@carteiro.example' }) {
  restore = configureApiClient({
    fetch: vi.fn(async () => Response.json(config)),
  });
  renderWithProviders(
    <Routes>
      <Route path="/" element={<h1>Início</h1>} />
      <Route path="/privacy-policy" element={<PrivacyPolicyPage />} />
    </Routes>,
    { at: '/privacy-policy' },
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
    for (const link of screen.getAllByRole('link', { name: 'dpo@carteiro.example' })) {
      expect(link.getAttribute('href')).toBe('mailto:dpo@carteiro.example');
    }
  });

  it('names the controller and the encarregado from the configuration, with its date and its own title', async () => {
    await renderPolicy({
      contactEmail: 'contato@carteiro.example',
      operatorLegalName: 'Carteiro Tecnologia Ltda.',
      operatorTaxId: '11.222.333/0001-81',
      dpoName: 'Joana Prado',
      dpoEmail: 'privacidade@carteiro.example',
    });
    const text = screen.getByRole('main').textContent ?? '';
    expect(text).toContain('mantida por Carteiro Tecnologia Ltda., CNPJ/CPF 11.222.333/0001-81, a controladora');
    expect(text).toContain('encarregado pelo tratamento de dados pessoais, Joana Prado, pelo e-mail');
    expect(text).toContain(`Última atualização: ${PRIVACY_POLICY_UPDATED}`);
    expect(screen.getByRole('link', { name: 'privacidade@carteiro.example' }).getAttribute('href')).toBe(
      'mailto:privacidade@carteiro.example',
    );
    expect(document.title).toBe('Política de privacidade — Carteiro');
  });

  it('without a configured controller, says who it is by role and reaches the encarregado at the contact address', async () => {
    await renderPolicy({ contactEmail: 'contato@carteiro.example' });
    const text = screen.getByRole('main').textContent ?? '';
    expect(text).toContain('a empresa que mantém esta instalação do Carteiro');
    expect(text).not.toContain('CNPJ/CPF ,');
    expect(screen.getAllByRole('link', { name: 'contato@carteiro.example' })).toHaveLength(2);
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
