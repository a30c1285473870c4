import { fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ImportWizard } from '@/components/imports/import-wizard';
import { configureApiClient } from '@/lib/api-client';
import { setLocale } from '@/lib/i18n';
import { renderWithProviders, testQueryClient } from '@/test/render';

const upload = {
  importId: '0190b5d2-0000-7000-8000-000000000002',
  totalRows: 2,
  delimiter: ';',
  encoding: 'windows-1252',
  hasBom: false,
  columns: ['Nome', 'Cidade'],
  preview: [
    ['João', 'São Paulo'],
    ['Conceição', 'Belém'],
  ],
  suggestedMapping: { Nome: 'name', Cidade: 'field:cidade' },
};

let restore: () => void = () => {};
afterEach(async () => {
  restore();
  await setLocale('pt-BR');
});

function renderWizard() {
  const client = testQueryClient();
  return renderWithProviders(<ImportWizard />, { client });
}

describe('ImportWizard', () => {
  it('shows what was detected, previews rows and asks for the e-mail column before starting', async () => {
    const fetch = vi.fn(async (url: RequestInfo | URL) =>
      String(url) === '/api/imports' ? Response.json(upload, { status: 201 }) : Response.json({ items: [] }),
    );
    restore = configureApiClient({ fetch });
    renderWizard();
    const input = document.querySelector<HTMLInputElement>('#import-file');
    if (!input) throw new Error('sem campo de arquivo');
    fireEvent.change(input, { target: { files: [new File(['Nome;Cidade\n'], 'clientes.csv', { type: 'text/csv' })] } });
    expect(await screen.findByText('Separador: ponto e vírgula (;)')).toBeTruthy();
    expect(screen.getByText(/Windows-1252/)).toBeTruthy();
    expect(screen.getByText('Conceição')).toBeTruthy();
    expect((screen.getByLabelText('Coluna Cidade') as HTMLSelectElement).value).toBe('field:cidade');
    // The field reads as the export names its column ("Cidade"), not as its stored key ("cidade").
    expect(screen.getAllByRole('option', { name: 'Campo "Cidade"' }).length).toBeGreaterThan(0);
    expect(screen.queryByRole('option', { name: 'Campo "cidade"' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar importação' }));
    expect(await screen.findByText('Escolha a coluna que tem o e-mail.')).toBeTruthy();
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/start'))).toBe(false);
  });

  it('shows the LGPD basis and source errors under their own fields, and starts nothing', async () => {
    const fetch = vi.fn(async (url: RequestInfo | URL) =>
      String(url) === '/api/imports' ? Response.json(upload, { status: 201 }) : Response.json({ items: [] }),
    );
    restore = configureApiClient({ fetch });
    renderWizard();
    const input = document.querySelector<HTMLInputElement>('#import-file');
    if (!input) throw new Error('sem campo de arquivo');
    fireEvent.change(input, { target: { files: [new File(['Nome;Cidade\n'], 'clientes.csv', { type: 'text/csv' })] } });
    fireEvent.change(await screen.findByLabelText('Coluna Nome'), { target: { value: 'email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar importação' }));
    const basisError = await screen.findByText('Informe a base legal (consentimento ou legítimo interesse).');
    const basis = document.getElementById('import-basis') as HTMLSelectElement;
    expect(basisError.id).toBe('import-basis-error');
    expect(basis.getAttribute('aria-describedby')).toBe('import-basis-error');
    expect(basis.parentElement?.contains(basisError)).toBe(true);
    expect(document.activeElement).toBe(basis);
    const sourceError = screen.getByText('Informe a origem do consentimento.');
    expect(document.getElementById('import-source')?.parentElement?.contains(sourceError)).toBe(true);
    expect(fetch.mock.calls.some(([url]) => String(url).endsWith('/start'))).toBe(false);
  });

  it('says before the import that a double opt-in list sends each new member a confirmation e-mail', async () => {
    const lists = [
      { id: 'l-simples', name: 'Geral', description: null, optIn: 'single', contactCount: 0, subscribedCount: 0 },
      { id: 'l-dupla', name: 'VIP', description: null, optIn: 'double', contactCount: 0, subscribedCount: 0 },
    ];
    restore = configureApiClient({
      fetch: vi.fn(async (url: RequestInfo | URL) =>
        String(url) === '/api/imports' ? Response.json(upload, { status: 201 }) : Response.json({ items: lists }),
      ),
    });
    renderWizard();
    const input = document.querySelector<HTMLInputElement>('#import-file');
    if (!input) throw new Error('sem campo de arquivo');
    fireEvent.change(input, { target: { files: [new File(['Nome;Cidade\n'], 'clientes.csv', { type: 'text/csv' })] } });
    const list = (await screen.findByLabelText('Lista de destino')) as HTMLSelectElement;
    await screen.findByRole('option', { name: 'VIP' });
    fireEvent.change(list, { target: { value: 'l-simples' } });
    expect(screen.queryByText(/receberão um e-mail de confirmação/)).toBeNull();
    fireEvent.change(list, { target: { value: 'l-dupla' } });
    expect(
      screen.getByText(
        'Esta lista tem confirmação dupla: até 2 contatos receberão um e-mail de confirmação (do remetente padrão da conta, cobrado como qualquer e-mail) e só entram na lista depois de confirmar. Quem já está na lista, descadastrou ou está na lista de supressão não recebe.',
      ),
    ).toBeTruthy();
  });

  it('asks the type of each custom-field column (dates suggested) and sends it with the mapping', async () => {
    const dated = {
      ...upload,
      columns: ['E-mail', 'Nome', 'Cidade', 'Aniversário'],
      preview: [['joao@x.com', 'João', 'São Paulo', '15/03/1985']],
      suggestedMapping: { 'E-mail': 'email', Nome: 'name', Cidade: 'field:cidade', Aniversário: 'field:aniversário' },
      suggestedTypes: { Aniversário: 'date' },
    };
    let started: Record<string, unknown> | null = null;
    restore = configureApiClient({
      fetch: vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
        if (String(url) === '/api/imports') return Response.json(dated, { status: 201 });
        if (String(url).endsWith('/start')) {
          started = JSON.parse(String(init?.body));
          return Response.json({ id: dated.importId, status: 'queued' }, { status: 202 });
        }
        return Response.json({ items: [] });
      }),
    });
    renderWizard();
    const input = document.querySelector<HTMLInputElement>('#import-file');
    if (!input) throw new Error('sem campo de arquivo');
    fireEvent.change(input, { target: { files: [new File(['x'], 'clientes.csv', { type: 'text/csv' })] } });
    const birthday = (await screen.findByLabelText('Tipo da coluna Aniversário')) as HTMLSelectElement;
    expect(birthday.value).toBe('date');
    expect([...birthday.options].map((o) => o.text)).toEqual(['Texto', 'Número', 'Data']);
    expect((screen.getByLabelText('Tipo da coluna Cidade') as HTMLSelectElement).value).toBe('text');
    // E-mail and name have no type; a column taken off its field loses its type.
    expect(screen.queryByLabelText('Tipo da coluna Nome')).toBeNull();
    expect(screen.getByText(/31\/02\/2000/)).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Tipo da coluna Cidade'), { target: { value: 'number' } });
    fireEvent.change(screen.getByLabelText('Coluna Cidade'), { target: { value: 'ignore' } });
    expect(screen.queryByLabelText('Tipo da coluna Cidade')).toBeNull();
    fireEvent.change(screen.getByLabelText('Base legal (LGPD)'), { target: { value: 'consent' } });
    fireEvent.change(screen.getByLabelText('Origem do consentimento'), { target: { value: 'Loja' } });
    fireEvent.click(screen.getByRole('button', { name: 'Iniciar importação' }));
    await vi.waitFor(() => expect(started).not.toBeNull());
    expect(started).toMatchObject({ fieldTypes: { Aniversário: 'date' } });
  });

  it('creates the target list in place: name → created → chosen, without starting the import', async () => {
    const lists: Array<Record<string, unknown>> = [
      { id: 'l-geral', name: 'Geral', description: null, optIn: 'single', contactCount: 0, subscribedCount: 0 },
    ];
    const calls: string[] = [];
    let created: Record<string, unknown> | null = null;
    restore = configureApiClient({
      fetch: vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
        calls.push(`${init?.method ?? 'GET'} ${String(url)}`);
        if (String(url) === '/api/imports') return Response.json(upload, { status: 201 });
        if (String(url) === '/api/lists' && init?.method === 'POST') {
          if (String(JSON.parse(String(init.body)).name) === 'Geral') {
            return Response.json(
              { error: { code: 'conflict', message: 'Já existe uma lista com esse nome.' } },
              { status: 409 },
            );
          }
          created = JSON.parse(String(init.body));
          const list = { id: 'l-nova', description: null, contactCount: 0, subscribedCount: 0, ...created };
          lists.push(list);
          return Response.json(list, { status: 201 });
        }
        return Response.json({ items: lists });
      }),
    });
    renderWizard();
    const input = document.querySelector<HTMLInputElement>('#import-file');
    if (!input) throw new Error('sem campo de arquivo');
    fireEvent.change(input, { target: { files: [new File(['x'], 'clientes.csv', { type: 'text/csv' })] } });
    await screen.findByRole('option', { name: 'Geral' });
    fireEvent.click(screen.getByRole('button', { name: '+ Criar uma lista nova' }));
    const name = screen.getByLabelText('Nome da nova lista') as HTMLInputElement;
    expect(document.activeElement).toBe(name);
    // An empty name is refused under the field, and nothing is sent.
    fireEvent.keyDown(name, { key: 'Enter' });
    expect((await screen.findByText('Informe o nome da lista.')).id).toBe('import-new-list-error');
    // A save the server refuses: its pt-BR message under the field, the name kept, the focus back on it.
    fireEvent.change(name, { target: { value: 'Geral' } });
    const createButton = screen.getByRole('button', { name: 'Criar lista' });
    createButton.focus();
    fireEvent.click(createButton);
    expect((await screen.findByText('Já existe uma lista com esse nome.')).id).toBe('import-new-list-error');
    expect(screen.queryByText('Informe o nome da lista.')).toBeNull();
    expect(name.value).toBe('Geral');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(name);
    fireEvent.change(name, { target: { value: 'Clientes da feira' } });
    fireEvent.click(screen.getByLabelText(/Confirmação por e-mail/));
    fireEvent.keyDown(name, { key: 'Enter' });
    expect(await screen.findByText('Lista "Clientes da feira" criada e escolhida.')).toBeTruthy();
    expect(created).toEqual({ name: 'Clientes da feira', optIn: 'double' });
    const list = screen.getByLabelText('Lista de destino') as HTMLSelectElement;
    expect(list.value).toBe('l-nova');
    expect(document.activeElement).toBe(list);
    // The new list asks for confirmation: the wizard says so before the import runs.
    expect(screen.getByText(/Esta lista tem confirmação dupla/)).toBeTruthy();
    expect(calls.some((call) => call.endsWith('/start'))).toBe(false);
    fireEvent.change(list, { target: { value: 'l-geral' } });
    expect(screen.queryByText('Lista "Clientes da feira" criada e escolhida.')).toBeNull();
  });

  it('in English, the LGPD basis and source errors from the shared schema are English', async () => {
    restore = configureApiClient({
      fetch: vi.fn(async (url: RequestInfo | URL) =>
        String(url) === '/api/imports' ? Response.json(upload, { status: 201 }) : Response.json({ items: [] }),
      ),
    });
    await setLocale('en');
    renderWizard();
    const input = document.querySelector<HTMLInputElement>('#import-file');
    if (!input) throw new Error('sem campo de arquivo');
    fireEvent.change(input, { target: { files: [new File(['Nome;Cidade\n'], 'clientes.csv', { type: 'text/csv' })] } });
    fireEvent.change(await screen.findByLabelText('Column Nome'), { target: { value: 'email' } });
    fireEvent.click(screen.getByRole('button', { name: 'Start import' }));
    expect(await screen.findByText('Enter the legal basis (consent or legitimate interest).')).toBeTruthy();
    expect(screen.getByText('Enter where the consent came from.')).toBeTruthy();
    expect(screen.queryByText('Informe a origem do consentimento.')).toBeNull();
  });

  it('speaks English when the locale is en', async () => {
    restore = configureApiClient({ fetch: vi.fn(async () => Response.json(upload, { status: 201 })) });
    await setLocale('en');
    renderWizard();
    expect(screen.getByText('Choose a CSV file')).toBeTruthy();
    const input = document.querySelector<HTMLInputElement>('#import-file');
    if (!input) throw new Error('sem campo de arquivo');
    fireEvent.change(input, { target: { files: [new File(['Nome;Cidade\n'], 'clientes.csv', { type: 'text/csv' })] } });
    expect(await screen.findByText('Separator: semicolon (;)')).toBeTruthy();
    expect(screen.getByText('2 rows')).toBeTruthy();
    expect(screen.getByText('Encoding: Windows-1252 (Excel)')).toBeTruthy();
    expect(screen.getByLabelText('Column Cidade')).toBeTruthy();
  });
});
