import type { SenderDnsRecord, SenderDomainDto, SenderListDto } from '@carteiro/shared';
import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import { SESSION_QUERY_KEY } from '@/lib/session';
import '@/lib/i18n/app-messages';
import { queryClient } from '@/lib/query-client';
import { renderWithProviders } from '@/test/render';
import { SendersPanel } from './senders-panel';

const SLOW = { timeout: 5_000 };
const session = {
  user: { id: 'u1', name: 'Ana', email: 'ana@example.com', emailVerified: true },
  account: { id: 'a1', uuid: 'a1', name: 'Loja da Ana' },
  accounts: [],
  role: 'owner',
  isOperator: false,
};

function record(
  kind: SenderDnsRecord['kind'],
  status: SenderDnsRecord['status'],
  extra: Partial<SenderDnsRecord> = {},
) {
  return {
    kind,
    type: kind === 'return_path' || kind === 'tracking' ? 'CNAME' : 'TXT',
    name: `${kind}.loja.com.br`,
    value: `valor-${kind}`,
    required: kind === 'dkim',
    status,
    found: [],
    note: null,
    warning: null,
    ...extra,
  } as SenderDnsRecord;
}

function domain(status: SenderDomainDto['status'], dkim: SenderDnsRecord['status']): SenderDomainDto {
  return {
    id: 'd1',
    domain: 'loja.com.br',
    status,
    returnPathVerified: false,
    records: [
      record('dkim', dkim),
      record('spf', 'wrong', {
        found: ['v=spf1 include:a include:b ~all'],
        warning: 'Com o Carteiro, o SPF deste domínio faria 11 consultas DNS — o limite é 10.',
      }),
    ],
    lastCheckedAt: null,
    verifiedAt: null,
    createdAt: '2026-11-24T12:00:00.000Z',
  };
}

let restore: () => void = () => {};
afterEach(() => {
  restore();
  queryClient.clear();
});

describe('SendersPanel (Configurações → Remetentes e domínios)', () => {
  it('shows each record with its state, copies values, and "Verificar agora" updates the domain', SLOW, async () => {
    let current: SenderListDto = {
      addresses: [{ id: 'x1', email: 'contato@padaria.com.br', status: 'pending', createdAt: '2026-11-24T12:00:00Z' }],
      domains: [domain('pending', 'missing')],
      allowed: { addresses: [], domains: [] },
    };
    const posts: string[] = [];
    restore = configureApiClient({
      fetch: vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
        const path = String(input);
        if (init?.method === 'POST') posts.push(path);
        if (path === '/api/sender-domains/d1/check') {
          current = {
            ...current,
            domains: [domain('verified', 'found')],
            allowed: { addresses: [], domains: ['loja.com.br'] },
          };
          return Response.json(current.domains[0]);
        }
        if (path === '/api/senders') return Response.json(current);
        return Response.json({});
      }),
    });
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    queryClient.setQueryData(SESSION_QUERY_KEY, session);
    renderWithProviders(<SendersPanel />, { client: queryClient });
    const card = await screen.findByRole('article', { name: 'Domínio loja.com.br' });
    expect(within(card).getByText('Aguardando DNS')).toBeTruthy();
    const dkim = within(card).getByTestId('record-dkim');
    expect(within(dkim).getByText('Não encontrado')).toBeTruthy();
    expect(within(dkim).getByText('obrigatório')).toBeTruthy();
    const spf = within(card).getByTestId('record-spf');
    expect(within(spf).getByText('Diferente')).toBeTruthy();
    expect(within(spf).getByText(/Encontrado no DNS: v=spf1 include:a include:b ~all/)).toBeTruthy();
    expect(within(spf).getByRole('alert').textContent).toContain('11 consultas DNS');
    expect(screen.getByText('Aguardando confirmação')).toBeTruthy();

    fireEvent.click(within(dkim).getByRole('button', { name: 'Copiar valor DKIM' }));
    expect(writeText).toHaveBeenCalledWith('valor-dkim');

    fireEvent.click(within(card).getByRole('button', { name: 'Verificar agora' }));
    await within(card).findByText('Verificado', {}, SLOW);
    expect(posts).toEqual(['/api/sender-domains/d1/check']);
    expect(within(within(card).getByTestId('record-dkim')).getByText('Encontrado')).toBeTruthy();
  });
});
