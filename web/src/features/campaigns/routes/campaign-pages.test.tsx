import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfirmDialog } from '@/app/confirm-dialog';
import { configureApiClient } from '@/lib/api-client';
import { setLocale } from '@/lib/i18n';
import '@/lib/i18n/app-messages';
import { appStore } from '@/stores/app-store';
import { renderWithProviders, testQueryClient } from '@/test/render';
import type { Campaign } from '../api/types';
import { CampaignsPage, CampaignViewPage } from './campaign-pages';

const SLOW = { timeout: 5_000 };
const ID = '0190b5d2-0000-7000-8000-0000000000a1';
const LIST_A = '0190b5d2-0000-7000-8000-00000000001a';
const LIST_B = '0190b5d2-0000-7000-8000-00000000001b';

function campaign(overrides: Partial<Campaign> = {}): Campaign {
  return {
    id: ID,
    uuid: '0190b5d2-0000-7000-8000-0000000000b1',
    createdBy: 'acc',
    name: 'Promoção de março',
    subject: 'Olá, {{ contato.nome }}',
    preheader: 'Só esta semana',
    fromName: 'Loja',
    fromEmail: 'loja@example.com',
    replyTo: null,
    includeListIds: [LIST_A],
    excludeListIds: [LIST_B],
    includeSegmentIds: [],
    resendOfCampaignId: null,
    template: '<p>Oi</p>',
    templateProject: null,
    trackOpens: true,
    trackClicks: false,
    abTest: null,
    status: 'draft',
    scheduledAt: null,
    startedAt: null,
    finishedAt: null,
    counters: {
      recipients: 0,
      sent: 0,
      failed: 0,
      bounced: 0,
      opened: 0,
      clicked: 0,
      unsubscribed: 0,
      complained: 0,
    },
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-02T12:00:00.000Z',
    ...overrides,
  };
}

let restore: () => void = () => {};
afterEach(() => {
  restore();
  appStore.dispatch({ type: 'SET_DIALOG', dialog: null });
});

function renderAt(path: string, answers: (path: string, init?: RequestInit) => Response | undefined) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const answer = answers(url, init);
    if (answer) return answer;
    if (url.endsWith('/summary'))
      return Response.json({
        recipients: 1,
        priceMillis: 5,
        costMillis: 5,
        balanceMillis: 100,
        balanceAfterMillis: 95,
        isBalanceSufficient: true,
      });
    if (url === '/api/lists')
      return Response.json({
        items: [
          { id: LIST_A, name: 'Clientes VIP' },
          { id: LIST_B, name: 'Descadastrar depois' },
        ],
      });
    return Response.json({});
  });
  restore = configureApiClient({ fetch });
  const client = testQueryClient();
  renderWithProviders(
    <>
      <Routes>
        <Route path="/dashboard/campaigns" element={<CampaignsPage />} />
        <Route path="/dashboard/campaigns/:id/view" element={<CampaignViewPage />} />
      </Routes>
      <ConfirmDialog />
    </>,
    { at: path, client },
  );
  return fetch;
}

