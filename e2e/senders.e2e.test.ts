import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDnsServer, type TestDnsServer } from '../server/test/support/dns-server';
import { type RunningApp, startApp } from './support/app';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';
import { signUpAndOpen } from './support/session';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');

/** A same-origin JSON call from the page (the session cookie goes along). */
async function api<T>(page: Page, path: string, body?: unknown): Promise<{ status: number; json: T }> {
  return page.evaluate(
    async ({ path, body }) => {
      const response = await fetch(path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, json: await response.json() };
    },
    { path, body },
  ) as Promise<{ status: number; json: T }>;
}

/**
 * Sender domains in the browser: add a domain, see the records to publish, publish them on a DNS server on loopback
 * (the app's DNS_SERVERS), "Verificar agora", then the campaign page's alignment check and a test send from
 * that domain — and an unverified From refused.
 */
describe.skipIf(!CHROMIUM_PATH)('sender domains journey in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;
  let dns: TestDnsServer;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    dns = await startTestDnsServer();
    [app, browser] = await Promise.all([startApp({ DNS_SERVERS: dns.address }), launchBrowser()]);
  });

  afterAll(async () => {
    await browser?.close();
    await app?.stop();
    await dns?.close();
  });

  it('adds a domain, shows its DNS records, verifies it against the loopback DNS and sends a test from it', async () => {
    const { page, context } = await signUpAndOpen(browser, app.baseURL, {
      path: '/dashboard/settings?aba=remetentes',
      verified: true,
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    await page.getByRole('tab', { name: 'Remetentes e domínios' }).waitFor();
    await page.getByLabel('Novo domínio').fill('lojadaana.test');
    await page.getByRole('button', { name: 'Adicionar domínio' }).click();
    const card = page.getByRole('article', { name: 'Domínio lojadaana.test' });
    await card.getByText('Aguardando DNS').waitFor();
    const dkim = card.getByTestId('record-dkim');
    await dkim.getByText(/\._domainkey\.lojadaana\.test$/).waitFor();
    await dkim.getByText(/^v=DKIM1; k=rsa; p=/).waitFor();
    await card.getByTestId('record-spf').getByText('v=spf1 include:').waitFor();
    await card.getByTestId('record-dmarc').getByText('v=DMARC1; p=none').waitFor();
    await card.getByTestId('record-return_path').getByText('bounces.lojadaana.test').waitFor();

    // "Verificar agora" before publishing: still waiting, records not found.
    await card.getByRole('button', { name: 'Verificar agora' }).click();
    await dkim.getByText('Não encontrado').waitFor();

    // The user copies the records into their DNS (here: the loopback server the app asks).
    const { json } = await api<{ domains: { records: { kind: string; name: string; value: string }[] }[] }>(
      page,
      '/api/senders',
    );
    for (const record of json.domains[0]?.records ?? []) {
      await expect(card.getByText(record.value, { exact: true }).count()).resolves.toBeGreaterThan(0);
      if (record.kind === 'return_path') dns.setCname(record.name, record.value);
      else if (record.kind !== 'tracking') dns.setTxt(record.name, [record.value]);
    }
    await card.getByRole('button', { name: 'Verificar agora' }).click();
    await card.getByText('Verificado', { exact: true }).waitFor();
    await expect(dkim.getByText('Encontrado', { exact: true }).count()).resolves.toBe(1);
    await page.screenshot({ path: join(RESULTS, 'senders-1280.png'), fullPage: true });

    // A campaign from the verified domain: the alignment check, then a test send.
    const campaign = await api<{ id: string }>(page, '/api/campaigns', {
      uuid: crypto.randomUUID(),
      name: 'Ofertas da Ana',
      subject: 'Ofertas da semana',
      fromEmail: 'ofertas@lojadaana.test',
      template: '<p>Descontos!</p><p><a href="{{ link_descadastro }}">Descadastrar</a></p>',
    });
    expect(campaign.status).toBe(201);
    await page.goto(`${app.baseURL}/dashboard/campaigns/${campaign.json.id}/view`);
    const check = page.getByTestId('sender-alignment');
    await check.getByText('DKIM alinhado').waitFor();
    await check.getByText('SPF alinhado').waitFor();
    await check.getByText('DMARC: passaria').waitFor();

    await page.getByRole('link', { name: 'Modelo', exact: true }).click();
    await page.getByTestId('visual-builder').waitFor();
    await page.getByRole('tab', { name: 'Pré-visualizar' }).click();
    await page.getByLabel('Até 5 e-mails').fill('ana@destino.test');
    await page.getByRole('button', { name: 'Enviar teste' }).click();
    await page.getByText('Teste enviado para 1 endereço').waitFor();

    // The same from an address nobody verified: refused in pt-BR.
    const other = await api<{ id: string }>(page, '/api/campaigns', {
      uuid: crypto.randomUUID(),
      name: 'Falsa',
      subject: 'Banco',
      fromEmail: 'noreply@banco.test',
      template: '<p>Oi</p><p><a href="{{ link_descadastro }}">Descadastrar</a></p>',
    });
    const refused = await api<{ error: { code: string; message: string } }>(
      page,
      `/api/campaigns/${other.json.id}/test-send`,
      { emails: ['ana@destino.test'] },
    );
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain('noreply@banco.test não está verificado');
    await page.goto(`${app.baseURL}/dashboard/campaigns/${other.json.id}/view`);
    await page.getByTestId('sender-alignment').getByText('Não verificado').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  }, 180_000);
});
