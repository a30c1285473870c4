import { mkdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatBRL } from '@carteiro/shared';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningApp, startApp } from './support/app';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';
import {
  confirmSenderAddress,
  expectNoOverflow,
  linkIn,
  newPage,
  register,
  signIn,
  verifyEmail,
  waitForMail,
} from './support/journeys';
import { pageApi } from './support/page-api';
import { completeIdentity } from './support/session';

const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results');
const OPERATOR = 'operacao.envio@carteiro.test';
const OPERATOR_PASSWORD = 'senha-do-operador';
/** Recipients of the slow campaign: at SENDING_RATE_PER_RELAY=2 it lasts about 30 s, time to pause and cancel. */
const SLOW_RECIPIENTS = 60;
/**
 * The recipient reads mail in an ordinary desktop browser: headless Chromium's own user agent says
 * "HeadlessChrome", which the tracker rightly counts as a machine (a link scanner), not a person. It is set
 * on the command line because Playwright's per-context override does not reach the subresources of the dev
 * mailbox's sandboxed frame (where the open pixel loads).
 */
const RECIPIENT_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

/** Polls the campaign's live progress until at least `min` messages are sent; returns the count seen. */
async function sentAtLeast(page: Page, campaignId: string, min: number): Promise<number> {
  let sent = 0;
  for (const deadline = Date.now() + 20_000; Date.now() < deadline; await page.waitForTimeout(200)) {
    sent = (await pageApi<{ sent: number }>(page, `/api/campaigns/${campaignId}/progress`)).sent;
    if (sent >= min) return sent;
  }
  throw new Error(`campanha ${campaignId}: ${sent} enviados após 20 s, esperado ao menos ${min}`);
}

