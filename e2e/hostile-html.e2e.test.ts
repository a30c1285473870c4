import type { Frame, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { pageApi } from './support/page-api';
import { signUpAndOpen } from './support/session';
import { useAppAndBrowser } from './support/suite';

/**
 * A template an attacker (or a pasted newsletter) could bring: every way HTML runs code. Each payload, if it ever
 * runs, leaves a trace three ways — a flag on the top window (same-origin frames), a request to `/hostil/<kind>`
 * (sandboxed frames can still fetch) and a dialog.
 */
function trap(kind: string): string {
  return `try{top.__hostil=(top.__hostil||[]).concat('${kind}')}catch(e){};fetch('/hostil/${kind}');alert('${kind}')`;
}
const HOSTILE_HTML = `<!doctype html><html><head><title>Oferta</title>
<script>${trap('head-script')}</script></head><body>
<p id="saudacao">Olá, {{ contato.nome | default: "cliente" }}!</p>
<script>${trap('script')}</script>
<img src="/logo-inexistente.png" alt="logo" onerror="${trap('img-onerror')}">
<p onclick="${trap('onclick')}" onmouseover="${trap('onmouseover')}">Passe o mouse aqui</p>
<a id="link-js" href="javascript:${trap('href')}">Ver oferta</a>
<a id="link-js-caixa" href="JavaScript:${trap('href-case')}">Outra oferta</a>
<a id="link-js-espaco" href="  javascript:${trap('href-space')}">Mais uma oferta</a>
<iframe srcdoc="<script>${trap('srcdoc')}</script>"></iframe>
<svg width="20" height="20" onload="${trap('svg-onload')}"><rect width="20" height="20" fill="#0a0"/></svg>
<body onload="${trap('body-onload')}"></body>
</body></html>`;

/** What the page saw of the payloads: flags in every same-origin frame, requests, dialogs. */
function watch(page: Page) {
  const requests: string[] = [];
  const dialogs: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/hostil/')) requests.push(request.url());
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  return {
    requests,
    dialogs,
    flags: () => page.evaluate(() => (window as unknown as { __hostil?: string[] }).__hostil ?? []),
  };
}

/**
 * What the builder drops (threat model, "Template HTML in a same-origin canvas"): GrapesJS's parser removes script
 * elements, on* handlers and lower-case `javascript:` values; our sanitiser (sanitize-builder-html.ts, before the
 * parser and on save) also removes mixed-case or space-led `javascript:` URLs, frames and `srcdoc`.
 */
const DROPPED_BY_THE_BUILDER = {
  script: /<script\b/i,
  handler: /<[^>]*\son[a-z]+\s*=/i,
  javascriptUrl: /=\s*"\s*javascript:/i,
  frame: /<iframe\b/i,
  srcdoc: /\ssrcdoc\s*=/i,
};
function unsafeIn(html: string): string[] {
  return Object.entries(DROPPED_BY_THE_BUILDER)
    .filter(([, pattern]) => pattern.test(html))
    .map(([name]) => name);
}

async function canvasFrame(page: Page): Promise<Frame> {
  const frame = await (await page.locator('.gjs-frame').elementHandle())?.contentFrame();
  if (!frame) throw new Error('o quadro do editor não carregou');
  return frame;
}

describe.skipIf(!CHROMIUM_PATH)('hostile template HTML in the visual builder and the previews (Chromium)', () => {
  const suite = useAppAndBrowser();

  it('runs none of it in the editor canvas or the previews, and saves none of it', async () => {
    const { page } = await signUpAndOpen(suite.browser, suite.app.baseURL, { name: 'Ana Teste' });
    const seen = watch(page);
    // The watch sees a trap that does run (its three actions done by hand in the page), then starts empty.
    await page.evaluate(() => {
      const top = window as unknown as { __hostil?: string[] };
      top.__hostil = (top.__hostil ?? []).concat('prova');
      void fetch('/hostil/prova');
      alert('prova');
    });
    await expect.poll(() => seen.requests.length).toBe(1);
    expect(await seen.flags()).toEqual(['prova']);
    expect(seen.dialogs).toEqual(['prova']);
    await page.evaluate(() => {
      delete (window as unknown as { __hostil?: string[] }).__hostil;
    });
    seen.requests.length = 0;
    seen.dialogs.length = 0;
    const template = await pageApi<{ id: string }>(page, '/api/templates', {
      name: 'Modelo hostil',
      html: HOSTILE_HTML,
    });

    // The visual builder parses it into its same-origin canvas.
    await page.goto(`${suite.app.baseURL}/dashboard/templates/${template.id}`);
    await page.locator('[data-testid="visual-builder"][data-ready]').waitFor({ timeout: 30_000 });
    const canvas = page.frameLocator('.gjs-frame');
    await canvas.getByText('Passe o mouse aqui').waitFor({ timeout: 30_000 });
    // Touch what a user touches: hover and click the handler's paragraph, click the link.
    await canvas.getByText('Passe o mouse aqui').hover();
    await canvas.getByText('Passe o mouse aqui').click();
    for (const link of ['#link-js', '#link-js-caixa', '#link-js-espaco']) await canvas.locator(link).click();
    await page.waitForTimeout(1_000);
    expect(await seen.flags()).toEqual([]);
    expect(seen.dialogs).toEqual([]);
    expect(seen.requests).toEqual([]);
    const frame = await canvasFrame(page);
    const canvasHtml = await frame.evaluate(() => document.documentElement.outerHTML);
    // GrapesJS's own canvas scripts live in the editor's page, never in the canvas document.
    expect(unsafeIn(canvasHtml)).toEqual([]);

    // Saved from the builder: the content kept, without a single executable piece.
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Modelo salvo').first().waitFor();
    const saved = await pageApi<{ html: string }>(page, `/api/templates/${template.id}`);
    expect(unsafeIn(saved.html)).toEqual([]);
    expect(saved.html).toContain('Passe o mouse aqui');
    expect(saved.html).toContain('Ver oferta');

    // The previews render the server's HTML in a sandboxed frame (no scripts, opaque origin), at both widths.
    await page.getByRole('tab', { name: 'Pré-visualizar' }).click();
    const preview = page.locator('iframe[sandbox=""]');
    await preview.waitFor();
    await page.frameLocator('iframe[sandbox=""]').getByText('Passe o mouse aqui').waitFor();
    for (const device of ['Celular (375 px)', 'Computador (600 px)']) {
      await page.getByRole('button', { name: device }).click();
      await page.frameLocator('iframe[sandbox=""]').getByText('Passe o mouse aqui').hover();
      await page.frameLocator('iframe[sandbox=""]').getByText('Passe o mouse aqui').click();
    }
    expect(await preview.getAttribute('sandbox')).toBe('');

    // The original (unsanitised) HTML in a sandboxed preview still runs nothing: switch to code mode, paste it back.
    await page.getByRole('tab', { name: 'Código HTML' }).click();
    await page.getByRole('textbox', { name: 'HTML do modelo' }).fill(HOSTILE_HTML);
    await page.getByRole('tab', { name: 'Pré-visualizar' }).click();
    await page.frameLocator('iframe[sandbox=""]').getByText('Passe o mouse aqui').waitFor();
    await page.frameLocator('iframe[sandbox=""]').locator('#link-js').click();

    // Back to the visual builder with the raw HTML: parsed again, still inert.
    await page.getByRole('tab', { name: 'Visual', exact: true }).click();
    await page.locator('[data-testid="visual-builder"][data-ready]').waitFor({ timeout: 30_000 });
    await canvas.getByText('Passe o mouse aqui').waitFor({ timeout: 30_000 });
    await canvas.getByText('Passe o mouse aqui').hover();
    expect(unsafeIn(await (await canvasFrame(page)).evaluate(() => document.documentElement.outerHTML))).toEqual([]);

    // Give any deferred payload (an image error, a frame load) time to fire before the verdict.
    await page.waitForTimeout(1_000);
    expect(await seen.flags()).toEqual([]);
    expect(seen.dialogs).toEqual([]);
    expect(seen.requests).toEqual([]);
  }, 180_000);
});
