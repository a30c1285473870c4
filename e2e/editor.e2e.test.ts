import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { englishWords, readableTexts } from './support/english';
import { pageApi } from './support/page-api';
import { signUpAndOpen } from './support/session';
import { RESULTS, useAppAndBrowser } from './support/suite';

/** The blocks the panel offers, by `data-block` id (web email-blocks.ts). */
const BLOCK_IDS = [
  'titulo',
  'texto',
  'titulo-texto',
  'botao',
  'imagem',
  'coluna-1',
  'colunas-2',
  'colunas-3',
  'produtos',
  'lista',
  'citacao',
  'link',
  'divisor',
  'espaco',
  'rodape',
];

/** Opens a new template made from the blank starter in the visual editor; answers its id. */
async function openBlankTemplate(page: Page, baseURL: string): Promise<string> {
  await page.goto(`${baseURL}/dashboard/templates`);
  await page.getByRole('button', { name: 'Novo modelo' }).click();
  await page.getByRole('button', { name: 'Usar este' }).first().click();
  await page.locator('[data-testid="visual-builder"][data-ready]').waitFor({ timeout: 30_000 });
  await page.frameLocator('.gjs-frame').getByText('Olá,', { exact: false }).first().waitFor({ timeout: 30_000 });
  return page.url().split('/').at(-1) as string;
}

/** The editor's canvas document (GrapesJS's iframe). */
async function canvasFrame(page: Page): Promise<Frame> {
  const frame = await (await page.locator('.gjs-frame').elementHandle())?.contentFrame();
  if (!frame) throw new Error('o quadro do editor não carregou');
  return frame;
}

/**
 * Drags a block tile with the mouse, in small steps as a hand moves (native drag and drop), and drops it just
 * under the greeting of the blank template.
 */
async function dragBlock(page: Page, id: string) {
  const tile = page.locator(`[data-block="${id}"]`);
  await tile.scrollIntoViewIfNeeded();
  const greeting = page.frameLocator('.gjs-frame').getByText('Olá,', { exact: false }).first();
  await greeting.scrollIntoViewIfNeeded();
  const from = await tile.boundingBox();
  const to = await greeting.boundingBox();
  if (!from || !to) throw new Error('bloco ou destino fora da tela');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(to.x + 100, to.y + to.height - 4, { steps: 10 });
  await page.waitForTimeout(150);
  await page.mouse.move(to.x + 102, to.y + to.height - 3, { steps: 2 });
  await page.waitForTimeout(150);
  await page.mouse.up();
}

