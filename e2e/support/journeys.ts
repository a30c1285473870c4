import type { Browser, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface MailSummary {
  id: string;
  subject: string;
  to: string | string[];
}

/** Waits for the newest mail to `to` whose subject matches, and answers its text and HTML. */
export async function waitForMail(
  baseURL: string,
  to: string,
  subject: RegExp,
  after: Set<string> = new Set(),
): Promise<{ id: string; text: string; html: string }> {
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    const { messages } = (await (await fetch(`${baseURL}/api/dev/mailbox`)).json()) as { messages: MailSummary[] };
    const found = messages.find(
      (m) =>
        !after.has(m.id) && JSON.stringify(m.to).toLowerCase().includes(to.toLowerCase()) && subject.test(m.subject),
    );
    if (found) {
      const body = (await (await fetch(`${baseURL}/api/dev/mailbox/${found.id}`)).json()) as {
        text?: string;
        html?: string;
      };
      return { id: found.id, text: body.text ?? '', html: body.html ?? '' };
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`nenhum e-mail para ${to} com assunto ${subject}`);
}

/** The first link in the mail that starts with the app's base URL and contains `fragment`. */
export function linkIn(mail: { text: string; html: string }, baseURL: string, fragment: string): string {
  const candidates = `${mail.text}\n${mail.html}`.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  const link = candidates
    .map((c) => c.replaceAll('&amp;', '&'))
    .find((c) => c.startsWith(baseURL) && c.includes(fragment));
  if (!link) throw new Error(`link com ${fragment} não encontrado no e-mail`);
  return link;
}

export async function newPage(browser: Browser, baseURL: string, width = 1280, height = 800): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height }, locale: 'pt-BR', baseURL });
  const page = await context.newPage();
  page.on('pageerror', (error) => {
    throw error;
  });
  return page;
}

/** Registers through the UI and lands on the dashboard. */
export async function register(
  page: Page,
  input: { name: string; email: string; password: string },
  path = '/auth/register',
) {
  await page.goto(path);
  await page.getByLabel('Nome').fill(input.name);
  await page.getByLabel('E-mail').fill(input.email);
  await page.getByLabel('Senha').fill(input.password);
  await page.getByRole('button', { name: 'Criar conta' }).click();
}

/**
 * Opens the e-mail confirmation link from the dev mailbox (test sends, invitations and the back office need a
 * verified e-mail); the page lands on /auth/email-verified.
 */
export async function verifyEmail(page: Page, baseURL: string, email: string) {
  await page.goto(linkIn(await waitForMail(baseURL, email, /confirm/i), baseURL, 'verify-email'));
  await page.waitForURL('**/auth/email-verified**');
}

export async function signIn(page: Page, email: string, password: string, path = '/auth/login') {
  await page.goto(path);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Senha', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
}

export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sair' }).first().click();
  await page.waitForURL('**/auth/login');
}

export function expectNoOverflow(width: number, scrollWidth: number) {
  expect(scrollWidth, 'sem rolagem horizontal').toBeLessThanOrEqual(width + 1);
}

/**
 * Confirms `email` as a sender of the signed-in account the way a user does: Configurações → Remetentes e
 * domínios, the link from the dev mailbox, "Confirmar este remetente". The person's own verified login e-mail
 * needs no link: the panel says it is confirmed at once, and no mail is sent. Leaves the page there.
 */
export async function confirmSenderAddress(page: Page, baseURL: string, email: string) {
  await page.goto(`${baseURL}/dashboard/settings?aba=remetentes`);
  await page.getByLabel('Novo endereço de remetente').fill(email);
  await page.getByRole('button', { name: 'Enviar link de confirmação' }).click();
  const pending = page.getByText('Aguardando confirmação').first();
  const ownLogin = page.getByText(`${email} é o seu e-mail de login, já confirmado: pode enviar com ele.`);
  await pending.or(ownLogin).first().waitFor();
  if (await ownLogin.isVisible()) return;
  const mail = await waitForMail(baseURL, email, /Confirme este endereço como remetente/);
  await page.goto(linkIn(mail, baseURL, '/confirm-sender/'));
  await page.getByRole('button', { name: 'Confirmar este remetente' }).click();
  await page.getByText('Remetente confirmado').waitFor();
}
