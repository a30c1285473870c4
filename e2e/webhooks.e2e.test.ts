import { mkdirSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from './support/app';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';
import { newPage, register } from './support/journeys';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

describe.skipIf(!CHROMIUM_PATH)('outbound webhooks on the API page in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;
  let receiver: http.Server;
  const received: Array<{ headers: Record<string, string>; body: string }> = [];

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString() });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('recebido');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    [app, browser] = await Promise.all([
      // The development setting lets the endpoint live on 127.0.0.1 (never honoured in production).
      startApp({ WEBHOOKS_ALLOW_PRIVATE_URLS: 'true', WEBHOOKS_DISPATCH_MS: '200' }),
      launchBrowser(),
    ]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await new Promise<void>((r) => receiver.close(() => r()));
  });

  it('add an endpoint, send a test event, see it delivered in the log, signature verifies', async () => {
    const page = await newPage(browser, app.baseURL);
    await register(page, { name: 'Davi Lima', email: `davi.${Date.now()}@exemplo.com.br`, password: 'senha-do-davi' });
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/api');
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByText('Nenhum endpoint cadastrado.').waitFor();

    await page.getByRole('button', { name: 'Adicionar endpoint' }).click();
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/carteiro`;
    await page.getByLabel('URL do endpoint').fill(url);
    await page.getByLabel('Descrição (opcional)').fill('Loja virtual');
    await page.getByLabel('Campanha concluída').check();
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Endpoint salvo.').first().waitFor();
    const card = page.getByTestId('webhook-endpoint');
    await card.getByText(url).waitFor();
    await card.getByText('campaign.finished').waitFor();

    await card.getByRole('button', { name: 'Mostrar segredo' }).click();
    const secret = (await card.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);

    await card.getByRole('button', { name: 'Enviar evento de teste' }).click();
    const log = card.getByTestId('webhook-delivery-log');
    const rows = log.locator('tbody');
    await rows.getByText('Evento de teste', { exact: true }).waitFor();
    await rows.getByText('Entregue', { exact: true }).waitFor({ timeout: 20_000 });
    await rows.getByText('recebido', { exact: true }).waitFor();
    await rows.getByText('200', { exact: true }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'webhooks-api-page-1280.png'), fullPage: true });

    expect(received).toHaveLength(1);
    const event = new Webhook(secret).verify(received[0]?.body ?? '', received[0]?.headers ?? {}) as { type: string };
    expect(event.type).toBe('webhook.test');

    // Filter: nothing failed.
    await log.getByLabel('Situação').selectOption('failed');
    await log.getByText('Nenhuma entrega ainda.').waitFor();
  });
});
