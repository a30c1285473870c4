import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { confirmSenderAddress, expectNoOverflow, linkIn, waitForMail } from './support/journeys';
import { pageApi } from './support/page-api';
import { signUpAndOpen } from './support/session';
import { RESULTS, useAppAndBrowser } from './support/suite';

describe.skipIf(!CHROMIUM_PATH)('automations journey in Chromium', () => {
  // A quick automations tick: the welcome e-mail should not wait the default 15 s.
  const suite = useAppAndBrowser({ AUTOMATIONS_TICK_MS: '500' });

  it('creates a welcome automation, activates it, adds a contact to the list and the message reaches the mail catcher', async () => {
    const { page, context, email } = await signUpAndOpen(suite.browser, suite.app.baseURL, { name: 'Rita Loja' });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const verification = await waitForMail(suite.app.baseURL, email, /confirm/i);
    await page.goto(linkIn(verification, suite.app.baseURL, 'verify-email'));
    await page.waitForLoadState('load');

    // Credit (development "Simular pagamento") and the login address as a confirmed sender.
    await page.goto(`${suite.app.baseURL}/dashboard/my-balance`);
    await page.getByRole('button', { name: 'Adicionar créditos' }).click();
    await page.getByLabel('Valor').fill('10,00');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await page.waitForURL('**/dashboard/my-balance/topups/**');
    await page.getByRole('button', { name: 'Simular pagamento' }).click();
    await page.getByText('Pago ✓').waitFor();
    await confirmSenderAddress(page, suite.app.baseURL, email);

    // A list and a welcome template (with the unsubscribe link, as every marketing e-mail).
    await pageApi(page, '/api/lists', { name: 'Clientes novos' });
    await pageApi(page, '/api/templates', {
      name: 'Boas-vindas',
      subject: 'Bem-vindo à Padaria, {{ contato.nome }}!',
      html:
        '<html><body><h1>Olá, {{ contato.nome }}!</h1><p>Que bom ter você com a gente.</p>' +
        '<p>{{ conta.razao_social }} — {{ conta.endereco }}</p><a href="{{ link_descadastro }}">Descadastrar</a></body></html>',
    });

    // The automation, through the nav entry and the editor.
    await page.goto(`${suite.app.baseURL}/dashboard`);
    await page.getByRole('link', { name: 'Automações' }).first().click();
    await page.getByText('Nenhuma automação ainda').waitFor();
    await page.getByRole('link', { name: 'Nova automação' }).first().click();
    await page.getByLabel('Nome', { exact: true }).fill('Boas-vindas');
    await page.getByLabel('Gatilho').selectOption('list_joined');
    await page.getByLabel('Lista', { exact: true }).selectOption({ label: 'Clientes novos' });
    await page.getByLabel('E-mail do remetente').fill(email);
    await page.getByLabel('Nome do remetente').fill('Padaria Pão Quente');
    const step = page.getByTestId('automation-step').first();
    await step.getByLabel('Aguardar').fill('0');
    await step.getByLabel('Enviar o modelo').selectOption({ label: 'Boas-vindas' });
    await page.getByRole('button', { name: 'Salvar automação' }).click();
    await page.getByRole('heading', { name: 'Boas-vindas' }).waitFor();
    expect(await page.getByTestId('automation-status').textContent()).toBe('Rascunho');
    await page.getByRole('button', { name: 'Ativar' }).click();
    await page.getByText('Automação ativada').waitFor();
    await page.getByTestId('automation-status').filter({ hasText: 'Ativa' }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'automation-editor-1280.png'), fullPage: true });

    // A contact joins the list (the contacts page form, as a user does it).
    const recipient = `joana.${Date.now()}@exemplo.com.br`;
    await page.goto(`${suite.app.baseURL}/dashboard/contacts`);
    await page.getByRole('button', { name: 'Novo contato' }).click();
    const form = page.getByRole('dialog', { name: 'Novo contato' });
    await form.getByLabel('E-mail').fill(recipient);
    await form.getByLabel('Nome', { exact: true }).fill('Joana');
    await form.getByLabel('Lista').selectOption({ label: 'Clientes novos' });
    await form.getByRole('button', { name: 'Adicionar contato' }).click();
    await page.getByText('Contato adicionado').waitFor();

    // The welcome e-mail in the mail catcher, merged, with the footer identity and the unsubscribe link.
    const welcome = await waitForMail(suite.app.baseURL, recipient, /Bem-vindo à Padaria, Joana!/);
    expect(welcome.html).toContain('Olá, Joana!');
    expect(welcome.html).toContain('Padaria Pão Quente Ltda');
    expect(linkIn(welcome, suite.app.baseURL, '/u/')).toMatch(new RegExp(`^${suite.app.baseURL}/u/[A-Za-z0-9_-]+`));

    // The report counts the contact and the step sent.
    await page.goto(`${suite.app.baseURL}/dashboard/automations`);
    await page.getByRole('link', { name: 'Boas-vindas' }).click();
    const report = page.getByTestId('automation-report');
    await report.getByText('Entraram').waitFor();
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="automation-report"] tbody')?.textContent?.includes('1. Boas-vindas1'),
    );
    // On a phone: the editor and the list fit the width.
    await page.setViewportSize({ width: 375, height: 800 });
    await report.getByText('Entraram').waitFor();
    await page.screenshot({ path: join(RESULTS, 'automation-editor-375.png'), fullPage: true });
    expectNoOverflow(375, await page.evaluate(() => document.documentElement.scrollWidth));
    await page.goto(`${suite.app.baseURL}/dashboard/automations`);
    await page.getByRole('link', { name: 'Boas-vindas' }).waitFor();
    expectNoOverflow(375, await page.evaluate(() => document.documentElement.scrollWidth));
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);
});
