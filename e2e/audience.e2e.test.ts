import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { signUpAndOpen } from './support/session';
import { RESULTS, useAppAndBrowser } from './support/suite';

/** A pt-BR Excel export: `;`-separated, Windows-1252, accents, one invalid e-mail and one duplicate. */
function excelCsv(): Buffer {
  const rows = ['E-mail;Nome;Cidade;Data de nascimento'];
  rows.push('joao@example.com;João da Silva;São Paulo;15/03/1990');
  rows.push('conceicao@example.com;Conceição Souza;Belém;1/2/1985');
  for (let i = 0; i < 60; i++)
    rows.push(`pessoa${i}@example.com;Pessoa ${i};Recife;${(i % 28) + 1}/0${(i % 9) + 1}/1980`);
  rows.push('nao-e-email;Fulano;Natal;31/02/2000');
  rows.push('joao@example.com;João repetido;São Paulo;15/03/1990');
  return Buffer.from(`${rows.join('\r\n')}\r\n`, 'latin1');
}

describe.skipIf(!CHROMIUM_PATH)('audience journey in Chromium', () => {
  const suite = useAppAndBrowser();

  it('creates a list, imports a CSV through the mapping step, opens a contact and exports', async () => {
    const { page, context } = await signUpAndOpen(suite.browser, suite.app.baseURL, { path: '/dashboard/lists' });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.getByText('Nenhuma lista ainda').waitFor();
    await page.screenshot({ path: join(RESULTS, 'lists-empty-1280.png') });
    await page.getByRole('link', { name: 'Nova lista' }).click();
    await page.getByLabel('Nome da lista').fill('Clientes da loja');
    await page.getByLabel('Descrição (opcional)').fill('Quem comprou em 2026');
    await page.getByRole('button', { name: 'Criar lista' }).click();
    await page.getByRole('heading', { name: 'Clientes da loja' }).waitFor();

    // The list's subscribe page and embeddable form.
    await page.getByRole('button', { name: 'Formulário de inscrição' }).click();
    const snippet = page.getByLabel('Código do formulário');
    await snippet.waitFor();
    expect(await snippet.inputValue()).toContain('<form');
    await page
      .getByRole('dialog', { name: 'Formulário de inscrição' })
      .getByRole('button', { name: 'Fechar', exact: true })
      .click();

    // Upload → mapping step.
    await page.getByRole('button', { name: 'Importar CSV' }).click();
    await page
      .locator('#import-file')
      .setInputFiles({ name: 'clientes.csv', mimeType: 'text/csv', buffer: excelCsv() });
    const detected = page.getByTestId('import-detected');
    await detected.waitFor();
    expect(await detected.textContent()).toContain('ponto e vírgula');
    expect(await detected.textContent()).toContain('Windows-1252');
    expect(await page.getByText('João da Silva').count()).toBe(1);
    expect(await page.getByLabel('Coluna E-mail').inputValue()).toBe('email');
    await page.getByLabel('Coluna Nome').selectOption('name');
    // The date column is suggested as a date (stored AAAA-MM-DD; a 31/02 would be refused with its reason).
    expect(await page.getByLabel('Tipo da coluna Data de nascimento').inputValue()).toBe('date');
    // At 1280 px every column's choice shows its whole text (the select is wider than its chosen option's text).
    const cut = await page.getByTestId('import-columns').evaluate((root) => {
      const context = document.createElement('canvas').getContext('2d') as CanvasRenderingContext2D;
      return [...root.querySelectorAll('select')].flatMap((select) => {
        const style = getComputedStyle(select);
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = select.selectedOptions[0]?.text ?? '';
        // Padding and the arrow take about 3rem of the box.
        const room = select.clientWidth - 48;
        return context.measureText(text).width > room ? [`${text} (${Math.round(room)} px)`] : [];
      });
    });
    expect(cut).toEqual([]);
    // A new list made inside the import is created and chosen without leaving it; then back to this list.
    await page.getByRole('button', { name: '+ Criar uma lista nova' }).click();
    await page.getByLabel('Nome da nova lista').fill('Feira de sábado');
    await page.getByLabel('Nome da nova lista').press('Enter');
    await page.getByText('Lista "Feira de sábado" criada e escolhida.').waitFor();
    const target = page.getByLabel('Lista de destino');
    expect(await target.evaluate((select: HTMLSelectElement) => select.selectedOptions[0]?.text)).toBe(
      'Feira de sábado',
    );
    await target.selectOption({ label: 'Clientes da loja' });
    await page.getByLabel('Base legal (LGPD)').selectOption('consent');
    await page.getByLabel('Origem do consentimento').fill('Cadastro na loja');
    await page.screenshot({ path: join(RESULTS, 'import-mapping-1280.png') });
    await page.getByRole('button', { name: 'Iniciar importação' }).click();

    // The real progress bar reaches 100% and the summary shows the counts.
    const bar = page.getByRole('progressbar', { name: 'Progresso da importação' });
    await bar.waitFor();
    await page.waitForFunction(
      () => document.querySelector('[role="progressbar"]')?.getAttribute('aria-valuenow') === '100',
      undefined,
      { timeout: 30_000 },
    );
    const summary = page.getByTestId('import-summary');
    await summary.waitFor();
    const text = (await summary.textContent()) ?? '';
    expect(text).toContain('Novos62');
    expect(text).toContain('Linhas inválidas1');
    expect(text).toContain('Repetidos no arquivo1');
    await page.waitForTimeout(700); // the bar's width transition
    await page.screenshot({ path: join(RESULTS, 'import-summary-1280.png') });

    // The import id is kept in localStorage: after closing the drawer and reloading, the summary comes back.
    await page
      .getByRole('dialog', { name: 'Importar contatos (CSV)' })
      .getByRole('button', { name: 'Fechar', exact: true })
      .click();
    await page.reload();
    await page.getByTestId('import-summary').waitFor();
    expect(await page.getByRole('progressbar', { name: 'Progresso da importação' }).getAttribute('aria-valuenow')).toBe(
      '100',
    );
    const rejected = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Baixar linhas rejeitadas (CSV)' }).click();
    const rejectedFile = await (await rejected).path();
    expect(readFileSync(rejectedFile, 'utf8')).toContain('nao-e-email');
    await page.getByRole('button', { name: 'Fechar resumo' }).click();
    await page.getByTestId('import-summary').waitFor({ state: 'detached' });

    // The list shows its contacts (first page of 50).
    await page.getByText('50 contatos exibidos').waitFor();
    await page.screenshot({ path: join(RESULTS, 'list-1280.png'), fullPage: true });
    await page.goto(`${suite.app.baseURL}/dashboard/contacts`);
    await page.getByLabel('Buscar por e-mail ou nome').fill('conceição');
    await page.getByRole('button', { name: 'conceicao@example.com' }).click();
    const drawer = page.getByRole('dialog', { name: 'conceicao@example.com' });
    await drawer.getByText('Conceição Souza').waitFor();
    expect(await drawer.getByText('Belém').count()).toBe(1);
    expect(await drawer.getByText('Cadastro na loja').count()).toBe(1);
    await page.screenshot({ path: join(RESULTS, 'contact-drawer-1280.png') });
    const lgpd = page.waitForEvent('download');
    await drawer.getByRole('button', { name: 'Exportar dados (JSON)' }).click();
    expect(readFileSync(await (await lgpd).path(), 'utf8')).toContain('conceicao@example.com');
    await drawer.getByRole('button', { name: 'Fechar' }).click();

    // CSV export of the filter, `;` for Excel.
    await page.getByLabel('Buscar por e-mail ou nome').fill('');
    // Keyset pagination: 50 per page, then "Carregar mais".
    await page.getByText('50 contatos exibidos').waitFor();
    await page.getByRole('button', { name: 'Carregar mais' }).click();
    await page.getByText('62 contatos exibidos').waitFor();
    expect(await page.getByRole('button', { name: 'Carregar mais' }).count()).toBe(0);
    await page.getByRole('button', { name: 'pessoa0@example.com' }).waitFor();
    const exported = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Exportar CSV' }).click();
    const csv = readFileSync(await (await exported).path(), 'utf8');
    expect(csv).toContain(';');
    expect(csv).toContain('João da Silva');
    await page.screenshot({ path: join(RESULTS, 'contacts-1280.png') });

    // Bulk unsubscribe through the confirmation dialog.
    await page.getByLabel('Selecionar pessoa0@example.com').check();
    await page.getByRole('button', { name: 'Descadastrar' }).click();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('1 contato descadastrado').waitFor();

    // The account's suppression list: add an address by hand, then the new-contact form refuses it.
    await page.getByRole('button', { name: 'Lista de supressão' }).click();
    const suppression = page.getByRole('dialog', { name: 'Lista de supressão' });
    await suppression
      .getByLabel('Adicionar endereços (um por linha, ou separados por vírgula)')
      .fill('Bloqueio@Example.com');
    await suppression.getByRole('button', { name: 'Adicionar à lista de supressão' }).click();
    await suppression.getByText('Adicionados: 1 · já estavam na lista: 0 · inválidos: 0.').waitFor();
    await suppression.getByLabel('Consultar um endereço').fill('bloqueio@example.com');
    await suppression.getByRole('button', { name: 'Consultar', exact: true }).click();
    await suppression.getByText(/bloqueio@example\.com está na lista de supressão \(Adicionados por você\)/).waitFor();
    await page.screenshot({ path: join(RESULTS, 'suppression-1280.png') });
    await suppression.getByRole('button', { name: 'Fechar', exact: true }).click();

    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: join(RESULTS, 'contacts-375.png'), fullPage: true });
    await page.goto(`${suite.app.baseURL}/dashboard/lists`);
    await page.getByRole('link', { name: 'Clientes da loja' }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'lists-375.png'), fullPage: true });

    // Deleting the list asks first; its contacts stay in the account.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Clientes da loja' }).click();
    await page.getByRole('heading', { name: 'Clientes da loja' }).waitFor();
    await page.getByRole('button', { name: 'Excluir', exact: true }).click();
    await page.getByRole('alertdialog', { name: 'Excluir esta lista?' }).waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.waitForURL((url) => url.pathname === '/dashboard/lists');
    await page.getByRole('link', { name: 'Feira de sábado' }).waitFor();
    expect(await page.getByRole('link', { name: 'Clientes da loja' }).count()).toBe(0);
    await page.goto(`${suite.app.baseURL}/dashboard/contacts`);
    await page.getByLabel('Buscar por e-mail ou nome').fill('joao');
    await page.getByRole('button', { name: 'joao@example.com' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
