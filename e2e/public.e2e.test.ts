import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from './support/app';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

describe.skipIf(!CHROMIUM_PATH)('public pages in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    [app, browser] = await Promise.all([startApp(), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  async function open(path: string, width = 1280, height = 800): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height }, locale: 'pt-BR' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${app.baseURL}${path}`, { waitUntil: 'networkidle' });
    expect(errors, 'erros de JavaScript na página').toEqual([]);
    return page;
  }

  it('loads the landing page in pt-BR', async () => {
    const page = await open('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('pt-BR');
    expect(await page.getByText('enviar e-mail não precisa ser um monstro').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Entrar' }).getAttribute('href')).toBe('/auth/login');
    expect(await page.getByRole('link', { name: 'Crie a sua conta já!' }).first().getAttribute('href')).toBe(
      '/auth/register',
    );
    expect(await page.getByRole('link', { name: 'Política de privacidade' }).getAttribute('href')).toBe(
      '/privacy-policy',
    );
    const year = String(new Date().getFullYear());
    expect(await page.locator('footer').textContent()).toContain(`© ${year}`);
    expect(await page.locator('footer a[href^="mailto:"]').count()).toBe(1);
    await page.context().close();
  });

  it('calculator shows R$ 5,00 for 1000 e-mails and rejects negatives', async () => {
    const page = await open('/');
    const input = page.getByTestId('calculator-input');
    const cost = page.getByTestId('calculator-cost');
    await input.fill('1000');
    expect((await cost.textContent())?.replace(/\u00a0/g, ' ')).toBe('R$ 5,00');
    await input.fill('3');
    expect((await cost.textContent())?.replace(/\u00a0/g, ' ')).toBe('R$ 0,015');
    await input.fill('');
    expect((await cost.textContent())?.replace(/\u00a0/g, ' ')).toBe('R$ 0,00');
    await input.fill('-5');
    expect(await cost.textContent()).not.toContain('NaN');
    expect(await page.getByRole('alert').textContent()).toContain('igual ou maior que zero');
    await page.context().close();
  });

  it('a deep link to /dashboard/campaigns/new serves the SPA and sends an anonymous visitor to login', async (ctx) => {
    const session = await fetch(`${app.baseURL}/api/session`);
    if (session.status === 404) {
      console.warn('[e2e] GET /api/session ainda não existe no servidor: teste do redirecionamento pulado.');
      ctx.skip();
    }
    expect(session.status).toBe(401);
    const response = await fetch(`${app.baseURL}/dashboard/campaigns/new`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root">');
    const page = await open('/dashboard/campaigns/new');
    await page.waitForURL((url) => url.pathname === '/auth/login', { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/campaigns/new');
    await page.getByRole('heading', { name: 'Entrar no Carteiro' }).waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Entrar no Carteiro' }).waitFor();
    await page.context().close();
  });

  it('/privacy-policy "Voltar" goes home', async () => {
    const page = await open('/privacy-policy');
    await page.getByRole('heading', { name: 'Política de privacidade', level: 1 }).waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    for (const phrase of [
      'descadastro em um clique',
      'portabilidade',
      'revogar o consentimento',
      'provedores de envio',
    ]) {
      expect(text).toContain(phrase);
    }
    await page.getByRole('link', { name: 'Voltar', exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  it('unknown routes show the pt-BR 404 page', async () => {
    const page = await open('/nao-existe');
    await page.getByRole('heading', { name: 'Página não encontrada' }).waitFor();
    await page.context().close();
  });

  it.each([
    [1280, 'landing-1280.png'],
    [375, 'landing-375.png'],
    [360, 'landing-360.png'],
  ])('landing at %i px has no horizontal overflow (screenshot %s)', async (width, file) => {
    const page = await open('/', width, 800);
    await page.getByTestId('calculator-input').waitFor();
    // "Preços" is in the top bar on large screens only.
    expect(await page.locator('header a[href="/#precos"]').isVisible()).toBe(width >= 640);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(RESULTS, file), fullPage: true });
    await page.context().close();
  });

  it.each([375, 360])('privacy policy at %i px has no horizontal overflow', async (width) => {
    const page = await open('/privacy-policy', width, 800);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(RESULTS, `privacy-${width}.png`), fullPage: true });
    await page.context().close();
  });
});
