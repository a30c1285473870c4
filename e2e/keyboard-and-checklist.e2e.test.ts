import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { pageApi } from './support/page-api';
import { signUpAndOpen } from './support/session';
import { useAppAndBrowser } from './support/suite';

/** Presses Tab (or Shift+Tab) until the focused element matches `accept`, at most `limit` times. */
async function tabTo(
  page: Page,
  accept: (info: { text: string; label: string; tag: string }) => boolean,
  key: 'Tab' | 'Shift+Tab' = 'Tab',
  limit = 80,
) {
  for (let presses = 1; presses <= limit; presses++) {
    await page.keyboard.press(key);
    const info = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return {
        text: el?.innerText?.trim() ?? '',
        label: el?.getAttribute('aria-label') ?? '',
        tag: el?.tagName ?? '',
      };
    });
    if (accept(info)) return presses;
  }
  throw new Error('o elemento não foi alcançado pelo teclado');
}

describe.skipIf(!CHROMIUM_PATH)('keyboard only, and the send checklist, in Chromium', () => {
  const suite = useAppAndBrowser();

  it('"Enviar agora" is blocked for an unverified sender, with the reason and where to fix it', async () => {
    const { page } = await signUpAndOpen(suite.browser, suite.app.baseURL, { verified: true });
    const list = await pageApi<{ id: string }>(page, '/api/lists', { name: 'Clientes' });
    await pageApi(page, '/api/contacts', {
      email: 'ana@example.com',
      name: 'Ana',
      listIds: [list.id],
      legalBasis: 'consent',
      consentSource: 'e2e',
    });
    const campaign = await pageApi<{ id: string }>(page, '/api/campaigns', {
      uuid: crypto.randomUUID(),
      name: 'Promoção',
      subject: 'Oferta da semana',
      fromName: 'Loja',
      fromEmail: 'vendas@loja-nao-verificada.com.br',
      includeListIds: [list.id],
      template: '<p>Oi</p><a href="{{ link_descadastro }}">Sair</a>',
    });
    await page.goto(`${suite.app.baseURL}/dashboard/campaigns/${campaign.id}/view`);
    const checklist = page.getByTestId('send-checklist');
    await checklist.getByText('vendas@loja-nao-verificada.com.br não está verificado', { exact: false }).waitFor();
    expect(await checklist.innerText()).not.toContain('Tudo pronto');
    // By keyboard: the skip link first, then "Enviar agora" past the campaign page's own links only (the menu is skipped).
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pular para o conteúdo');
    await page.keyboard.press('Enter');
    const presses = await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'Enviar agora');
    expect(presses).toBeLessThanOrEqual(20);
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('não está verificado', { exact: false }).waitFor();
    expect(await dialog.getByRole('button', { name: 'Continuar' }).count()).toBe(0);
    expect(await dialog.getByRole('link', { name: 'Verificar o remetente' }).getAttribute('href')).toBe(
      '/dashboard/settings?aba=remetentes',
    );
    // The server says the same, with the same words.
    const refused = await page.evaluate(async (id) => {
      const response = await fetch(`/api/campaigns/${id}/send`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{}',
      });
      return { status: response.status, body: await response.json() };
    }, campaign.id);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('sender_not_verified');
    expect(refused.body.error.details.check).toBe('sender');
  });

  it('with the keyboard alone: skip link, add a block, edit its text, insert a field, save', async () => {
    const { page } = await signUpAndOpen(suite.browser, suite.app.baseURL);
    const template = await pageApi<{ id: string }>(page, '/api/templates', {
      name: 'Teclado',
      html: '<p>Oi</p><a href="{{ link_descadastro }}">Sair</a>',
    });
    await page.goto(`${suite.app.baseURL}/dashboard/templates/${template.id}`);
    await page.locator('[data-testid="visual-builder"][data-ready]').waitFor({ timeout: 30_000 });
    // The first Tab stop is the skip link; it lands on the page's content, past the menu.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Pular para o conteúdo');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('conteudo');
    // Blocks are buttons: Tab to "Texto", Enter inserts it and selects it.
    await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'Texto');
    await page.keyboard.press('Enter');
    const canvas = page.frameLocator('.gjs-frame');
    await canvas.getByText('Escreva aqui o que você quer contar', { exact: false }).waitFor();
    // "Bloco selecionado" → "Editar texto" puts the caret at the end of the text, in the canvas.
    await tabTo(page, (f) => f.text === 'Bloco selecionado');
    await page.keyboard.press('Enter');
    await tabTo(page, (f) => f.text === 'Editar texto');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('IFRAME');
    // The frame having the focus is not enough: keys typed before the text editor is on and the caret is at the end
    // of the text are lost or land elsewhere.
    await page.locator('[data-testid="visual-builder"][data-text-caret-ready]').waitFor();
    await expect
      .poll(() =>
        page.evaluate(
          () =>
            (
              document.querySelector<HTMLIFrameElement>('.gjs-frame')?.contentDocument
                ?.activeElement as HTMLElement | null
            )?.isContentEditable,
        ),
      )
      .toBe(true);
    await page.keyboard.type(' Obrigado,');
    await canvas.getByText('Obrigado,', { exact: false }).waitFor();
    // Shift+Tab back to "Inserir campo…"; the arrow key chooses its first field, "Nome do contato".
    await tabTo(page, (f) => f.label === 'Inserir campo', 'Shift+Tab');
    await page.keyboard.press('ArrowDown');
    await canvas.getByText('Obrigado,', { exact: false }).locator('[data-liquid]').waitFor();
    await tabTo(page, (f) => f.tag === 'BUTTON' && f.text === 'Salvar');
    await page.keyboard.press('Enter');
    await page.getByText('Modelo salvo').waitFor();
    const saved = await pageApi<{ html: string }>(page, `/api/templates/${template.id}`);
    expect(saved.html).toContain('contar aos seus clientes. Obrigado,{{ contato.nome | default: "cliente" }}');
  });
});
