import type { BalanceDto, SenderListDto } from '@carteiro/shared';
import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { queryClient } from '@/lib/query-client';
import { renderWithProviders } from '@/test/render';
import { QuickStartSection, quickStartCurl, quickStartSender } from './quick-start-section';

const SLOW = { timeout: 5_000 };
const session = {
  user: { id: 'u1', name: 'Ana', email: 'ana@example.com', emailVerified: true },
  account: { id: 'a1', uuid: 'a1', name: 'Loja da Ana' },
  accounts: [],
  role: 'owner',
  isOperator: false,
};

function senders(allowed: SenderListDto['allowed']): SenderListDto {
  return { addresses: [], domains: [], allowed };
}

function balance(emailsPaid: number): BalanceDto {
  return {
    balanceMillis: emailsPaid * 5,
    priceMillis: 5,
    emailsPaid,
    formatted: 'R$ 0,00',
    lowBalance: emailsPaid < 100,
    lowBalanceThresholdMillis: 500,
  };
}

let restore: () => void = () => {};
afterEach(() => {
  restore();
  queryClient.clear();
});

function renderWith(list: SenderListDto, paid: number, secret: string | null) {
  const calls: string[] = [];
  restore = configureApiClient({
    fetch: vi.fn(async (input: RequestInfo | URL) => {
      const path = String(input);
      calls.push(path);
      if (path === '/api/senders') return Response.json(list);
      if (path === '/api/billing/balance') return Response.json(balance(paid));
      return Response.json({ error: { code: 'not_found', message: 'Não encontrado.' } }, { status: 404 });
    }),
  });
  queryClient.setQueryData(SESSION_QUERY_KEY, session);
  renderWithProviders(<QuickStartSection secret={secret} />, { client: queryClient });
  return calls;
}

describe('quickStartSender (only a verified sender may send)', () => {
  it('prefers the login e-mail when allowed, then a confirmed address, then an address at a verified domain', () => {
    expect(quickStartSender(senders({ addresses: ['Ana@Example.com'], domains: [] }), 'ana@example.com')).toBe(
      'ana@example.com',
    );
    expect(quickStartSender(senders({ addresses: [], domains: ['example.com'] }), 'ana@example.com')).toBe(
      'ana@example.com',
    );
    expect(
      quickStartSender(senders({ addresses: ['loja@padaria.com.br'], domains: ['outra.com.br'] }), 'ana@example.com'),
    ).toBe('loja@padaria.com.br');
    expect(quickStartSender(senders({ addresses: [], domains: ['padaria.com.br'] }), 'ana@example.com')).toBe(
      'contato@padaria.com.br',
    );
    expect(quickStartSender(senders({ addresses: [], domains: [] }), 'ana@example.com')).toBeNull();
  });

  it('builds a curl line whose JSON body survives the shell quoting', () => {
    const line = quickStartCurl('http://127.0.0.1:3000', 'ct_live_x', "o'neil@loja.com.br", 'ana@example.com');
    expect(line).toContain("o'\\''neil@loja.com.br");
    expect(line).not.toContain('Idempotency-Key');
    const quoted = line.slice(line.indexOf("-d '") + 4, -1).replaceAll("'\\''", "'");
    expect(JSON.parse(quoted)).toMatchObject({
      from: { email: "o'neil@loja.com.br" },
      to: { email: 'ana@example.com' },
    });
  });
});

describe('QuickStartSection', () => {
  it('with a confirmed sender, shows the command from it to the user, with the new key', SLOW, async () => {
    renderWith(senders({ addresses: ['loja@padaria.com.br'], domains: [] }), 2000, 'ct_live_segredo');
    const command = await screen.findByTestId('api-quick-start', {}, SLOW);
    const line = command.textContent ?? '';
    expect(line).toContain('Authorization: Bearer ct_live_segredo');
    expect(line).toContain('"from":{"email":"loja@padaria.com.br"}');
    expect(line).toContain('"to":{"email":"ana@example.com"}');
    expect(screen.getByTestId('api-quick-start-from').textContent).toContain('Remetente: loja@padaria.com.br');
    expect(screen.getByRole('button', { name: 'Copiar comando' })).toBeTruthy();
    expect(screen.queryByTestId('api-quick-start-no-sender')).toBeNull();
    expect(screen.queryByTestId('api-quick-start-no-balance')).toBeNull();
  });

  it('without a verified sender, shows no command but a note linking to Remetentes e domínios', SLOW, async () => {
    renderWith(senders({ addresses: [], domains: [] }), 2000, 'ct_live_segredo');
    const note = await screen.findByTestId('api-quick-start-no-sender', {}, SLOW);
    expect(note.textContent).toContain('endereço confirmado ou de um domínio verificado');
    const link = screen.getByRole('link', { name: 'Ir para Configurações → Remetentes e domínios' });
    expect(link.getAttribute('href')).toBe('/dashboard/settings?aba=remetentes');
    expect(screen.queryByTestId('api-quick-start')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Copiar comando' })).toBeNull();
    // No text that talks about a command that is not there.
    expect(screen.queryByText(/SUA_CHAVE|este comando envia/)).toBeNull();
  });

  it('with a sender but no credit, warns that the send would be refused and links to Meu saldo', SLOW, async () => {
    renderWith(senders({ addresses: [], domains: ['example.com'] }), 0, null);
    const warning = await screen.findByTestId('api-quick-start-no-balance', {}, SLOW);
    expect(warning.textContent).toContain('402');
    expect(screen.getByRole('link', { name: 'Adicionar créditos em Meu saldo' }).getAttribute('href')).toBe(
      '/dashboard/my-balance',
    );
    const line = screen.getByTestId('api-quick-start').textContent ?? '';
    expect(line).toContain('Bearer ct_live_SUA_CHAVE');
    expect(line).toContain('"from":{"email":"ana@example.com"}');
  });
});
