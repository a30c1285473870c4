import type { AutomationView } from '@carteiro/shared';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { AutomationPage, NewAutomationPage } from './automation-pages';
import { AutomationsPage } from './automations-page';

const SLOW = { timeout: 5_000 };
const ID = '0190b5d2-0000-7000-8000-0000000000c1';
const LIST = '0190b5d2-0000-7000-8000-00000000001a';
const TEMPLATE = '0190b5d2-0000-7000-8000-0000000000d1';

function automation(overrides: Partial<AutomationView> = {}): AutomationView {
  return {
    id: ID,
    name: 'Boas-vindas',
    status: 'paused',
    trigger: { type: 'list_joined', listId: LIST },
    fromEmail: 'loja@example.com',
    fromName: 'Loja',
    pausedReason: 'Passo 1: Saldo insuficiente: faltam R$ 0,005 para enviar esta mensagem.',
    steps: [
      {
        id: 's1',
        position: 1,
        waitAmount: 0,
        waitUnit: 'hours',
        templateId: TEMPLATE,
        templateName: 'Boas-vindas',
        subject: null,
      },
    ],
    enrolled: 3,
    active: 1,
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-02T12:00:00.000Z',
    ...overrides,
  };
}

let restore: () => void = () => {};
afterEach(() => restore());

function renderAt(path: string, answers: (path: string, init?: RequestInit) => Response | undefined) {
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const answer = answers(url, init);
    if (answer) return answer;
    if (url === '/api/lists') return Response.json({ items: [{ id: LIST, name: 'Clientes novos' }] });
    if (url === '/api/templates') return Response.json({ items: [{ id: TEMPLATE, name: 'Boas-vindas' }] });
    if (url === '/api/segments/fields') return Response.json({ customFields: ['aniversario'] });
    return Response.json({});
  });
  restore = configureApiClient({ fetch });
  const client = testQueryClient();
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/automations" element={<AutomationsPage />} />
      <Route path="/dashboard/automations/new" element={<NewAutomationPage />} />
      <Route path="/dashboard/automations/:id" element={<AutomationPage />} />
    </Routes>,
    { at: path, client },
  );
  return fetch;
}