describe.skipIf(!CHROMIUM_PATH)('the visual editor in Chromium', () => {
  const suite = useAppAndBrowser();

  it('inserts every block in pt-BR with local pictures, shows the real footer, and speaks no English', async () => {
    const { page } = await signUpAndOpen(suite.browser, suite.app.baseURL, { name: 'Ana Teste' });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    const failed: string[] = [];
    // A navigation cancels the previous page's requests (ERR_ABORTED); anything else failing is a broken asset.
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') failed.push(request.url());
    });
    const templateId = await openBlankTemplate(page, suite.app.baseURL);
    const canvas = page.frameLocator('.gjs-frame');

    // The footer is one locked block with the account's real identity, CNPJ formatted; no Liquid on screen.
    const footer = canvas.locator('[data-carteiro-bloco="rodape"]');
    await footer.waitFor();
    const footerText = await footer.innerText();
    expect(footerText).toContain('Padaria Pão Quente Ltda');
    expect(footerText).toContain('CNPJ 11.222.333/0001-81');
    expect(footerText).toContain('Rua das Flores, 100');
    expect(footerText).toContain('Descadastrar');
    const frame = await canvasFrame(page);
    expect(await frame.evaluate(() => document.body.innerText)).not.toMatch(/\{\{|\{%/);
    expect(await page.locator('.gjs-frame').getAttribute('title')).toBe('Área de edição do e-mail');

    // Every block by drag and drop into the canvas, then by click (the keyboard's way: Enter on the tile).
    const tiles = page.locator('[data-block]');
    expect(await tiles.evaluateAll((els) => els.map((e) => e.getAttribute('data-block')))).toEqual(BLOCK_IDS);
    for (const id of BLOCK_IDS.filter((id) => id !== 'rodape')) {
      const before = await frame.evaluate(() => document.body.querySelectorAll('*').length);
      await dragBlock(page, id);
      await expect
        .poll(() => frame.evaluate(() => document.body.querySelectorAll('*').length), { timeout: 10_000 })
        .toBeGreaterThan(before);
    }
    for (const id of BLOCK_IDS) {
      if (id === 'rodape') continue;
      await page.locator(`[data-block="${id}"]`).click();
    }
    // The footer block is there once: asking for a second one selects it.
    await page.locator('[data-block="rodape"]').click();
    expect(await canvas.locator('[data-carteiro-bloco="rodape"]').count()).toBe(1);
    await page.screenshot({ path: join(RESULTS, 'editor-blocks-1280.png') });

    const canvasTexts = await readableTexts(frame, 'body');
    const uiTexts = [
      ...(await readableTexts(page, '[data-testid="visual-builder"]')),
      ...(await readableTexts(page, 'main')),
    ];
    expect(englishWords(canvasTexts)).toEqual([]);
    expect(englishWords(uiTexts)).toEqual([]);
    expect(canvasTexts.join(' ')).toContain('Ver ofertas');
    // Only the app's own host: placeholders are served by Carteiro, no CDN, no telemetry.
    const origin = new URL(suite.app.baseURL).origin;
    const foreign = requested.filter((url) => !/^(data|about|blob):/.test(url) && new URL(url).origin !== origin);
    expect(foreign).toEqual([]);
    expect(requested.some((url) => url.endsWith('/email/imagem-600x300.png'))).toBe(true);
    expect(failed).toEqual([]);
    const images = await frame.evaluate(() =>
      Array.from(document.images).map((img) => ({ src: img.src, loaded: img.complete && img.naturalWidth > 0 })),
    );
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((img) => !img.loaded)).toEqual([]);

    // The button is a bulletproof e-mail button: a coloured table cell around a styled link.
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Modelo salvo').waitFor();
    const saved = await pageApi<{ html: string }>(page, `/api/templates/${templateId}`);
    expect(saved.html).toMatch(/<td[^>]*bgcolor="#6d28d9"[^>]*>\s*<a [^>]*style="[^"]*display:\s*inline-block/);
    expect(saved.html).toContain('{{ link_descadastro }}');
    expect(saved.html).toContain('{{ conta.razao_social }}');
    expect(saved.html).not.toContain('via.placeholder.com');
    expect(saved.html).not.toMatch(/Lorem|Insert your text/);
  });

  it('inserts a field at the caret as a chip, and the saved HTML holds the Liquid exactly there', async () => {
    const { page } = await signUpAndOpen(suite.browser, suite.app.baseURL);
    const templateId = await openBlankTemplate(page, suite.app.baseURL);
    const canvas = page.frameLocator('.gjs-frame');
    await page.locator('[data-block="texto"]').click();
    await page.getByRole('tab', { name: 'Bloco selecionado' }).click();
    await page.getByRole('button', { name: 'Editar texto' }).click();
    const paragraph = canvas.getByText('Escreva aqui o que você quer contar', { exact: false });
    await paragraph.waitFor();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('Bom dia, tudo bem?');
    // Caret back to just after "Bom dia, ", then the field, then keep typing.
    for (let i = 0; i < 'tudo bem?'.length; i++) await page.keyboard.press('ArrowLeft');
    const frame = await canvasFrame(page);
    await expect
      .poll(() =>
        frame.evaluate(() =>
          document.getSelection()?.focusNode?.textContent?.slice(document.getSelection()?.focusOffset ?? 0),
        ),
      )
      .toBe('tudo bem?');
    await page.getByLabel('Inserir campo').selectOption({ label: 'Nome do contato' });
    await page.keyboard.type('! Como vai, ');
    const chip = canvas.getByText('Bom dia,', { exact: false }).locator('[data-liquid]');
    expect(await chip.innerText()).toBe('Nome do contato');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Modelo salvo').waitFor();
    const saved = await pageApi<{ html: string }>(page, `/api/templates/${templateId}`);
    expect(saved.html).toContain('Bom dia, {{ contato.nome | default: "cliente" }}! Como vai, tudo bem?');

    // Reopened: the chip again, never the raw tag.
    await page.reload();
    await canvas.locator('[data-liquid]').first().waitFor({ timeout: 30_000 });
    const reopened = await canvasFrame(page);
    expect(await reopened.evaluate(() => document.body.innerText)).not.toContain('{{');
  });
});
