import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { confirmSenderAddress, linkIn, newPage, register, verifyEmail, waitForMail } from './support/journeys';
import { pageApi } from './support/page-api';
import { completeIdentity } from './support/session';
import { RESULTS, useAppAndBrowser } from './support/suite';

const OPERATOR = 'operacao.ab@carteiro.test';
const RECIPIENTS = 10;

describe.skipIf(!CHROMIUM_PATH)('A/B test journey in Chromium', () => {
  const suite = useAppAndBrowser({ ADMIN_EMAILS: OPERATOR });

  /** Registers, verifies the e-mail, gets R$ 10,00 by Pix (confirmed by the operator), confirms the sender. */
  async function fundedOwner(): Promise<Page> {
    const owner = { name: 'Rita Souza', email: `rita.${Date.now()}@exemplo.com.br`, password: 'senha-da-rita' };
    const page = await newPage(suite.browser, suite.app.baseURL);
    await register(page, owner);
    await page.waitForURL('**/dashboard');
    const verification = await waitForMail(suite.app.baseURL, owner.email, /confirm/i);
    await page.goto(linkIn(verification, suite.app.baseURL, 'verify-email'));
    await page.waitForURL('**/auth/email-verified**');
    await completeIdentity(page);
    await page.goto('/dashboard/my-balance');
    await page.getByRole('button', { name: 'Adicionar créditos' }).click();
    await page.getByLabel('Valor').fill('10,00');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await page.waitForURL('**/dashboard/my-balance/topups/**');
    const operator = await newPage(suite.browser, suite.app.baseURL);
    await register(operator, { name: 'Operação', email: OPERATOR, password: 'senha-do-operador' });
    await operator.waitForURL('**/dashboard');
    await verifyEmail(operator, suite.app.baseURL, OPERATOR); // the back office needs a verified e-mail
    await operator.goto('/admin');
    await operator.getByRole('tab', { name: 'Recargas pendentes' }).click();
    await operator.getByRole('button', { name: 'Confirmar pagamento' }).first().click();
    await operator.getByRole('button', { name: 'Continuar' }).click();
    await operator.getByText('Pagamento confirmado e creditado').waitFor();
    await operator.context().close();
    await page.getByTestId('topup-paid').waitFor({ timeout: 15_000 });
    await confirmSenderAddress(page, suite.app.baseURL, 'loja@exemplo.com.br');
    return page;
  }

  it('creates an A/B campaign in the editor, reviews it, sends it and reads the variants’ comparison', async () => {
    const page = await fundedOwner();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const list = await pageApi<{ id: string }>(page, '/api/lists', { name: 'Clientes A/B' });
    for (let i = 0; i < RECIPIENTS; i++) {
      await pageApi(page, '/api/contacts', { email: `pessoa${i}@exemplo.com.br`, listIds: [list.id] });
    }

    // A library template whose content variant B will carry (copied when chosen).
    await pageApi(page, '/api/templates', {
      name: 'Oferta B',
      html: '<p>Conteúdo exclusivo da variante B para {{ contato.email }}</p><p><a href="{{ link_descadastro }}">Sair da lista</a></p>',
    });

    // The editor: subject A, the "Teste A/B" toggle, a variant B with its own sender name and content, half the audience.
    await page.goto('/dashboard/campaigns/new');
    await page.getByLabel('Nome da campanha (só você vê)').fill('Promoção com teste A/B');
    await page.getByLabel('Assunto', { exact: true }).fill('Só hoje: 20% de desconto');
    await page.getByRole('checkbox', { name: 'Teste A/B' }).check();
    await page.getByLabel('Assunto (variante A)').waitFor();
    await page.getByLabel('Assunto da variante B').fill('Seu cupom chegou');
    await page.getByLabel('Nome do remetente da variante B (opcional)').fill('Rita da Loja');
    await page.getByLabel('Conteúdo da variante B').selectOption({ label: 'Copiar do modelo "Oferta B"' });
    await page.getByRole('option', { name: 'Cópia do modelo "Oferta B"' }).waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Adicionar variante C' }).click();
    await page.getByLabel('Assunto da variante C').fill('Vai ficar de fora?');
    await page.getByRole('button', { name: 'Remover variante C' }).click();
    await page.getByLabel('Público no teste (%)').fill('50');
    await page.getByLabel('Vencedor pela').selectOption('clicks');
    await page.getByLabel('Esperar (horas)').fill('2');
    await page.getByText('2 horas após o início do envio', { exact: false }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'ab-test-editor-1280.png'), fullPage: true });
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.waitForURL(/\/dashboard\/campaigns\/[0-9a-f-]+\/edit\?step=1$/);
    await page.getByLabel('E-mail do remetente').selectOption('loja@exemplo.com.br');
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByLabel('Enviar para Clientes A/B').check();
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByText('Começar do zero').click();
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByRole('button', { name: 'Salvar e revisar' }).click();
    await page.waitForURL(/\/view$/);

    // The review shows every variant and the test's settings.
    await page.getByText('Assunto (variante B)').waitFor();
    await page.getByText('Seu cupom chegou — remetente "Rita da Loja"').waitFor();
    await page
      .getByText('2 variantes · 50% do público no teste · vencedor pela taxa de cliques após 2 horas')
      .waitFor();
    await expect(page.getByText('Vai ficar de fora?').count()).resolves.toBe(0);

    // One test e-mail of each variant, to the owner's inbox.
    await page.getByRole('button', { name: 'Enviar um teste de cada variante' }).click();
    await page.getByText('2 testes enviados').waitFor();
    const testA = await waitForMail(suite.app.baseURL, 'rita.', /^\[TESTE\] Só hoje: 20% de desconto$/);
    const testB = await waitForMail(suite.app.baseURL, 'rita.', /^\[TESTE\] Seu cupom chegou$/);
    expect(testB.html).toContain('Conteúdo exclusivo da variante B');
    expect(testA.html).not.toContain('Conteúdo exclusivo da variante B');

    // Send: the whole audience is reserved; the test half goes out, the rest waits for the winner.
    await page.getByRole('button', { name: 'Enviar agora' }).click();
    await page.getByRole('alertdialog').getByText(`${RECIPIENTS} destinatários`, { exact: false }).waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('Envio iniciado').waitFor();

    const ab = page.getByTestId('ab-report');
    await ab.waitFor({ timeout: 20_000 });
    const rows = ab.getByTestId('ab-variant-row');
    await expect(rows.count()).resolves.toBe(2);
    // Both variants delivered: 5 test recipients, 50% split into 3 + 2 (test share = 5 of 10).
    for (const deadline = Date.now() + 20_000; ; await page.waitForTimeout(500)) {
      const report = await pageApi<{ abTest: { variants: Array<{ delivered: number }> } }>(
        page,
        `/api/campaigns/${page.url().split('/').at(-2)}/report`,
      );
      if (report.abTest.variants.reduce((a, v) => a + v.delivered, 0) === 5) break;
      if (Date.now() > deadline) throw new Error(`teste não entregue: ${JSON.stringify(report.abTest)}`);
    }
    await page.reload();
    await ab.waitFor();
    expect(await rows.nth(0).textContent()).toContain('Só hoje: 20% de desconto');
    expect(await rows.nth(1).textContent()).toContain('Seu cupom chegou');
    expect(await rows.nth(1).textContent()).toContain('Remetente: Rita da Loja');
    expect(await rows.nth(0).textContent()).toMatch(/de 3/);
    expect(await rows.nth(1).textContent()).toMatch(/de 2/);
    // The progress card says the rest waits for the winner (no estimated end meanwhile).
    await page.getByText('Vencedor do teste A/B').waitFor();
    const reason = ab.getByTestId('ab-reason');
    expect(await reason.textContent()).toContain('Teste em andamento');
    expect(await reason.textContent()).toContain('5 destinatários aguardam o vencedor');
    // The recipients list says who got which variant and who waits for the winner.
    const recipientsCard = page.getByTestId('report-recipients');
    await recipientsCard.getByRole('columnheader', { name: 'Variante' }).waitFor();
    await expect(recipientsCard.getByRole('cell', { name: 'aguardando', exact: true }).count()).resolves.toBe(5);
    await expect(recipientsCard.getByRole('cell', { name: 'B', exact: true }).count()).resolves.toBe(2);
    // Only the test half reached the mailbox; each with its variant's subject.
    const { messages } = (await (await fetch(`${suite.app.baseURL}/api/dev/mailbox`)).json()) as {
      messages: Array<{ subject: string; to: string | string[] }>;
    };
    const sent = messages.filter((m) => JSON.stringify(m.to).includes('pessoa'));
    expect(sent).toHaveLength(5);
    expect(sent.filter((m) => m.subject === 'Só hoje: 20% de desconto')).toHaveLength(3);
    expect(sent.filter((m) => m.subject === 'Seu cupom chegou')).toHaveLength(2);
    await page.screenshot({ path: join(RESULTS, 'ab-test-report-1280.png'), fullPage: true });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