describe('Automações', () => {
  it('lists automations with their trigger, status and contacts in pt-BR plurals', async () => {
    renderAt('/dashboard/automations', (url) => {
      if (url === '/api/automations')
        return Response.json({
          items: [
            automation(),
            automation({
              id: `${ID.slice(0, -1)}2`,
              name: 'Aniversário',
              status: 'active',
              trigger: { type: 'date_field', field: 'aniversario', hour: 9 },
              active: 2,
            }),
          ],
        });
      return undefined;
    });
    await screen.findByText('Entrou na lista "Clientes novos"', undefined, SLOW);
    expect(screen.getByText('Data em "aniversario", às 9h (horário de Brasília)')).toBeTruthy();
    expect(screen.getByText('1 contato')).toBeTruthy();
    expect(screen.getByText('2 contatos')).toBeTruthy();
    expect(screen.getAllByText('1 passo')).toHaveLength(2);
    expect(screen.getByText('Pausada')).toBeTruthy();
    expect(screen.getByText('Ativa')).toBeTruthy();
  });

  it('creates an event automation with a wait → template step, as the API expects', async () => {
    const fetch = renderAt('/dashboard/automations/new', (url, init) => {
      if (url === '/api/automations' && init?.method === 'POST') return Response.json(automation(), { status: 201 });
      return undefined;
    });
    await screen.findByRole('option', { name: 'Boas-vindas' }, SLOW);
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Pós-compra' } });
    fireEvent.change(screen.getByLabelText('Gatilho'), { target: { value: 'api_event' } });
    fireEvent.change(screen.getByLabelText('Nome do evento'), { target: { value: 'pedido_pago' } });
    fireEvent.change(screen.getByLabelText('E-mail do remetente'), { target: { value: 'Loja@Example.com' } });
    fireEvent.change(screen.getByLabelText('Aguardar'), { target: { value: '2' } });
    fireEvent.change(screen.getByLabelText('Unidade'), { target: { value: 'days' } });
    fireEvent.change(screen.getByLabelText('Enviar o modelo'), { target: { value: TEMPLATE } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar automação' }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([u, i]) => String(u) === '/api/automations' && i?.method === 'POST')).toBe(true),
    );
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/automations' && i?.method === 'POST');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      name: 'Pós-compra',
      trigger: { type: 'api_event', eventName: 'pedido_pago' },
      fromEmail: 'loja@example.com',
      steps: [{ waitAmount: 2, waitUnit: 'days', templateId: TEMPLATE }],
    });
  });

  it('sends the re-entry choice: once per distinct data.pedido', async () => {
    const fetch = renderAt('/dashboard/automations/new', (url, init) => {
      if (url === '/api/automations' && init?.method === 'POST') return Response.json(automation(), { status: 201 });
      return undefined;
    });
    await screen.findByRole('option', { name: 'Boas-vindas' }, SLOW);
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Pedido pago' } });
    fireEvent.change(screen.getByLabelText('Gatilho'), { target: { value: 'api_event' } });
    fireEvent.change(screen.getByLabelText('Nome do evento'), { target: { value: 'pedido_pago' } });
    fireEvent.change(screen.getByLabelText('Quantas vezes o contato entra'), { target: { value: 'per_event' } });
    fireEvent.change(screen.getByLabelText('Campo dos dados que identifica o evento'), {
      target: { value: 'pedido' },
    });
    fireEvent.change(screen.getByLabelText('E-mail do remetente'), { target: { value: 'loja@example.com' } });
    fireEvent.change(screen.getByLabelText('Enviar o modelo'), { target: { value: TEMPLATE } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar automação' }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([u, i]) => String(u) === '/api/automations' && i?.method === 'POST')).toBe(true),
    );
    const call = fetch.mock.calls.find(([u, i]) => String(u) === '/api/automations' && i?.method === 'POST');
    expect(JSON.parse(String(call?.[1]?.body)).trigger).toEqual({
      type: 'api_event',
      eventName: 'pedido_pago',
      eventKey: 'pedido',
    });
  });

  it('refuses a step without a template before calling the server', async () => {
    const fetch = renderAt('/dashboard/automations/new', () => undefined);
    await screen.findByRole('option', { name: 'Boas-vindas' }, SLOW);
    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Sem modelo' } });
    fireEvent.change(screen.getByLabelText('Lista'), { target: { value: LIST } });
    fireEvent.change(screen.getByLabelText('E-mail do remetente'), { target: { value: 'loja@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar automação' }));
    await screen.findByText('Escolha o modelo.', undefined, SLOW);
    expect(fetch.mock.calls.some(([, i]) => i?.method === 'POST')).toBe(false);
  });

  it('shows why the system paused it and offers "Retomar"', async () => {
    const fetch = renderAt(`/dashboard/automations/${ID}`, (url, init) => {
      if (url === `/api/automations/${ID}`) return Response.json(automation());
      if (url === `/api/automations/${ID}/report`)
        return Response.json({
          automationId: ID,
          enrolled: 3,
          active: 1,
          completed: 1,
          exited: 1,
          steps: [{ stepId: 's1', position: 1, templateName: 'Boas-vindas', sent: 2, opens: 1, clicks: 0 }],
        });
      if (url === `/api/automations/${ID}/activate` && init?.method === 'POST')
        return Response.json(automation({ status: 'active', pausedReason: null }));
      return undefined;
    });
    const reason = await screen.findByRole('alert', undefined, SLOW);
    expect(reason.textContent).toContain('Saldo insuficiente');
    await screen.findByText('Saíram', undefined, SLOW);
    fireEvent.click(screen.getByRole('button', { name: 'Retomar' }));
    await waitFor(() =>
      expect(fetch.mock.calls.some(([u, i]) => String(u).endsWith('/activate') && i?.method === 'POST')).toBe(true),
    );
  });
});
