import { execFile } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatBRL } from '../shared/src/pricing';
import { type RunningApp, startApp } from './support/app';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';
import { confirmSenderAddress, linkIn, waitForMail } from './support/journeys';
import { signUpAndOpen } from './support/session';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

/** `curl` on PATH, if any: the copied quick-start line is then run exactly as a user would paste it. */
const CURL = ['/usr/bin/curl', '/usr/local/bin/curl', '/bin/curl'].some((path) => existsSync(path));

/**
 * Runs the quick-start line copied from the page: with the shell and curl when installed, else by parsing it
 * (URL, -H headers, the single-quoted -d body) and replaying it with fetch. Answers the HTTP status and JSON body.
 */
async function runQuickStart(line: string): Promise<{ status: number; json: unknown }> {
  if (CURL) {
    const stdout = await new Promise<string>((done, fail) => {
      // -w appends the status on its own line after the body; -s hides the progress meter.
      execFile('/bin/sh', ['-c', `${line} -s -w '\n%{http_code}'`], { timeout: 30_000 }, (error, out) =>
        error ? fail(error) : done(out),
      );
    });
    const cut = stdout.lastIndexOf('\n');
    return { status: Number(stdout.slice(cut + 1)), json: JSON.parse(stdout.slice(0, cut)) };
  }
  const url = /curl -X POST (\S+)/.exec(line)?.[1] ?? '';
  const headers = Object.fromEntries(
    [...line.matchAll(/-H "([^:]+): ([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]),
  );
  const body = (/ -d '(.*)'$/s.exec(line)?.[1] ?? '').replaceAll("'\\''", "'");
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, json: await response.json() };
}

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
    // No sender confirmed yet: the quick start says so instead of showing a command the API would refuse (403).
    await page.getByTestId('api-quick-start-no-sender').waitFor();
    expect(await page.getByTestId('api-quick-start').count()).toBe(0);
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
      body: JSON.stringify({ email: 'cliente@example.com', name: 'Cliente da loja', legalBasis: 'consent' }),
    });
    expect(contact.status).toBe(201);
    expect(contact.headers.get('ratelimit-limit')).toBeTruthy();

    // The interactive documentation, served by our own server.
    await page.getByRole('link', { name: 'Abrir a documentação' }).click();
    await page.waitForURL('**/dashboard/api/docs');
    // The first tag (Mensagens, the quick start's operation) opens expanded; the others on a click in its menu.
    await page.getByText('Enviar mensagem transacional').first().waitFor({ timeout: 30_000 });
    await page.locator('main').getByText('Contatos', { exact: true }).first().click();
    await page.getByText('Criar ou atualizar contato pelo e-mail').first().waitFor();
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

  it('quick start: no verified sender → a note; with credit and a confirmed sender, the copied command sends and is charged', async () => {
    const { context, page, email } = await signUpAndOpen(browser, app.baseURL, { name: 'Caio Primeiro' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseURL });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const verification = await waitForMail(app.baseURL, email, /confirm/i);
    await page.goto(linkIn(verification, app.baseURL, 'verify-email'));
    await page.waitForLoadState('load');

    // 1. A new account has no verified sender (issue 14): no command that would fail with 403, but a note.
    await page.goto(`${app.baseURL}/dashboard/api`);
    const note = page.getByTestId('api-quick-start-no-sender');
    await note.waitFor();
    expect(await page.getByTestId('api-quick-start').count()).toBe(0);
    await page.screenshot({ path: join(RESULTS, 'api-quick-start-no-sender-1280.png'), fullPage: true });
    await note.getByRole('link', { name: 'Ir para Configurações → Remetentes e domínios' }).click();
    await page.getByRole('tab', { name: 'Remetentes e domínios', selected: true }).waitFor();

    // 2. Credit: R$ 15,00 through the top-up page's development "Simular pagamento" (the same ledger path).
    await page.goto(`${app.baseURL}/dashboard/my-balance`);
    await page.getByRole('button', { name: 'Adicionar créditos' }).click();
    await page.getByLabel('Valor').fill('15,00');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await page.waitForURL('**/dashboard/my-balance/topups/**');
    await page.getByRole('button', { name: 'Simular pagamento' }).click();
    await page.getByText('Pago ✓').waitFor();

    // 3. The login address confirmed as a sender, the way a user does it.
    await confirmSenderAddress(page, app.baseURL, email);

    // 4. A key created on the API page; the quick start now carries it and sends from the confirmed address.
    await page.goto(`${app.baseURL}/dashboard/api`);
    await page.getByRole('button', { name: 'Nova chave' }).click();
    await page.getByLabel('Nome').fill('Primeiro envio');
    await page.getByRole('button', { name: 'Criar chave' }).click();
    const secret = (await page.getByTestId('api-key-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^ct_live_/);
    await page.getByTestId('api-key-copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await page.getByTestId('api-quick-start-from').textContent()).toContain(`Remetente: ${email}`);
    expect(await page.getByTestId('api-quick-start-no-balance').count()).toBe(0);
    await page.getByTestId('api-quick-start-copy').click();
    const line = await page.evaluate(() => navigator.clipboard.readText());
    expect(line).toBe(await page.getByTestId('api-quick-start').textContent());
    expect(line).toContain(`Authorization: Bearer ${secret}`);
    await page.screenshot({ path: join(RESULTS, 'api-quick-start-ready-1280.png'), fullPage: true });

    // 5. The copied line, run as pasted in a terminal: accepted, charged, the balance left in the answer.
    const sent = await runQuickStart(line);
    expect(sent.status).toBe(201);
    const result = sent.json as { messages: { id: string }[]; costMillis: number; balanceMillis: number };
    expect(result.messages).toHaveLength(1);
    expect(result.costMillis).toBeGreaterThan(0);
    expect(result.balanceMillis).toBe(15_000 - result.costMillis);

    // 6. The message in the built-in mail catcher, from the confirmed sender to the user.
    const mail = await waitForMail(app.baseURL, email, /Meu primeiro e-mail pela API do Carteiro/);
    expect(mail.html).toContain('Este e-mail foi enviado pela API do Carteiro.');

    // 7. The debit on "Meu saldo": the statement line and the new balance.
    await page.goto(`${app.baseURL}/dashboard/my-balance`);
    await page.getByText('Envio transacional: 1 e-mail', { exact: false }).waitFor();
    await page
      .getByTestId('balance')
      .filter({ hasText: formatBRL(result.balanceMillis) })
      .waitFor();
    await page.screenshot({ path: join(RESULTS, 'api-quick-start-balance-1280.png'), fullPage: true });
    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