describe.skipIf(!CHROMIUM_PATH)('the whole sending journey in Chromium', () => {
  let app: RunningApp;
  let browser: Browser;
  let recipientBrowser: Browser;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    [app, browser, recipientBrowser] = await Promise.all([
      // One message at a time, 2 a second: the live progress card has time to be seen, paused and cancelled.
      startApp({ ADMIN_EMAILS: OPERATOR, SENDING_RATE_PER_RELAY: '2', SENDING_BATCH_SIZE: '1' }),
      launchBrowser(),
      chromium.launch({
        executablePath: CHROMIUM_PATH as string,
        headless: true,
        args: ['--no-sandbox', '--disable-gpu', '--no-first-run', `--user-agent=${RECIPIENT_UA}`],
      }),
    ]);
  });

  afterAll(async () => {
    await recipientBrowser?.close();
    await browser?.close();
    await app?.stop();
  });

  let operatorSignedUp = false;

  /** Registers through the form, verifies the e-mail from the dev mailbox, and gets R$ 10,00 by Pix. */
  async function fundedOwner(owner: { name: string; email: string; password: string }): Promise<Page> {
    const page = await newPage(browser, app.baseURL);
    await register(page, owner);
    await page.waitForURL('**/dashboard');
    const verification = await waitForMail(app.baseURL, owner.email, /confirm/i);
    await page.goto(linkIn(verification, app.baseURL, 'verify-email'));
    await page.waitForURL('**/auth/email-verified**');
    // The footer identity (name, CNPJ/CPF, address) is required before the first campaign.
    await completeIdentity(page);

    await page.goto('/dashboard/my-balance');
    await page.getByRole('button', { name: 'Adicionar créditos' }).click();
    await page.getByLabel('Valor').fill('10,00');
    await page.getByRole('button', { name: 'Gerar Pix' }).click();
    await page.waitForURL('**/dashboard/my-balance/topups/**');
    // The operator confirms the payment by hand in /admin.
    const operator = await newPage(browser, app.baseURL);
    const firstVisit = !operatorSignedUp;
    if (operatorSignedUp) await signIn(operator, OPERATOR, OPERATOR_PASSWORD);
    else await register(operator, { name: 'Operação', email: OPERATOR, password: OPERATOR_PASSWORD });
    operatorSignedUp = true;
    await operator.waitForURL('**/dashboard');
    // The back office needs a verified e-mail.
    if (firstVisit) await verifyEmail(operator, app.baseURL, OPERATOR);
    await operator.goto('/admin');
    await operator.getByRole('tab', { name: 'Recargas pendentes' }).click();
    await operator.getByRole('button', { name: 'Confirmar pagamento' }).first().click();
    await operator.getByRole('button', { name: 'Continuar' }).click();
    await operator.getByText('Pagamento confirmado e creditado').waitFor();
    await operator.context().close();
    await page.getByTestId('topup-paid').waitFor({ timeout: 15_000 });
    // Only a verified sender may send: the shop's address, confirmed by its link.
    await confirmSenderAddress(page, app.baseURL, 'loja@exemplo.com.br');
    return page;
  }

  it('sign up → verify → Pix credit → list and contact → campaign → send → click → report → unsubscribe → extrato', async () => {
    const stamp = Date.now();
    const owner = { name: 'Paula Lima', email: `paula.${stamp}@exemplo.com.br`, password: 'senha-da-paula' };
    const recipientEmail = `cliente.${stamp}@exemplo.com.br`;
    const target = `${app.baseURL}/privacy-policy`;

    // 1. Sign up and verify the e-mail through the dev mailbox. 2. Credit by Pix, confirmed by the operator.
    const page = await fundedOwner(owner);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));

    // 3. A list and one contact in it.
    await page.goto('/dashboard/lists/new');
    await page.getByLabel('Nome da lista').fill('Clientes da loja');
    await page.getByRole('button', { name: 'Criar lista' }).click();
    await page.getByRole('heading', { name: 'Clientes da loja' }).waitFor();
    await page.goto('/dashboard/contacts');
    await page.getByRole('button', { name: 'Novo contato' }).click();
    const form = page.getByRole('dialog', { name: 'Novo contato' });
    await form.getByLabel('E-mail').fill(recipientEmail);
    await form.getByLabel('Nome', { exact: true }).fill('Joana Cliente');
    await form.getByLabel('Lista').selectOption({ label: 'Clientes da loja' });
    await form.getByRole('button', { name: 'Adicionar contato' }).click();
    await page.getByText('Contato adicionado').waitFor();

    // 4. The campaign: stepped form, a blank e-mail, then its HTML with a link and the unsubscribe link.
    await page.goto('/dashboard/campaigns/new');
    await page.getByLabel('Nome da campanha (só você vê)').fill('Novidades de novembro');
    await page.getByLabel('Assunto').fill('Novidades para você, {{ contato.nome }}');
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.waitForURL(/\/dashboard\/campaigns\/[0-9a-f-]+\/edit\?step=1$/);
    await page.getByLabel('E-mail do remetente').selectOption('loja@exemplo.com.br');
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByLabel('Enviar para Clientes da loja').check();
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByText('Começar do zero').click();
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByRole('button', { name: 'Salvar e revisar' }).click();
    await page.waitForURL(/\/view$/);
    const campaignId = page.url().split('/').at(-2) as string;

    await page.getByRole('link', { name: 'Modelo', exact: true }).click();
    await page.getByRole('tab', { name: 'Código HTML' }).click();
    await page
      .getByLabel('HTML do modelo')
      .fill(
        `<html><body><h1>Olá, {{ contato.nome }}!</h1><p>Chegaram as novidades de novembro.</p>` +
          `<p><a href="${target}">Ver as novidades</a></p>` +
          `<p style="font-size:12px"><a href="{{ link_descadastro }}">Descadastrar</a></p></body></html>`,
      );
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Modelo salvo').waitFor();

    // 5. Send now, confirm the cost, wait for "Enviada".
    await page.goto(`/dashboard/campaigns/${campaignId}/view`);
    await page.getByTestId('campaign-summary').getByText('R$ 0,005').first().waitFor();
    await page.getByRole('button', { name: 'Enviar agora' }).click();
    await page.getByRole('alertdialog').getByText('1 destinatário, custo de R$ 0,005').waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('Envio iniciado').waitFor();
    await page.getByText('Enviada', { exact: true }).first().waitFor({ timeout: 30_000 });

    // 6. The recipient opens the message in the dev mailbox and follows the content link (a tracked redirect).
    const recipient = await recipientBrowser.newContext({
      viewport: { width: 1280, height: 800 },
      locale: 'pt-BR',
      baseURL: app.baseURL,
    });
    const inbox = await recipient.newPage();
    const mail = await waitForMail(app.baseURL, recipientEmail, /Novidades para você, Joana Cliente/);
    await inbox.goto('/dev/mailbox');
    await inbox.getByRole('link', { name: 'Novidades para você, Joana Cliente' }).click();
    const body = inbox.frameLocator('iframe[title="Conteúdo HTML da mensagem"]');
    await body.getByText('Chegaram as novidades de novembro.').waitFor();
    const contentHref = await body.getByRole('link', { name: 'Ver as novidades' }).getAttribute('href');
    const unsubscribeHref = await body.getByRole('link', { name: 'Descadastrar' }).getAttribute('href');
    expect(contentHref, 'o link do conteúdo passa pelo rastreador de cliques').toMatch(
      new RegExp(`^${app.baseURL}/c/[A-Za-z0-9_-]+`),
    );
    expect(unsubscribeHref).toMatch(new RegExp(`^${app.baseURL}/u/[A-Za-z0-9_-]+`));
    // The text part carries the same unsubscribe link.
    expect(mail.text).toContain(unsubscribeHref);
    await inbox.goto(contentHref as string);
    expect(inbox.url()).toBe(target);
    await inbox
      .getByRole('heading', { name: /Política de privacidade/i })
      .first()
      .waitFor();

    // 7. The open and the click show in the campaign report: numbers, the per-link table, the chart.
    const deadline = Date.now() + 15_000;
    for (;;) {
      const current = await pageApi<{ opens: { uniqueHuman: number }; clicks: { unique: number } }>(
        page,
        `/api/campaigns/${campaignId}/report`,
      );
      if (current.opens.uniqueHuman === 1 && current.clicks.unique === 1) break;
      if (Date.now() > deadline) throw new Error(`abertura e clique não registrados: ${JSON.stringify(current)}`);
      await page.waitForTimeout(300);
    }
    await page.reload();
    const report = page.getByTestId('campaign-report');
    await report.waitFor();
    const linkRow = report.getByTestId('link-row').filter({ hasText: target });
    await linkRow.waitFor();
    expect(await linkRow.textContent()).toBe(`${target}11`);
    const numbers = report.getByTestId('report-numbers');
    expect(await numbers.getByText('Aberturas únicas').locator('..').textContent()).toContain('Aberturas únicas1');
    expect(await numbers.getByText('Cliques únicos').locator('..').textContent()).toContain('Cliques únicos1');
    await report.getByTestId('activity-summary').getByText('1 abertura e 1 clique', { exact: false }).waitFor();
    await report.getByTestId('activity-chart').locator('.recharts-surface').first().waitFor();
    await report.getByTestId('recipient-row').filter({ hasText: recipientEmail }).waitFor();
    const csvHref = await report.getByRole('link', { name: 'Exportar CSV por destinatário' }).getAttribute('href');
    expect(csvHref).toBe(`/api/campaigns/${campaignId}/report.csv`);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      report.getByRole('link', { name: 'Exportar CSV por destinatário' }).click(),
    ]);
    const csv = readFileSync((await download.path()) as string, 'utf8');
    expect(csv.split('\r\n')[0]).toBe(
      '\ufeffE-mail;Situação;Enviada em;Aberturas;Cliques;Última abertura;Último clique;Descadastrou;Devolução;Reclamação;Motivo de não envio',
    );
    expect(csv).toContain(`${recipientEmail};entregue;`);
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: join(RESULTS, 'campaign-report-1280.png'), fullPage: true });
    await page.setViewportSize({ width: 375, height: 800 });
    await page.waitForTimeout(300);
    expectNoOverflow(375, await page.evaluate(() => document.documentElement.scrollWidth));
    await page.screenshot({ path: join(RESULTS, 'campaign-report-375.png'), fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });

    // 8. The footer link: a confirmation page first (a GET never unsubscribes), then the confirmation — both in
    // the screen sweep at 1280 and 375 px (a recipient opens it on a phone as often as not).
    await inbox.goto(unsubscribeHref as string);
    await inbox.getByRole('heading', { name: 'Cancelar inscrição' }).waitFor();
    await inbox.screenshot({ path: join(RESULTS, 'unsubscribe-page-1280.png') });
    await inbox.setViewportSize({ width: 375, height: 800 });
    expect(await inbox.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await inbox.screenshot({ path: join(RESULTS, 'unsubscribe-page-375.png'), fullPage: true });
    await inbox.getByRole('button', { name: 'Confirmar cancelamento' }).click();
    await inbox
      .getByText(/cancelad/i)
      .first()
      .waitFor();
    expect(await inbox.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await inbox.screenshot({ path: join(RESULTS, 'unsubscribe-done-375.png'), fullPage: true });
    await inbox.setViewportSize({ width: 1280, height: 800 });
    await inbox.screenshot({ path: join(RESULTS, 'unsubscribe-done-1280.png') });
    await recipient.close();

    await page.goto('/dashboard/contacts');
    const row = page.getByRole('row').filter({ hasText: recipientEmail });
    await row.getByText('Descadastrado').waitFor();
    // The contact's drawer tells its history: one campaign received, opened, clicked, unsubscribed.
    await page.getByRole('button', { name: recipientEmail }).click();
    const counts = page.getByRole('dialog', { name: recipientEmail }).getByTestId('contact-activity-counts');
    await counts.waitFor();
    expect(await counts.textContent()).toBe('Campanhas recebidas1Aberturas1Cliques1Descadastros1Devoluções0');
    await page.screenshot({ path: join(RESULTS, 'contact-history-1280.png') });
    await page.keyboard.press('Escape');
    const campaignReport = await pageApi<{ unsubscribes: number; clicks: { unique: number } }>(
      page,
      `/api/campaigns/${campaignId}/report`,
    );
    expect(campaignReport).toMatchObject({ unsubscribes: 1, clicks: { unique: 1 } });

    // 9. Meu saldo: the campaign's reservation, release and send are one line of the extrato, named after it.
    await page.goto('/dashboard/my-balance');
    const campaignLine = page.getByRole('row').filter({ hasText: 'Novidades de novembro' });
    await campaignLine.getByText('Envio da campanha: 1 e-mails enviados', { exact: false }).waitFor();
    expect(await campaignLine.count()).toBe(1);
    expect(await page.getByText('Liberação da reserva', { exact: false }).count()).toBe(0);
    await page.getByTestId('balance').filter({ hasText: 'R$\u00a09,995' }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'balance-after-send-1280.png'), fullPage: true });

    // The home: the account's numbers and the recent campaigns chart.
    await page.goto('/dashboard');
    expect(await page.getByTestId('home-sent-month').textContent()).toBe('1');
    expect(await page.getByTestId('home-open-rate').textContent()).toBe('100%');
    await page.getByTestId('home-chart').locator('.recharts-surface').first().waitFor();
    await page.screenshot({ path: join(RESULTS, 'dashboard-home-chart-1280.png'), fullPage: true });

    // The chart at 375 px with five sent campaigns of long names: the names under the bars never overlap and the
    // page is not a pixel wider than the phone. Four more one-recipient campaigns, sent through the API.
    const chartList = await pageApi<{ id: string }>(page, '/api/lists', { name: 'Gráfico' });
    await pageApi(page, '/api/contacts', {
      email: `grafico.${stamp}@exemplo.com.br`,
      listIds: [chartList.id],
      legalBasis: 'consent',
    });
    const chartCampaigns: string[] = [];
    for (const name of ['Promoção de Black Friday', 'Dia das Mães com desconto', 'Natal da loja', 'Boas-vindas']) {
      const campaign = await pageApi<{ id: string }>(page, '/api/campaigns', {
        uuid: crypto.randomUUID(),
        name,
        subject: name,
        fromName: 'Loja',
        fromEmail: 'loja@exemplo.com.br',
        includeListIds: [chartList.id],
        template: '<p>Oi</p><p><a href="{{ link_descadastro }}">Descadastrar</a></p>',
      });
      await pageApi(page, `/api/campaigns/${campaign.id}/send`, {});
      chartCampaigns.push(campaign.id);
    }
    for (const id of chartCampaigns) await sentAtLeast(page, id, 1);
    await page.setViewportSize({ width: 375, height: 800 });
    // The home reads the campaigns' counters once: reload until the four new ones show as sent.
    // Recharts 3 draws the tick labels in their own layer (not inside .recharts-xAxis): the campaigns' names are
    // the labels that are not counts.
    const ticks = page
      .getByTestId('home-chart')
      .locator('.recharts-cartesian-axis-tick-value')
      .filter({ hasNotText: /^[\d.,\s]+$/ });
    for (const deadline = Date.now() + 30_000; ; await page.waitForTimeout(500)) {
      await page.goto('/dashboard');
      await page.getByTestId('home-chart').locator('.recharts-surface').first().waitFor();
      if ((await ticks.count()) === 5) break;
      if (Date.now() > deadline) throw new Error(`o gráfico mostra ${await ticks.count()} campanhas, esperava 5`);
    }
    const boxes = (await ticks.evaluateAll((nodes) => nodes.map((n) => n.getBoundingClientRect().toJSON()))) as Array<{
      left: number;
      right: number;
    }>;
    boxes.sort((a, b) => a.left - b.left);
    for (let i = 1; i < boxes.length; i++) {
      expect(boxes[i]?.left, `rótulo ${i + 1} do gráfico sobre o anterior`).toBeGreaterThanOrEqual(
        boxes[i - 1]?.right as number,
      );
    }
    for (const box of boxes) expect(box.right).toBeLessThanOrEqual(375);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.screenshot({ path: join(RESULTS, 'dashboard-home-chart-375.png'), fullPage: true });

    // A toast at 375 px sits inside the header bar: the page's title below it stays visible.
    await page.goto('/dashboard/lists/new');
    await page.getByLabel('Nome da lista').fill('Clientes do celular com um nome bem comprido');
    await page.getByRole('button', { name: 'Criar lista' }).click();
    const toast = page.getByRole('region', { name: 'Notificações' }).getByRole('status');
    await toast.waitFor();
    const title = page.getByRole('heading', { level: 1, name: 'Clientes do celular com um nome bem comprido' });
    await title.waitFor();
    // Measured where it rests: while its 180 ms entry animation runs it is still sliding up from 0.5rem lower.
    await toast.evaluate((node) => Promise.all(node.getAnimations().map((animation) => animation.finished)));
    const toastBox = await toast.boundingBox();
    const titleBox = await title.boundingBox();
    expect(toastBox?.y ?? 0).toBeGreaterThanOrEqual(0);
    expect((toastBox?.y ?? 0) + (toastBox?.height ?? 0), 'o aviso cabe na barra do topo (56 px)').toBeLessThanOrEqual(
      56,
    );
    expect(titleBox?.y ?? 0, 'o título da página fica abaixo do aviso').toBeGreaterThanOrEqual(
      (toastBox?.y ?? 0) + (toastBox?.height ?? 0),
    );
    await page.screenshot({ path: join(RESULTS, 'toast-375.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    expect(errors).toEqual([]);
    await page.context().close();
  }, 300_000);

  it('live progress: sent, remaining, rate and estimated end; pause, resume, cancel with confirmation', async () => {
    const stamp = Date.now();
    const page = await fundedOwner({
      name: 'Rui Costa',
      email: `rui.${stamp}@exemplo.com.br`,
      password: 'senha-do-rui',
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const list = await pageApi<{ id: string }>(page, '/api/lists', { name: 'Clientes antigos' });
    for (let i = 0; i < SLOW_RECIPIENTS; i++) {
      await pageApi(page, '/api/contacts', {
        email: `antigo${i}.${stamp}@exemplo.com.br`,
        listIds: [list.id],
        legalBasis: 'consent',
        consentSource: 'e2e',
      });
    }
    const campaign = await pageApi<{ id: string }>(page, '/api/campaigns', {
      uuid: crypto.randomUUID(),
      name: 'Liquidação de verão',
      subject: 'Liquidação de verão',
      fromEmail: 'loja@exemplo.com.br',
      includeListIds: [list.id],
      template: '<p>Descontos!</p><p><a href="{{ link_descadastro }}">Descadastrar</a></p>',
    });

    await page.goto(`/dashboard/campaigns/${campaign.id}/view`);
    await page.getByRole('button', { name: 'Enviar agora' }).click();
    await page.getByRole('alertdialog').getByText(`${SLOW_RECIPIENTS} destinatários, custo de R$ 0,30`).waitFor();
    await page.getByRole('button', { name: 'Continuar' }).click();
    const card = page.getByTestId('campaign-progress');
    await card.getByRole('heading', { name: 'Enviando…' }).waitFor();
    await card.getByText('Término estimado').waitFor();
    await card.getByText('e-mails por segundo').waitFor();
    await card.getByText(new RegExp(`de ${SLOW_RECIPIENTS} · \\d+%`)).waitFor();
    // The first messages go out before the pause, so the cancel below has something delivered to charge.
    const firstSent = await sentAtLeast(page, campaign.id, 1);
    await page.screenshot({ path: join(RESULTS, 'campaign-progress-1280.png') });

    // Pause: the engine stops claiming messages; the card says so and offers to resume.
    await card.getByRole('button', { name: 'Pausar envio' }).click();
    await card.getByRole('heading', { name: 'Envio pausado' }).waitFor();
    await page.getByText('Pausada', { exact: true }).first().waitFor();
    expect(await card.getByText('Término estimado').locator('..').textContent()).toContain('Pausado');
    const pausedAt = await pageApi<{ sent: number; remaining: number }>(page, `/api/campaigns/${campaign.id}/progress`);
    expect(pausedAt.remaining).toBeGreaterThan(0);
    await page.screenshot({ path: join(RESULTS, 'campaign-paused-1280.png') });
    await card.getByRole('button', { name: 'Retomar envio' }).click();
    await card.getByRole('heading', { name: 'Enviando…' }).waitFor();
    // Resumed: the engine claims again (more sent than at the pause, which may have let in-flight ones finish).
    await sentAtLeast(page, campaign.id, Math.max(firstSent, pausedAt.sent) + 1);

    // Cancel asks first; "Cancelar" in the dialog keeps sending.
    await card.getByRole('button', { name: 'Cancelar envio' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancelar o envio?' });
    await dialog.getByText('não receberão mais', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect((await pageApi<{ status: string }>(page, `/api/campaigns/${campaign.id}`)).status).toBe('sending');
    await card.getByRole('button', { name: 'Cancelar envio' }).click();
    await dialog.getByRole('button', { name: 'Continuar' }).click();
    await page.getByText('Cancelada', { exact: true }).first().waitFor({ timeout: 20_000 });
    await card.waitFor({ state: 'detached' });
    // The messages in flight at the cancel finish, then the reservation is settled once.
    let settled: Array<{ kind: string; description: string; emailCount: number | null; amountMillis: number }> = [];
    for (const deadline = Date.now() + 20_000; Date.now() < deadline; await page.waitForTimeout(500)) {
      const { entries } = await pageApi<{
        entries: Array<{
          kind: string;
          description: string;
          emailCount: number | null;
          amountMillis: number;
          campaignId: string | null;
        }>;
      }>(page, '/api/billing/statement');
      settled = entries.filter((e) => e.campaignId === campaign.id);
      if (settled.some((e) => e.kind === 'send')) break;
    }
    const report = await pageApi<{ delivered: number; pending: number }>(page, `/api/campaigns/${campaign.id}/report`);
    expect(report.pending).toBe(0);
    expect(report.delivered).toBeGreaterThan(0);
    expect(report.delivered).toBeLessThan(SLOW_RECIPIENTS);
    expect(settled.find((e) => e.kind === 'send')?.emailCount).toBe(report.delivered);
    await page.reload();
    await page.getByTestId('report-numbers').getByText('Entregues', { exact: true }).waitFor();
    await page.screenshot({ path: join(RESULTS, 'campaign-cancelled-1280.png'), fullPage: true });

    // The unsent part of the reservation comes back: the campaign's one line in the extrato charges only what was
    // delivered.
    await page.goto('/dashboard/my-balance');
    const cancelledLine = page.getByRole('row').filter({ hasText: 'Liquidação de verão' });
    await cancelledLine
      .getByText(`Envio da campanha: ${report.delivered} e-mails enviados`, { exact: false })
      .waitFor();
    // R$ 0,005 per delivered e-mail, net of the reservation and its release.
    expect(settled.map((e) => e.amountMillis)).toEqual([-report.delivered * 5]);
    expect(await cancelledLine.textContent()).toContain(formatBRL(-report.delivered * 5));
    expect(errors).toEqual([]);
    await page.context().close();
  }, 180_000);
});
