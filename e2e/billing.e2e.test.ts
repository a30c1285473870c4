import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from './support/app';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';
import { newPage, register } from './support/journeys';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
const OPERATOR = 'operacao@carteiro.test';

describe.skipIf(!CHROMIUM_PATH)('prepaid balance and Pix top-up in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    [app, browser] = await Promise.all([startApp({ ADMIN_EMAILS: OPERATOR }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it('top up by Pix → the operator confirms in /admin → balance and extrato update', async () => {
    const page = await newPage(browser, app.baseURL);
    await register(page, {
      name: 'Carla Dias',
      email: `carla.${Date.now()}@exemplo.com.br`,
      password: 'senha-da-carla',
    });
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/my-balance');
    await page.getByTestId('balance').waitFor();
    expect(await page.getByTestId('balance').textContent()).toBe('R$\u00a00,00');
    await page.getByText('Nenhum lançamento no período').waitFor();
    await page.getByRole('button', { name: 'Adicionar créditos' }).click();
    await page.getByLabel('Valor').fill('5,00');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await page.getByText('Mínimo de R$ 10,00').first().waitFor();
    await page.getByLabel('Valor').fill('50,00');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await page.waitForURL('**/dashboard/my-balance/topups/**');
    await page.getByRole('img', { name: 'QR code do Pix' }).waitFor();
    const brCode = await page.getByLabel('Pix copia e cola').inputValue();
    expect(brCode.startsWith('000201')).toBe(true);
    await page.screenshot({ path: join(RESULTS, 'balance-topup-pix-1280.png'), fullPage: true });

    // The operator confirms the payment by hand.
    const operator = await newPage(browser, app.baseURL);
    await register(operator, { name: 'Operação', email: OPERATOR, password: 'senha-do-operador' });
    await operator.waitForURL('**/dashboard');
    await operator.goto('/admin');
    await operator.getByRole('tab', { name: 'Recargas pendentes' }).click();
    await operator.getByRole('button', { name: 'Confirmar pagamento' }).first().click();
    await operator.getByRole('button', { name: 'Continuar' }).click();
    await operator.getByText('Pagamento confirmado e creditado').waitFor();
    await operator.getByRole('tab', { name: 'Contas' }).click();
    await operator.getByText('R$\u00a050,00').first().waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-accounts-1280.png'), fullPage: true });
    await operator.getByRole('tab', { name: 'Auditoria' }).click();
    await operator.getByText('topup', { exact: false }).first().waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-audit-1280.png'), fullPage: true });
    await operator.context().close();

    // The payer's page turns green by itself (polling every 3 s).
    await page.getByTestId('topup-paid').waitFor({ timeout: 15_000 });
    await page.getByText('Pagamento confirmado!').waitFor();
    await page.screenshot({ path: join(RESULTS, 'balance-topup-paid-1280.png') });
    await page.getByRole('link', { name: 'Voltar para Meu saldo' }).last().click();
    await page.getByTestId('balance').filter({ hasText: 'R$\u00a050,00' }).waitFor();
    await page.getByText('Paga 10.000 e-mails').waitFor();
    await page.getByText('+R$\u00a050,00').first().waitFor();
    await page.screenshot({ path: join(RESULTS, 'balance-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.screenshot({ path: join(RESULTS, 'balance-375.png'), fullPage: true });

    // Receipt
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Recibo' }).first().click();
    await page.getByRole('heading', { name: 'Recibo' }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'balance-receipt-1280.png'), fullPage: true });

    // A non-operator gets the 403 page.
    await page.goto('/admin');
    await page.getByText('Acesso restrito (403)').waitFor();
    await page.context().close();
  });
});
