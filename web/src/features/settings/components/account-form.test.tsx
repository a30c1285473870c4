import { cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { setLocale } from '@/lib/i18n';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { queryClient } from '@/lib/query-client';
import { renderWithProviders } from '@/test/render';
import { AccountForm } from './account-form';

afterEach(async () => {
  cleanup();
  await setLocale('pt-BR');
  queryClient.clear();
});

function renderWithZone(timeZone: string) {
  queryClient.setQueryData(SESSION_QUERY_KEY, {
    user: { id: 'u1', name: 'Maria', email: 'maria@padaria.com.br', emailVerified: true },
    account: { id: 'a1', uuid: 'a1', name: 'Padaria', timeZone },
    accounts: [],
    role: 'owner',
    isOperator: false,
  });
  renderWithProviders(<AccountForm />, { client: queryClient });
}

describe('AccountForm time zone picker', () => {
  it("shows Brazil's zones first, then a short pt-BR list — no English city ids", () => {
    renderWithZone('America/Sao_Paulo');
    const select = screen.getByLabelText('Fuso horário') as HTMLSelectElement;
    const groups = within(select).getAllByRole('group');
    expect(groups.map((group) => group.getAttribute('label'))).toEqual(['Brasil', 'Outros países']);
    const options = [...select.options];
    expect(options[0]?.textContent).toBe('Horário de Brasília');
    expect(options.length).toBeLessThan(40);
    for (const option of options) expect(option.textContent).not.toMatch(/\/|_|New York|Lisbon|London/);
    expect(options.map((o) => o.textContent)).toContain(`Portugal (Lisboa) · ${labelOffset('Europe/Lisbon')}`);
    expect(select.value).toBe('America/Sao_Paulo');
  });

  it('keeps an account’s zone that is in neither list, selected', () => {
    renderWithZone('America/Port_of_Spain');
    const select = screen.getByLabelText('Fuso horário') as HTMLSelectElement;
    expect(select.value).toBe('America/Port_of_Spain');
    expect(select.selectedOptions[0]?.textContent).toMatch(/^Port of Spain/);
  });
});

describe('AccountForm validation', () => {
  it('in English, shows the shared schema refusals in English under their fields', async () => {
    await setLocale('en');
    renderWithZone('America/Sao_Paulo');
    fireEvent.change(screen.getByLabelText('CNPJ or CPF'), { target: { value: '123' } });
    fireEvent.change(screen.getByLabelText('Sender e-mail'), { target: { value: 'sem-arroba' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Invalid CPF or CNPJ.')).toBeTruthy();
    expect(screen.getByText('Invalid sender e-mail.')).toBeTruthy();
    expect(screen.queryByText('CPF ou CNPJ inválido.')).toBeNull();
  });
});

function labelOffset(timeZone: string): string {
  const part = new Intl.DateTimeFormat('pt-BR', { timeZone, timeZoneName: 'shortOffset' })
    .formatToParts(new Date())
    .find((p) => p.type === 'timeZoneName');
  return part?.value.replace('-', '−') ?? '';
}
