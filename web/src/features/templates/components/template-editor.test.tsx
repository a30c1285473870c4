import { fireEvent, screen, waitFor } from '@testing-library/react';
import { forwardRef, useImperativeHandle } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { configureApiClient } from '@/lib/api-client';
import '@/lib/i18n/app-messages';
import { BLANK_TEMPLATE_HTML } from '@/lib/blank-template';
import { renderWithProviders, testQueryClient } from '@/test/render';
import { TemplateEditor } from './template-editor';

// GrapesJS does not run in jsdom: a stand-in with the same handle (the e2e journey drives the real builder).
vi.mock('./visual-builder', () => ({
  default: forwardRef(function FakeBuilder({ html }: { html: string }, ref) {
    useImperativeHandle(ref, () => ({
      flush: async () => {},
      getHtml: () => html,
      getProject: () => ({ pages: [] }),
      insertText: () => true,
    }));
    return <div data-testid="visual-builder" />;
  }),
}));

const SLOW = { timeout: 5_000 };
const CONTACT = {
  id: '0190b5d2-0000-7000-8000-00000000c0a1',
  email: 'ana@example.com',
  name: 'Ana Souza',
  fields: { cidade: 'Recife' },
};

let restore: () => void = () => {};
afterEach(() => restore());

function renderEditor(props: Partial<Parameters<typeof TemplateEditor>[0]> = {}) {
  const fetch = vi.fn(async (input: RequestInfo | URL) => {
    if (String(input).startsWith('/api/contacts')) return Response.json({ items: [CONTACT], nextCursor: null });
    return Response.json({});
  });
  restore = configureApiClient({ fetch });
  const onSave = vi.fn(async () => {});
  const client = testQueryClient();
  renderWithProviders(
    <TemplateEditor initial={{ html: BLANK_TEMPLATE_HTML, project: null }} onSave={onSave} {...props} />,
    { client },
  );
  return { onSave };
}

describe('TemplateEditor preview and test send', () => {
  it('renders on the server for the chosen contact, at 600 px or 375 px, in a sandboxed frame', async () => {
    const renderPreview = vi.fn(
      async (_content: unknown, contactId: string | null) =>
        `<p>Olá, ${contactId ? 'Ana Souza' : 'Maria Silva'}!</p><script>alert(1)</script>`,
    );
    const { onSave } = renderEditor({ renderPreview });
    await screen.findByTestId('visual-builder', undefined, SLOW);
    fireEvent.click(screen.getByRole('tab', { name: 'Pré-visualizar' }));

    const frame = await screen.findByTestId('preview-frame', undefined, SLOW);
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toContain('Maria Silva');
    expect(frame.style.width).toBe('600px');
    // The content is saved first, so the server renders what the editor shows.
    expect(onSave).toHaveBeenCalledWith({ html: BLANK_TEMPLATE_HTML, project: { pages: [] } });
    expect(renderPreview).toHaveBeenLastCalledWith(expect.anything(), null);

    fireEvent.click(screen.getByRole('button', { name: 'Celular (375 px)' }));
    expect(screen.getByTestId('preview-frame').style.width).toBe('375px');

    const data = screen.getByLabelText('Dados da pré-visualização');
    await screen.findByRole('option', { name: 'Ana Souza <ana@example.com>' }, SLOW);
    fireEvent.change(data, { target: { value: CONTACT.id } });
    await waitFor(() => expect(screen.getByTestId('preview-frame').getAttribute('srcdoc')).toContain('Ana Souza'));
    expect(renderPreview).toHaveBeenLastCalledWith(expect.anything(), CONTACT.id);
    expect(screen.getByTestId('preview-frame').style.width).toBe('375px');
  });

  it('test-sends to at most 5 addresses, with the chosen data', async () => {
    const onTestSend = vi.fn(async (_content: unknown, emails: string[], _contactId: string | null) => emails.length);
    renderEditor({ renderPreview: async () => '<p>Oi</p>', onTestSend });
    await screen.findByTestId('visual-builder', undefined, SLOW);
    fireEvent.click(screen.getByRole('tab', { name: 'Pré-visualizar' }));
    const input = await screen.findByLabelText('Até 5 e-mails', undefined, SLOW);

    fireEvent.change(input, { target: { value: 'a@x.com, b@x.com, c@x.com, d@x.com, e@x.com, f@x.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar teste' }));
    await screen.findByText('No máximo 5 e-mails por teste.', undefined, SLOW);
    expect(onTestSend).not.toHaveBeenCalled();

    fireEvent.change(input, { target: { value: 'revisor@example.com; chefe@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Enviar teste' }));
    await waitFor(() => expect(onTestSend).toHaveBeenCalledTimes(1));
    expect(onTestSend.mock.calls[0]?.[1]).toEqual(['revisor@example.com', 'chefe@example.com']);
    expect(onTestSend.mock.calls[0]?.[2]).toBeNull();
  });
});

describe('BLANK_TEMPLATE_HTML', () => {
  it('starts with the unsubscribe link and the sender identity in the footer', () => {
    for (const tag of [
      '{{ link_descadastro }}',
      '{{ conta.razao_social }}',
      '{{ conta.endereco }}',
      '{{ conta.documento }}',
    ]) {
      expect(BLANK_TEMPLATE_HTML).toContain(tag);
    }
    // Marked, so the visual editor shows it as the one locked footer block.
    expect(BLANK_TEMPLATE_HTML).toContain('data-carteiro-bloco="rodape"');
  });
});
