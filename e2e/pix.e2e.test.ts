import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasError, parsePix } from 'pix-utils';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakePixPsp, startFakePixPsp } from '../server/test/support/fake-pix-psp';
import { type RunningApp, startApp } from './support/app';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';
import { newPage, register } from './support/journeys';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
const WEBHOOK_TOKEN = 'e2eTokenDoWebhookPix_0123456789abc';

describe.skipIf(!CHROMIUM_PATH)('Pix top-up that confirms itself (BCB Pix API fake) in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;
  let psp: FakePixPsp;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    psp = await startFakePixPsp({ merchantName: 'Carteiro', merchantCity: 'São Paulo' });
    [app, browser] = await Promise.all([
      startApp({
        PAYMENT_PROVIDER: 'pix-api',
        // The webhook is what this test exercises; the reconciliation would find the payment too, later.
        PAYMENT_RECONCILE_SECONDS: '3600',
        PIX_API_BASE_URL: psp.baseUrl,
        PIX_API_TOKEN_URL: psp.tokenUrl,
        PIX_API_CLIENT_ID: psp.clientId,
        PIX_API_CLIENT_SECRET: psp.clientSecret,
        PIX_API_CERT_FILE: psp.pki.clientCertFile,
        PIX_API_KEY_FILE: psp.pki.clientKeyFile,
        PIX_API_CA_FILE: psp.pki.caCertFile,
        PIX_API_WEBHOOK_TOKEN: WEBHOOK_TOKEN,
      }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await psp?.close();
  });

  it('shows QR, copia e cola and a countdown; the payer pays at the bank and the page turns to "Pago ✓" with the balance up, no reload', async () => {
    const page = await newPage(browser, app.baseURL);
    await register(page, {
      name: 'Paula Pix',
      email: `paula.${Date.now()}@exemplo.com.br`,
      password: 'senha-da-paula',
    });
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/my-balance');
    await page.getByTestId('balance').waitFor();
    await page.getByRole('button', { name: 'Adicionar créditos' }).click();
    await page.getByLabel('Valor').fill('20,00');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await page.waitForURL('**/dashboard/my-balance/topups/**');
    await page.getByRole('img', { name: 'QR code do Pix' }).waitFor();
    await page.getByText('Confirmação automática').waitFor();
    await expect
      .poll(() => page.getByTestId('topup-countdown').textContent())
      .toMatch(/^Expira em (59:[0-5]\d|1:00:00)$/);
    const brCode = await page.getByLabel('Pix copia e cola').inputValue();
    const parsed = parsePix(brCode);
    expect(hasError(parsed)).toBe(false);
    expect(parsed).toMatchObject({ type: 'DYNAMIC' });
    await page.screenshot({ path: join(RESULTS, 'pix-topup-dynamic-1280.png'), fullPage: true });

    // The payer pays the cob at their bank; the PSP calls our webhook.
    const txid = (await page.locator('dd.font-mono').first().textContent())?.trim() ?? '';
    const pix = psp.pay(txid);
    expect(await psp.deliver(`${app.baseURL}/api/webhooks/pix-api/${WEBHOOK_TOKEN}/pix`, psp.callback(pix))).toBe(200);

    await page.getByTestId('topup-paid').waitFor({ timeout: 15_000 });
    await page.getByText('Pago ✓').waitFor();
    await page.screenshot({ path: join(RESULTS, 'pix-topup-paid-1280.png'), fullPage: true });
    await page.getByRole('link', { name: 'Ver recibo' }).click();
    await page.getByRole('heading', { name: 'Recibo' }).waitFor();
    await page.getByText(pix.endToEndId).waitFor();
    await page.goBack();
    await page.getByRole('link', { name: 'Voltar para Meu saldo' }).last().click();
    await page.getByTestId('balance').filter({ hasText: 'R$\u00a020,00' }).waitFor();
    await page.context().close();
  });

  it('in development offers "Simular pagamento", which credits through the same path', async () => {
    const page = await newPage(browser, app.baseURL);
    await register(page, { name: 'Davi Dev', email: `davi.${Date.now()}@exemplo.com.br`, password: 'senha-do-davi' });
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/my-balance');
    await page.getByRole('button', { name: 'Adicionar créditos' }).click();
    await page.getByLabel('Valor').fill('15,00');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await page.waitForURL('**/dashboard/my-balance/topups/**');
    await page.getByRole('button', { name: 'Simular pagamento' }).click();
    await page.getByText('Pago ✓').waitFor();
    await page.getByRole('link', { name: 'Voltar para Meu saldo' }).last().click();
    await page.getByTestId('balance').filter({ hasText: 'R$\u00a015,00' }).waitFor();
    await page.context().close();
  });
});
