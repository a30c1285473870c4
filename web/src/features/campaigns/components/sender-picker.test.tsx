import type { SenderListDto } from '@carteiro/shared';
import { fireEvent, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { setLocale } from '@/lib/i18n';
import '@/lib/i18n/app-messages';
import { renderWithProviders } from '@/test/render';
import { SenderPicker } from './sender-picker';

let restore: () => void = () => {};
afterEach(() => restore());

function senders(allowed: SenderListDto['allowed']): SenderListDto {
  return { addresses: [], domains: [], allowed };
}

function renderPicker(list: SenderListDto, initial: string) {
  const fetch = vi.fn(async () => Response.json(list));
  restore = configureApiClient({ fetch });
  const seen: string[] = [];
  function Harness() {
    const [value, setValue] = useState(initial);
    return (
      <>
        <label htmlFor="from">E-mail do remetente</label>
        <SenderPicker
          id="from"
          value={value}
          onChange={(next) => {
            seen.push(next);
            setValue(next);
          }}
        />
      </>
    );
  }
  renderWithProviders(<Harness />);
  return seen;
}

describe('SenderPicker (campaign From)', () => {
  it('offers only confirmed addresses and verified domains, and marks a saved unverified From', async () => {
    const seen = renderPicker(
      senders({ addresses: ['contato@padaria.com.br'], domains: ['loja.com.br'] }),
      'noreply@banco.com.br',
    );
    await screen.findByText('contato@padaria.com.br');
    const select = screen.getByRole('combobox', { name: 'E-mail do remetente' }) as HTMLSelectElement;
    expect([...select.options].map((o) => o.textContent)).toEqual([
      'noreply@banco.com.br (não verificado)',
      'contato@padaria.com.br',
      'Qualquer endereço @loja.com.br',
    ]);
    expect(screen.getByText(/noreply@banco.com.br não está verificado/)).toBeTruthy();

    fireEvent.change(select, { target: { value: '@loja.com.br' } });
    expect(seen.at(-1)).toBe('contato@loja.com.br');
    const local = screen.getByLabelText('Endereço antes do @');
    fireEvent.change(local, { target: { value: 'ofertas' } });
    expect(seen.at(-1)).toBe('ofertas@loja.com.br');
    expect(screen.queryByText(/não está verificado/)).toBeNull();
  });

  it('in English: the options, the unverified mark and a domain address starting as "contact@"', async () => {
    await setLocale('en');
    try {
      const seen = renderPicker(
        senders({ addresses: ['contato@padaria.com.br'], domains: ['loja.com.br'] }),
        'noreply@banco.com.br',
      );
      await screen.findByText('contato@padaria.com.br');
      const select = screen.getByRole('combobox') as HTMLSelectElement;
      expect([...select.options].map((o) => o.textContent)).toEqual([
        'noreply@banco.com.br (not verified)',
        'contato@padaria.com.br',
        'Any address @loja.com.br',
      ]);
      expect(screen.getByText(/noreply@banco.com.br is not verified/)).toBeTruthy();
      fireEvent.change(select, { target: { value: '@loja.com.br' } });
      expect(seen.at(-1)).toBe('contact@loja.com.br');
      expect(screen.getByLabelText('Address before the @')).toBeTruthy();
    } finally {
      await setLocale('pt-BR');
    }
  });

  it('without any verified sender keeps a free field and says how to verify one', async () => {
    renderPicker(senders({ addresses: [], domains: [] }), '');
    await screen.findByText(/ainda não tem remetente verificado/);
    expect(screen.getByRole('textbox', { name: 'E-mail do remetente' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Configurações → Remetentes e domínios' }).getAttribute('href')).toBe(
      '/dashboard/settings?aba=remetentes',
    );
  });
});
