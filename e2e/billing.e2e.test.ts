import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { newPage, register, signIn, verifyEmail } from './support/journeys';
import { RESULTS, useAppAndBrowser } from './support/suite';

const OPERATOR = 'operacao@carteiro.test';
const SECOND_OPERATOR = 'suporte@carteiro.test';

describe.skipIf(!CHROMIUM_PATH)('prepaid balance and Pix top-up in Chromium', () => {
  const suite = useAppAndBrowser({ ADMIN_EMAILS: `${OPERATOR},${SECOND_OPERATOR}` });

  it('top up by Pix → the operator confirms in /admin → balance and extrato update', async () => {
    const page = await newPage(suite.browser, suite.app.baseURL);
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
    const operator = await newPage(suite.browser, suite.app.baseURL);
    await register(operator, { name: 'Operação', email: OPERATOR, password: 'senha-do-operador' });
    await operator.waitForURL('**/dashboard');
    await verifyEmail(operator, suite.app.baseURL, OPERATOR); // the back office needs a verified e-mail
    await operator.goto('/admin');
    await operator.getByRole('tab', { name: 'Recargas pendentes' }).click();
    await operator.getByRole('button', { name: 'Confirmar pagamento' }).first().click();
    await operator.getByRole('button', { name: 'Continuar' }).click();
    await operator.getByText('Pagamento confirmado e creditado').waitFor();
    await operator.getByRole('tab', { name: 'Contas' }).click();
    await operator.getByText('R$\u00a050,00').first().waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-accounts-1280.png'), fullPage: true });
    await operator.getByRole('tab', { name: 'Auditoria' }).click();
    await operator.locator('tr[data-action="topup.confirm"]').getByText('Recarga confirmada').waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-audit-topup-1280.png'), fullPage: true });
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

  it('the operator suspends an account in /admin, the audit log shows it, then reactivates it', async () => {
    const customerEmail = `loja.${Date.now()}@exemplo.com.br`;
    const customer = await newPage(suite.browser, suite.app.baseURL);
    await register(customer, { name: 'Dona da Loja', email: customerEmail, password: 'senha-da-loja' });
    await customer.waitForURL('**/dashboard');
    await customer.getByTestId('home-balance').waitFor(); // the account exists once the dashboard shows it

    const operator = await newPage(suite.browser, suite.app.baseURL);
    await register(operator, { name: 'Suporte', email: SECOND_OPERATOR, password: 'plantao-2026-seguro' });
    await operator.waitForURL('**/dashboard');
    await verifyEmail(operator, suite.app.baseURL, SECOND_OPERATOR); // the back office needs a verified e-mail
    await operator.goto('/admin');
    await operator.getByRole('searchbox', { name: 'Buscar por conta ou e-mail' }).fill(customerEmail);
    const row = operator.getByRole('row').filter({ hasText: customerEmail });
    await row.getByText('Ativa', { exact: true }).waitFor();
    await row.getByRole('button', { name: 'Gerenciar' }).click();

    // Suspend: the reason is mandatory.
    const suspendForm = operator
      .locator('form')
      .filter({ has: operator.getByRole('heading', { name: 'Suspender conta' }) });
    await suspendForm.getByRole('button', { name: 'Suspender conta' }).click();
    await suspendForm.getByText('Informe o motivo (ao menos 3 caracteres).').waitFor();
    await suspendForm.getByLabel('Motivo').fill('Denúncias de spam em série');
    await suspendForm.getByRole('button', { name: 'Suspender conta' }).click();
    const dialog = operator.getByRole('alertdialog', { name: 'Suspender a conta?' });
    await dialog.getByText('as campanhas em andamento serão pausadas').waitFor();
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await row.getByText('Suspensa', { exact: true }).waitFor();
    await operator.getByText('Esta conta está suspensa: não envia nem retoma campanhas.', { exact: false }).waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-account-suspended-1280.png'), fullPage: true });

    // The audit log shows who suspended which account and why.
    await operator.getByRole('tab', { name: 'Auditoria' }).click();
    const suspended = operator
      .locator('tr[data-action="account.suspend"]')
      .filter({ hasText: 'Denúncias de spam em série' });
    await suspended.waitFor();
    expect(await suspended.textContent()).toContain('Conta suspensa');
    expect(await suspended.textContent()).toContain(SECOND_OPERATOR);
    await operator.screenshot({ path: join(RESULTS, 'admin-audit-suspend-1280.png'), fullPage: true });

    // Campaigns paused by protection: none in this run, the empty state explains what would show.
    await operator.getByRole('tab', { name: 'Campanhas pausadas' }).click();
    await operator.getByText('Nenhuma campanha aguardando revisão').waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-alerts-1280.png'), fullPage: true });

    // Reactivate.
    await operator.getByRole('tab', { name: 'Contas' }).click();
    await operator.getByRole('searchbox', { name: 'Buscar por conta ou e-mail' }).fill(customerEmail);
    await row.getByRole('button', { name: 'Gerenciar' }).click();
    const reactivateForm = operator
      .locator('form')
      .filter({ has: operator.getByRole('heading', { name: 'Reativar conta' }) });
    await reactivateForm.getByLabel('Motivo').fill('Lista revisada com a cliente');
    await reactivateForm.getByRole('button', { name: 'Reativar conta' }).click();
    await operator
      .getByRole('alertdialog', { name: 'Reativar a conta?' })
      .getByRole('button', { name: 'Continuar' })
      .click();
    await row.getByText('Ativa', { exact: true }).waitFor();
    await operator.getByRole('tab', { name: 'Auditoria' }).click();
    await operator
      .locator('tr[data-action="account.reactivate"]')
      .filter({ hasText: 'Lista revisada com a cliente' })
      .getByText('Conta reativada')
      .waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-audit-1280.png'), fullPage: true });

    // Block the customer's access: their open session ends and signing in again is refused, in pt-BR.
    await operator.getByRole('tab', { name: 'Contas' }).click();
    await operator.getByRole('searchbox', { name: 'Buscar por conta ou e-mail' }).fill(customerEmail);
    await row.getByRole('button', { name: 'Gerenciar' }).click();
    const person = operator.locator(`li[data-member="${customerEmail}"]`);
    await person.getByRole('button', { name: 'Bloquear acesso' }).click();
    await person.getByLabel('Motivo').fill('Conta usada para spam');
    await person.getByRole('button', { name: 'Bloquear acesso' }).click();
    await operator
      .getByRole('alertdialog', { name: 'Bloquear o acesso?' })
      .getByRole('button', { name: 'Continuar' })
      .click();
    // The action's toast first: a refusal fails here with its own message, not as a missing badge.
    const blockOutcome = operator
      .getByText('Acesso bloqueado', { exact: true })
      .or(operator.getByText('Não foi possível alterar o acesso', { exact: false }))
      .first();
    await blockOutcome.waitFor();
    expect(await blockOutcome.textContent()).toBe('Acesso bloqueado');
    await person.getByText('Bloqueado', { exact: true }).waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-user-blocked-1280.png'), fullPage: true });
    await customer.goto('/dashboard/lists');
    await customer.waitForURL('**/auth/login?**');
    await signIn(customer, customerEmail, 'senha-da-loja');
    await customer.getByText('Seu acesso ao Carteiro foi bloqueado. Fale com o suporte.').waitFor();
    await customer.screenshot({ path: join(RESULTS, 'login-user-blocked-1280.png') });
    // Unblocked: the customer signs in again.
    await person.getByRole('button', { name: 'Desbloquear' }).click();
    await person.getByLabel('Motivo').fill('Cliente regularizou a lista');
    await person.getByRole('button', { name: 'Desbloquear' }).click();
    await operator
      .getByRole('alertdialog', { name: 'Desbloquear o acesso?' })
      .getByRole('button', { name: 'Continuar' })
      .click();
    await person.getByText('Bloqueado', { exact: true }).waitFor({ state: 'detached' });
    await signIn(customer, customerEmail, 'senha-da-loja');
    await customer.waitForURL('**/dashboard');
    await customer.context().close();

    // Who has the back office: both ADMIN_EMAILS operators, marked as configuration.
    await operator.getByRole('tab', { name: 'Operadores' }).click();
    await operator.locator(`li[data-operator="${SECOND_OPERATOR}"]`).getByText('(você)').waitFor();
    await operator.locator(`li[data-operator="${OPERATOR}"]`).getByText('Configuração (ADMIN_EMAILS)').waitFor();
    await operator.screenshot({ path: join(RESULTS, 'admin-operators-1280.png'), fullPage: true });
    await operator.context().close();
  });
});
