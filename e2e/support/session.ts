import type { Browser, BrowserContext, Page } from 'playwright-core';

export interface SignedIn {
  context: BrowserContext;
  page: Page;
  email: string;
  password: string;
}

let counter = 0;

/**
 * A fresh user signed in through the real auth API, called from the page (same origin, so the session cookie
 * lands in the browser context exactly as after the register form). Lands on `/dashboard` unless `path` says.
 */
export async function signUpAndOpen(
  browser: Browser,
  baseURL: string,
  options: { width?: number; height?: number; name?: string; path?: string } = {},
): Promise<SignedIn> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
    acceptDownloads: true,
  });
  const page = await context.newPage();
  counter += 1;
  const email = `e2e-${Date.now()}-${counter}@example.com`;
  const password = 'senha-segura-123';
  await page.goto(`${baseURL}/privacy-policy`);
  const status = await page.evaluate(
    async (body) => {
      const response = await fetch('/api/auth/sign-up/email', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        credentials: 'same-origin',
        body: JSON.stringify(body),
      });
      return response.status;
    },
    { name: options.name ?? 'Maria Teste', email, password },
  );
  if (status >= 300) throw new Error(`cadastro falhou: HTTP ${status}`);
  await page.goto(`${baseURL}${options.path ?? '/dashboard'}`);
  return { context, page, email, password };
}