describe('CampaignViewPage (/dashboard/campaigns/:id/view)', () => {
  it('shows the settings, the exact recipients, cost and balance after sending', async () => {
    renderAt(`/dashboard/campaigns/${ID}/view`, (url) => {
      if (url === `/api/campaigns/${ID}`) return Response.json(campaign());
      if (url === `/api/campaigns/${ID}/summary`)
        return Response.json({
          recipients: 12_345,
          priceMillis: 5,
          costMillis: 61_725,
          balanceMillis: 50_000,
          balanceAfterMillis: -11_725,
          isBalanceSufficient: false,
        });
      return undefined;
    });
    const summary = await screen.findByTestId('campaign-summary', undefined, SLOW);
    await within(summary).findByText('12.345', undefined, SLOW);
    const text = (summary.textContent ?? '').replace(/\u00a0/g, ' ');
    expect(text).toContain('Custo do envioR$ 61,725R$ 0,005 por e-mail');
    expect(text).toContain('Saldo atualR$ 50,00');
    expect(text).toContain('Saldo após o envio-R$ 11,725');
    expect(text).toContain('Saldo insuficiente');
    await screen.findByText('Clientes VIP', undefined, SLOW);
    expect(screen.getByText('Descadastrar depois')).toBeTruthy();
    expect(screen.getByText('Só esta semana')).toBeTruthy();
    expect(screen.getByText('Loja <loja@example.com>')).toBeTruthy();
  });

  it('shows what is missing before sending, on the page and in the send dialog, with links to fix — no Continuar', async () => {
    renderAt(`/dashboard/campaigns/${ID}/view`, (url) => {
      if (url === `/api/campaigns/${ID}`)
        return Response.json(campaign({ subject: ' ', includeListIds: [], fromEmail: null, template: '<p>Oi</p>' }));
      if (url.startsWith('/api/session'))
        return Response.json({
          user: { id: 'u1', email: 'maria@example.com', name: 'Maria', emailVerified: true },
          account: {
            id: 'acc',
            uuid: 'u-acc',
            name: 'Padaria',
            legalName: null,
            taxId: null,
            address: null,
            defaultFromEmail: null,
            ownerUserId: 'u1',
            timeZone: 'America/Sao_Paulo',
            defaultFromName: null,
            priceMillis: 5,
            balanceMillis: 0,
            status: 'active',
            createdAt: '2026-01-01T00:00:00.000Z',
            updatedAt: '2026-01-01T00:00:00.000Z',
          },
          accounts: [{ id: 'acc', name: 'Padaria', role: 'owner' }],
          role: 'owner',
          isOperator: false,
        });
      if (url === `/api/campaigns/${ID}/summary`)
        return Response.json({
          recipients: 0,
          priceMillis: 5,
          costMillis: 0,
          balanceMillis: 0,
          balanceAfterMillis: 0,
          isBalanceSufficient: true,
        });
      return undefined;
    });
    const card = await screen.findByTestId('send-checklist', undefined, SLOW);
    await within(card).findByText('Identificação no rodapé', undefined, SLOW);
    const text = card.textContent ?? '';
    expect(text).toContain('Faltam 5 itens');
    expect(text).toContain('Informe o assunto antes de enviar.');
    expect(text).toContain('Escolha pelo menos uma lista ou segmento de destinatários antes de enviar.');
    expect(text).toContain('O modelo não tem o link de descadastro.');
    expect(text).toContain('Informe o e-mail do remetente antes de enviar.');
    expect(text).toContain('CNPJ ou CPF');
    expect(within(card).getByRole('link', { name: 'Completar a identificação' }).getAttribute('href')).toBe(
      '/dashboard/settings?aba=conta',
    );
    expect(within(card).getByRole('link', { name: 'Escrever o assunto' }).getAttribute('href')).toBe(
      `/dashboard/campaigns/${ID}/edit`,
    );

    fireEvent.click(await screen.findByRole('button', { name: 'Enviar agora' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Falta pouco para enviar')).toBeTruthy();
    expect(within(dialog).getByRole('link', { name: 'Escolher listas ou segmentos' })).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Continuar' })).toBeNull();
    expect(dialog.textContent).not.toContain('custo');
    // The schedule form names the zone as people do.
    expect(screen.getByText('Fuso horário: Horário de Brasília.')).toBeTruthy();
  });

  it('shows a sender without a name as its address alone', async () => {
    renderAt(`/dashboard/campaigns/${ID}/view`, (url) => {
      if (url === `/api/campaigns/${ID}`) return Response.json(campaign({ fromName: null }));
      return undefined;
    });
    // Remetente and Responder para (no reply-to: the sender's address).
    expect(await screen.findAllByText('loja@example.com', { selector: 'dd' }, SLOW)).toHaveLength(2);
    expect(screen.queryByText(/—\s*<loja@example.com>/)).toBeNull();
  });

  it('deletes a draft only after the confirmation, then goes back to the list', async () => {
    const fetch = renderAt(`/dashboard/campaigns/${ID}/view`, (url, init) => {
      if (url === `/api/campaigns/${ID}` && init?.method === 'DELETE') return new Response(null, { status: 204 });
      if (url === `/api/campaigns/${ID}`) return Response.json(campaign());
      if (url === '/api/campaigns') return Response.json({ items: [] });
      return undefined;
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Excluir' }, SLOW));
    const dialog = await screen.findByRole('alertdialog', undefined, SLOW);
    expect(dialog.textContent).toContain('Excluir este rascunho?');
    expect(dialog.textContent).toContain('"Promoção de março"');
    const deletes = () => fetch.mock.calls.filter(([, init]) => init?.method === 'DELETE');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(deletes()).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Excluir' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Continuar' }));
    await screen.findByText('Nenhuma campanha ainda', undefined, SLOW);
    expect(deletes()).toHaveLength(1);
    expect(String(deletes()[0]?.[0])).toBe(`/api/campaigns/${ID}`);
  });

  it('offers no delete, edit or template editing once sending has started', async () => {
    renderAt(`/dashboard/campaigns/${ID}/view`, (url) => {
      if (url === `/api/campaigns/${ID}`)
        return Response.json(campaign({ status: 'sent', startedAt: '2026-03-03T12:00:00.000Z' }));
      return undefined;
    });
    await screen.findByTestId('send-times', undefined, SLOW);
    expect(screen.queryByRole('button', { name: 'Excluir' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Editar' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Modelo' })).toBeNull();
    expect(screen.queryByTestId('campaign-summary')).toBeNull();
    expect(screen.getByRole('button', { name: 'Duplicar' })).toBeTruthy();
  });
});

describe('CampaignsPage (/dashboard/campaigns)', () => {
  it('lists the campaigns in the order the server gives (updated_at desc) with status badges and numbers', async () => {
    renderAt('/dashboard/campaigns', (url) => {
      if (url === '/api/campaigns')
        return Response.json({
          items: [
            campaign({ id: 'c2', name: 'Mais recente', status: 'scheduled', scheduledAt: '2026-04-01T12:00:00.000Z' }),
            campaign({
              id: 'c1',
              name: 'Antiga',
              status: 'sent',
              counters: { ...campaign().counters, sent: 2_000, opened: 500, clicked: 50 },
            }),
          ],
        });
      return undefined;
    });
    const rows = await screen.findAllByRole('row', undefined, SLOW);
    const body = rows.slice(1).map((row) => row.textContent ?? '');
    expect(body[0]).toContain('Mais recente');
    expect(body[0]).toContain('Agendada');
    expect(body[1]).toContain('Antiga');
    expect(body[1]).toContain('Enviada');
    expect(body[1]).toContain('2.000');
    expect(body[1]).toContain('25%');
    expect(body[1]).toContain('2,5%');
  });
});

describe('in English (the en catalogue)', () => {
  afterEach(() => setLocale('pt-BR'));

  it('the list and the campaign page speak English, statuses included', async () => {
    await setLocale('en');
    renderAt('/dashboard/campaigns', (url) => {
      if (url === '/api/campaigns') return Response.json({ items: [campaign({ status: 'scheduled', subject: '' })] });
      if (url === `/api/campaigns/${ID}`)
        return Response.json(campaign({ status: 'scheduled', scheduledAt: '2026-11-26T13:00:00.000Z' }));
      return undefined;
    });
    const rows = await screen.findAllByRole('row', undefined, SLOW);
    expect(rows[0]?.textContent).toBe('CampaignStatusSentOpensClicksUpdated');
    expect(rows[1]?.textContent).toContain('No subject');
    expect(rows[1]?.textContent).toContain('Scheduled');
    expect(screen.getByRole('link', { name: 'New campaign' })).toBeTruthy();

    fireEvent.click(screen.getByRole('link', { name: 'Promoção de março' }));
    const summary = await screen.findByTestId('campaign-summary', undefined, SLOW);
    await within(summary).findByText('Recipients', undefined, SLOW);
    expect(summary.textContent).toContain('Balance after the send');
    expect(screen.getByRole('button', { name: 'Unschedule' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Reschedule' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send now' })).toBeTruthy();
    expect(screen.getByText('Except those in')).toBeTruthy();
    expect(screen.getByText('Scheduled')).toBeTruthy();
    // The long date in words follows the interface's language (10:00 in São Paulo).
    expect(screen.getByTestId('scheduled-at').textContent).toBe(
      'Scheduled for Thursday, November 26, 2026 at 10:00 AM',
    );
    expect(screen.getByText('opens')).toBeTruthy();
    // The checklist's items by their case (the server's refusal keeps the pt-BR texts of shared/).
    const checklist = screen.getByTestId('send-checklist').textContent ?? '';
    expect(checklist).toContain('1 item is missing before sending:');
    expect(checklist).toContain('✓ Subject');
    expect(checklist).toContain('Unsubscribe link');
    expect(checklist).toContain('The template has no unsubscribe link. Put {{ link_descadastro }} in the footer');
    expect(within(screen.getByTestId('send-checklist')).getByRole('link', { name: 'Edit the content' })).toBeTruthy();
    expect(document.body.textContent).not.toMatch(
      /Destinatários|Excluir|Enviar agora|Agendada|Configurações|Remetente|Assunto|Conteúdo|feira/,
    );
  });
});
