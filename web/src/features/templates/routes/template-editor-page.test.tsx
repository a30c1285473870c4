import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { forwardRef, useImperativeHandle } from 'react';
import { Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import type { Template } from '@/lib/queries/templates';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { TemplateEditorPage } from './template-editor-page';

// GrapesJS does not run in jsdom: a stand-in with the same handle (the e2e journey drives the real builder).
vi.mock('../components/visual-builder', () => ({
  default: forwardRef(function FakeBuilder({ html }: { html: string }, ref) {
    useImperativeHandle(ref, () => ({
      flush: async () => {},
      getHtml: () => html,
      getProject: () => null,
      insertText: () => true,
    }));
    return <div data-testid="visual-builder" />;
  }),
}));

const SLOW = { timeout: 5_000 };
const ID = '0190b5d2-0000-7000-8000-0000000000d1';
const TEMPLATE: Template = {
  id: ID,
  name: 'Confirmação de pedido',
  subject: 'Pedido {{ dados.pedido }}',
  html: '<p>Pedido {{ dados.pedido }}</p>',
  builderProject: null,
  text: null,
  variables: ['pedido'],
  createdAt: '2026-03-01T12:00:00.000Z',
  updatedAt: '2026-03-01T12:00:00.000Z',
};

let restore: () => void = () => {};
afterEach(() => {
  restore();
  cleanup();
});

function renderPage() {
  const saved: unknown[] = [];
  const fetch = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    if (url.startsWith('/api/contacts')) return Response.json({ items: [], nextCursor: null });
    if (url === `/api/templates/${ID}` && init?.method === 'PATCH') {
      const body = JSON.parse(String(init.body));
      saved.push(body);
      return Response.json({ ...TEMPLATE, ...body });
    }
    if (url === `/api/templates/${ID}`) return Response.json(TEMPLATE);
    return Response.json({});
  });
  restore = configureApiClient({ fetch });
  const client = testQueryClient();
  renderWithProviders(
    <Routes>
      <Route path="/dashboard/templates/:id" element={<TemplateEditorPage />} />
    </Routes>,
    { at: `/dashboard/templates/${ID}`, client },
  );
  return saved;
}

describe('TemplateEditorPage per-message variables', () => {
  it('loads the declared variables, offers them as {{ dados.x }}, and saves what the field declares', async () => {
    const saved = renderPage();
    const field = (await screen.findByLabelText('Variáveis por mensagem (API)', undefined, SLOW)) as HTMLInputElement;
    expect(field.value).toBe('pedido');
    await screen.findByTestId('visual-builder', undefined, SLOW);
    expect(screen.getByRole('option', { name: 'Dado da mensagem: pedido' })).toHaveProperty(
      'value',
      '{{ dados.pedido }}',
    );

    // Names as the template writes them are accepted: `dados.itens` is `itens`.
    fireEvent.change(field, { target: { value: 'pedido, dados.itens; total' } });
    expect(screen.getByRole('option', { name: 'Dado da mensagem: total' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toMatchObject({ variables: ['pedido', 'itens', 'total'] });
  });

  it('shows the shared schema’s pt-BR message for a bad or repeated name, and saves nothing', async () => {
    const saved = renderPage();
    const field = await screen.findByLabelText('Variáveis por mensagem (API)', undefined, SLOW);
    await screen.findByTestId('visual-builder', undefined, SLOW);

    fireEvent.change(field, { target: { value: 'pedido, 2via' } });
    expect(field.getAttribute('aria-invalid')).toBe('true');
    const messages = await screen.findAllByText(/Nome de variável inválido/);
    expect(messages.length).toBeGreaterThan(0);
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    await waitFor(() => expect(screen.getAllByText(/Nome de variável inválido/).length).toBe(2));

    fireEvent.change(field, { target: { value: 'pedido, pedido' } });
    await screen.findByText('Variável repetida: pedido.');
    expect(saved).toEqual([]);
  });
});
