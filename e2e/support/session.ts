import type { Browser, BrowserContext, Page } from 'playwright-core';
import { verifyEmail } from './journeys';

export interface SignedIn {
  context: BrowserContext;
  page: Page;
  email: string;
  password: string;
}

let counter = 0;

/**
 * A fresh user signed in through the real auth API, called from the page (same origin, so the session cookie
 * lands in the browser context exactly as after the register form). Lands on `/dashboard` unless `path` says;
 * `verified` opens the confirmation link first.
 */
export async function signUpAndOpen(
  browser: Browser,
  baseURL: string,
  options: {
    width?: number;
    height?: number;
    name?: string;
    path?: string;
    identity?: boolean;
    verified?: boolean;
  } = {},
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
    // As the register form sends it: the confirmation link lands on the "e-mail confirmado" page.
    { name: options.name ?? 'Maria Teste', email, password, callbackURL: '/auth/email-verified' },
  );
  if (status >= 300) throw new Error(`cadastro falhou: HTTP ${status}`);
  // Test sends, invitations and sender confirmations need a verified e-mail: open the link from the dev mailbox.
  if (options.verified) await verifyEmail(page, baseURL, email);
  if (options.identity !== false) await completeIdentity(page);
  await page.goto(`${baseURL}${options.path ?? '/dashboard'}`);
  return { context, page, email, password };
}

/**
 * Fills the footer identity a campaign needs before its first send (business name, CNPJ with valid check digits,
 * address), through the real API from the signed-in page.
 */
export async function completeIdentity(page: Page): Promise<void> {
  const status = await page.evaluate(async () => {
    await fetch('/api/session', { credentials: 'same-origin' });
    const response = await fetch('/api/account', {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/json' },
      credentials: 'same-origin',
      body: JSON.stringify({
        legalName: 'Padaria Pão Quente Ltda',
        taxId: '11.222.333/0001-81',
        address: 'Rua das Flores, 100 — Recife/PE, 50000-000',
      }),
    });
    return response.status;
  });
  if (status >= 300) throw new Error(`identificação falhou: HTTP ${status}`);
}
