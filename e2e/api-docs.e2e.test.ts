import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { englishWords } from './support/english';
import { pageApi } from './support/page-api';
import { signUpAndOpen } from './support/session';
import { RESULTS, useAppAndBrowser } from './support/suite';

/**
 * The labels an English documentation viewer shows (Scalar's were these), beyond the common interface words; a
 * header name such as Content-Type is not one.
 */
const VIEWER_ENGLISH =
  /(?<![-\w])(Search|Test Request|Send Request|Authentication|Required|Request Body|Responses?|Show Schema|Models|Client Libraries|Server|Copy|Try it|Parameters|Path|Query|Header|Field|Type|Description|Name)(?![-\w])/g;
/** A type cell in English ("string", "list of object"…): a whole line, so prose such as "query string" passes. */
const ENGLISH_TYPE = /^(string|integer|number|boolean|array|object|null|any)( or .+| of .+)?$/;

/** What a reader of the page reads: visible text and labels under `main`, leaving out code (samples, JSON). */
async function proseOf(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    if (!main) return [];
    const copy = main.cloneNode(true) as HTMLElement;
    for (const code of Array.from(copy.querySelectorAll('pre, code, textarea, input'))) code.remove();
    document.body.append(copy);
    const out = copy.innerText
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    for (const node of Array.from(main.querySelectorAll('*'))) {
      for (const name of ['title', 'aria-label', 'placeholder']) {
        const value = node.getAttribute(name);
        if (value?.trim() && !value.includes('_live_')) out.push(value.trim());
      }
    }
    copy.remove();
    return out;
  });
}

function englishIn(texts: string[]): string[] {
  return [
    ...englishWords(texts),
    ...texts.flatMap((text) => [...text.matchAll(VIEWER_ENGLISH)].map((m) => `${m[0]} (em "${text.slice(0, 80)}")`)),
    ...texts.filter((text) => ENGLISH_TYPE.test(text)),
  ];
}

describe.skipIf(!CHROMIUM_PATH)('the API documentation page in Chromium', () => {
  const suite = useAppAndBrowser();

  it('reads in pt-BR, logs nothing to the console, and tries an operation with the pasted key', async () => {
    const { page } = await signUpAndOpen(suite.browser, suite.app.baseURL, { verified: true, name: 'Davi Docs' });
    const { secret } = await pageApi<{ secret: string }>(page, '/api/api-keys', { name: 'Documentação' });
    const console: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') console.push(message.text());
    });
    page.on('pageerror', (error) => console.push(error.message));
    const foreign: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(suite.app.baseURL) && !request.url().startsWith('data:'))
        foreign.push(request.url());
    });

    await page.goto(`${suite.app.baseURL}/dashboard/api/docs`);
    await page.getByRole('heading', { name: 'Enviar mensagem transacional' }).waitFor({ timeout: 30_000 });
    expect(englishIn(await proseOf(page))).toEqual([]);
    await page.screenshot({ path: join(RESULTS, 'api-docs-mensagens-1280.png'), fullPage: true });

    // Every group, in its own words.
    for (const group of ['Contatos', 'Campanhas', 'Modelos', 'Listas', 'Saldo', 'Supressões', 'Eventos']) {
      await page.getByRole('navigation', { name: 'Grupos de operações' }).getByRole('button', { name: group }).click();
      await page.locator('main h3').first().waitFor();
      expect(englishIn(await proseOf(page)), group).toEqual([]);
    }

    // "Testar": the key pasted once at the top, a real call on the account, the answer shown.
    await page
      .getByRole('navigation', { name: 'Grupos de operações' })
      .getByRole('button', { name: 'Contatos' })
      .click();
    await page.getByLabel('Sua chave de API').fill(secret);
    const card = page.getByRole('region', { name: 'Listar contatos' });
    await card.getByText('Testar', { exact: true }).click();
    await card.getByRole('button', { name: 'Enviar requisição' }).click();
    await card.getByText('Resposta: 200').waitFor();
    expect(await card.locator('pre').last().textContent()).toContain('"items"');

    // At a phone's width the page does not scroll sideways.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.getByRole('heading', { name: 'Listar contatos' }).waitFor();
    const { scrollWidth, innerWidth } = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await page.screenshot({ path: join(RESULTS, 'api-docs-contatos-375.png'), fullPage: true });

    expect(console).toEqual([]);
    expect(foreign).toEqual([]);
  });
});
