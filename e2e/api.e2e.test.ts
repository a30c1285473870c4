import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from './support/app';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';
import { linkIn, waitForMail } from './support/journeys';
import { signUpAndOpen } from './support/session';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

describe.skipIf(!CHROMIUM_PATH)('the API page and the public API in Chromium', () => {
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

  it('creates a key shown once, copies it, calls the API with it, reads the offline docs and revokes it', async () => {
    const { context, page, email } = await signUpAndOpen(browser, app.baseURL, { name: 'Olívia Integra' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseURL });
    const verification = await waitForMail(app.baseURL, email, /confirm/i);
    // Following the link confirms the address (creating keys needs a confirmed e-mail, like sending does).
    await page.goto(linkIn(verification, app.baseURL, 'verify-email'));
    await page.waitForLoadState('load');

    // Every request the pages make stays on our own server (no CDN, no fonts, no telemetry).
    const foreign: string[] = [];
    page.on('request', (request) => {
      const url = request.url();
      if (!url.startsWith(app.baseURL) && !url.startsWith('data:') && !url.startsWith('blob:')) foreign.push(url);
    });

    await page.goto(`${app.baseURL}/dashboard/api`);
    await page.getByRole('heading', { level: 1, name: 'API' }).waitFor();
    await page.getByText('Nenhuma chave ainda').waitFor();
    await page.getByRole('button', { name: 'Nova chave' }).click();
    await page.getByRole('button', { name: 'Criar chave' }).click();
    await page.getByText('Informe um nome para a chave.').waitFor();
    await page.getByLabel('Nome').fill('Loja virtual');
    await page.getByRole('button', { name: 'Criar chave' }).click();
    const secret = (await page.getByTestId('api-key-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^ct_live_[A-Za-z0-9_-]{43}$/);
    await page.getByTestId('api-key-copy').click();
    await page.getByText('Copiado para a área de transferência').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    const quickStart = (await page.getByTestId('api-quick-start').textContent()) ?? '';
    expect(quickStart).toContain(`Authorization: Bearer ${secret}`);
    expect(quickStart).toContain(`${app.baseURL}/api/v1/messages`);
    await page.getByRole('cell', { name: `${secret.slice(0, 12)}…` }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'api-page-key-created-1280.png'), fullPage: true });

    // Shown once: after a reload only the prefix remains.
    await page.reload();
    await page.getByRole('cell', { name: `${secret.slice(0, 12)}…` }).waitFor();
    expect(await page.content()).not.toContain(secret.slice(12));

    // The key works from a server-to-server call.
    const contact = await fetch(`${app.baseURL}/api/v1/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/json', 'idempotency-key': 'e2e-1' },
      body: JSON.stringify({ email: 'cliente@example.com', name: 'Cliente da loja' }),
    });
    expect(contact.status).toBe(201);
    expect(contact.headers.get('ratelimit-limit')).toBeTruthy();

    // The interactive documentation, served by our own server.
    await page.getByRole('link', { name: 'Abrir a documentação' }).click();
    await page.waitForURL('**/dashboard/api/docs');
    await page.getByText('Criar ou atualizar contato pelo e-mail').first().waitFor({ timeout: 30_000 });
    await page.getByText('Campanhas').first().waitFor();
    await page.screenshot({ path: join(RESULTS, 'api-docs-1280.png') });

    // Revoke with confirmation: the key is refused at once.
    await page.goto(`${app.baseURL}/dashboard/api`);
    await page.getByRole('button', { name: 'Revogar' }).click();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('Chave revogada').first().waitFor();
    const refused = await fetch(`${app.baseURL}/api/v1/contacts`, { headers: { authorization: `Bearer ${secret}` } });
    expect(refused.status).toBe(401);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toContain('Chave de API');
    expect(foreign).toEqual([]);
    await context.close();
  }, 120_000);
});
