import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { linkIn, newPage, register, signIn, signOut, waitForMail } from './support/journeys';
import { RESULTS, useAppAndBrowser } from './support/suite';

describe.skipIf(!CHROMIUM_PATH)('sign-in, accounts and teams in Chromium', () => {
  const owner = { name: 'Ana Souza', email: `ana.${Date.now()}@exemplo.com.br`, password: 'senha-secreta-1' };

  const suite = useAppAndBrowser();

  it('register → verification e-mail → verify → dashboard shows the new account; sign out → magic link', async () => {
    const page = await newPage(suite.browser, suite.app.baseURL);
    await register(page, owner);
    await page.waitForURL('**/dashboard');
    await page.getByText('Confirme seu e-mail para poder enviar campanhas.').waitFor();
    await page.getByRole('heading', { name: 'Olá, Ana!' }).waitFor();
    await page.getByTestId('home-balance').waitFor();
    await page.getByText('Primeiros passos').waitFor();
    await page.screenshot({ path: join(RESULTS, 'dashboard-home-unverified-1280.png'), fullPage: true });

    const mail = await waitForMail(suite.app.baseURL, owner.email, /confirm/i);
    await page.goto(linkIn(mail, suite.app.baseURL, 'verify-email'));
    await page.waitForURL('**/auth/email-verified**');
    await page.getByRole('heading', { name: 'E-mail confirmado' }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'auth-email-verified-1280.png') });
    await page.getByRole('link', { name: 'Ir para o painel' }).click();
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Olá, Ana!' }).waitFor();
    expect(await page.getByText('Confirme seu e-mail para poder enviar campanhas.').count()).toBe(0);
    await page.getByText('Ana Souza').first().waitFor();

    await signOut(page);
    const before = new Set(
      (
        (await (await fetch(`${suite.app.baseURL}/api/dev/mailbox`)).json()) as { messages: { id: string }[] }
      ).messages.map((m) => m.id),
    );
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByRole('button', { name: 'Entrar com link por e-mail' }).click();
    await page.getByText(`Enviamos um link de acesso para ${owner.email}`).waitFor();
    const magic = await waitForMail(suite.app.baseURL, owner.email, /link|entrar|acesso/i, before);
    await page.goto(linkIn(magic, suite.app.baseURL, 'magic-link'));
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Olá, Ana!' }).waitFor();
    await page.context().close();
  });

  it('wrong password shows the pt-BR message', async () => {
    const page = await newPage(suite.browser, suite.app.baseURL);
    await signIn(page, owner.email, 'senha-errada-99');
    await page.getByRole('alert').filter({ hasText: 'E-mail ou senha incorretos' }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'auth-login-error-1280.png') });
    await page.context().close();
  });

  it('forgot → reset → sign in with the new password', async () => {
    const page = await newPage(suite.browser, suite.app.baseURL);
    await page.goto('/auth/forgot-password');
    await page.getByLabel('E-mail').fill(owner.email);
    await page.getByRole('button', { name: 'Enviar link' }).click();
    await page.getByRole('status').waitFor();
    const mail = await waitForMail(suite.app.baseURL, owner.email, /senha/i);
    await page.goto(linkIn(mail, suite.app.baseURL, 'reset-password'));
    owner.password = 'nova-senha-segura-2';
    await page.getByLabel('Nova senha').fill(owner.password);
    await page.getByRole('button', { name: 'Salvar nova senha' }).click();
    await page.getByText('Senha alterada!').waitFor();
    await signIn(page, owner.email, owner.password);
    await page.waitForURL('**/dashboard');
    await page.getByRole('heading', { name: 'Olá, Ana!' }).waitFor();
    await page.context().close();
  });

  it('owner invites a second user, who accepts via /auth/invite/:accountId and sees the shared account', async () => {
    const page = await newPage(suite.browser, suite.app.baseURL);
    await signIn(page, owner.email, owner.password);
    await page.waitForURL('**/dashboard');
    await page.goto('/dashboard/settings?aba=conta');
    const name = page.getByLabel('Nome da empresa (como seus clientes a conhecem)');
    await name.fill('Padaria da Ana');
    await page.getByLabel('CNPJ ou CPF').fill('11.222.333/0001-82');
    await page.getByRole('button', { name: 'Salvar alterações' }).click();
    await page.getByText('CPF ou CNPJ inválido.').first().waitFor();
    await page.getByLabel('CNPJ ou CPF').fill('11.222.333/0001-81');
    await page.getByRole('button', { name: 'Salvar alterações' }).click();
    await page.getByText('Dados da conta salvos').waitFor();
    await page.screenshot({ path: join(RESULTS, 'settings-account-1280.png'), fullPage: true });

    await page.goto('/dashboard/settings?aba=equipe');
    const guest = { name: 'Bruno Lima', email: `bruno.${Date.now()}@exemplo.com.br`, password: 'senha-do-bruno' };
    await page.getByLabel('E-mail').fill(guest.email);
    await page.getByRole('button', { name: 'Enviar convite' }).click();
    await page.getByText(guest.email).first().waitFor();
    await page.screenshot({ path: join(RESULTS, 'settings-team-1280.png'), fullPage: true });

    const invite = await waitForMail(suite.app.baseURL, guest.email, /convite|convid/i);
    const link = linkIn(invite, suite.app.baseURL, '/auth/invite/');
    const guestPage = await newPage(suite.browser, suite.app.baseURL, 375, 800);
    await guestPage.goto(link);
    await guestPage.getByRole('link', { name: 'Criar conta para aceitar' }).click();
    await register(guestPage, guest, guestPage.url().replace(suite.app.baseURL, ''));
    await guestPage.waitForURL('**/auth/invite/**');
    await guestPage.screenshot({ path: join(RESULTS, 'auth-invite-375.png') });
    await guestPage.getByRole('button', { name: 'Aceitar convite' }).click();
    await guestPage.waitForURL('**/dashboard');
    await guestPage.locator('main').getByText('Padaria da Ana').waitFor();
    await guestPage.screenshot({ path: join(RESULTS, 'dashboard-home-375.png'), fullPage: true });
    await guestPage.context().close();

    await page.reload();
    await page.getByText(guest.email).first().waitFor();
    await page.context().close();
  });
});
