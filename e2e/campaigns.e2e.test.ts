import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makePng } from '../server/src/modules/uploads/test-images';
import { CHROMIUM_PATH } from './support/browser';
import { confirmSenderAddress } from './support/journeys';
import { pageApi } from './support/page-api';
import { signUpAndOpen } from './support/session';
import { RESULTS, useAppAndBrowser } from './support/suite';

/** `YYYY-MM-DD` of a date in São Paulo. */
function spDay(date: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(date);
}

describe.skipIf(!CHROMIUM_PATH)('templates and campaigns journey in Chromium', () => {
  const suite = useAppAndBrowser();

  it('builds a template, previews on mobile, test-sends, schedules a campaign, drags it on the calendar, opens the viewer', async () => {
    const { page, context } = await signUpAndOpen(suite.browser, suite.app.baseURL, {
      path: '/dashboard',
      verified: true,
    });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const consoleErrors: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    // GrapesJS (+ newsletter preset) is its own chunk, fetched only by the editor routes.
    const builderChunk = /\/assets\/visual-builder-[^/]+\.js$/;
    const list = await pageApi<{ id: string }>(page, '/api/lists', { name: 'Clientes VIP' });
    const contact = await pageApi<{ id: string }>(page, '/api/contacts', {
      email: 'ana.souza@example.com',
      name: 'Ana Souza',
      listIds: [list.id],
      legalBasis: 'consent',
      consentSource: 'e2e',
    });
    expect(contact.id).toBeTruthy();

    // The pt-BR starters are responsive: nothing overflows at 375 px (phone) or 600 px (desktop column).
    const starters = await pageApi<{ items: Array<{ key: string; html: string }> }>(page, '/api/templates/starters');
    expect(starters.items.length).toBeGreaterThanOrEqual(12);
    const sizing = await context.newPage();
    for (const starter of starters.items) {
      for (const width of [375, 600]) {
        await sizing.setViewportSize({ width, height: 800 });
        await sizing.setContent(starter.html);
        const box = await sizing.evaluate(() => ({
          scroll: document.documentElement.scrollWidth,
          container: (document.querySelector('.container') as HTMLElement).getBoundingClientRect().width,
        }));
        expect(box.scroll, `${starter.key} a ${width} px`).toBeLessThanOrEqual(width);
        expect(box.container, `${starter.key} a ${width} px`).toBeLessThanOrEqual(Math.min(width, 600));
      }
    }
    await sizing.close();

    // Template library → new from the blank starter → visual builder.
    await page.goto(`${suite.app.baseURL}/dashboard/templates`);
    await page.getByText('Nenhum modelo ainda').waitFor();
    await page.getByRole('button', { name: 'Novo modelo' }).click();
    await page.getByRole('button', { name: 'Usar este' }).nth(1).waitFor();
    await page.screenshot({ path: join(RESULTS, 'templates-starters-1280.png') });
    expect(requested.filter((url) => builderChunk.test(url))).toEqual([]);
    await page.getByRole('button', { name: 'Usar este' }).first().click();
    await page.getByTestId('visual-builder').waitFor();
    expect(requested.some((url) => builderChunk.test(url))).toBe(true);
    const canvas = page.frameLocator('.gjs-frame');
    const greeting = canvas.getByText('Olá,', { exact: false }).first();
    await greeting.waitFor({ timeout: 30_000 });
    // The builder's own panels speak pt-BR and it loads nothing from another host (no icon font, no CDN).
    const blockLabels = (await page.locator('[data-block]').allTextContents()).map((l) => l.trim());
    expect(blockLabels).toEqual(expect.arrayContaining(['Seção de 1 coluna', 'Botão', 'Divisor', 'Texto', 'Imagem']));
    expect(
      requested.filter(
        (url) => !url.startsWith(suite.app.baseURL) && !url.startsWith('data:') && !url.startsWith('about:'),
      ),
    ).toEqual([]);
    expect(requested.filter((url) => /fontawesome/i.test(url))).toEqual([]);
    await page.screenshot({ path: join(RESULTS, 'template-builder-pt-br-1280.png') });
    await page.getByLabel('Nome do modelo').fill('Boas-vindas');
    // A field goes in at the caret of the text being edited (double click opens the text).
    await greeting.dblclick();
    await page.keyboard.press('End');
    await page.getByLabel('Inserir campo').selectOption({ label: 'E-mail do contato' });
    await page.screenshot({ path: join(RESULTS, 'template-editor-1280.png') });
    expect(consoleErrors.filter((e) => /Content Security Policy|font-awesome|cdnjs/i.test(e))).toEqual([]);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await page.getByText('Modelo salvo').waitFor();
    // The builder's project is stored beside the HTML, so re-opening the editor keeps the design.
    const templateId = page.url().split('/').at(-1) as string;
    const saved = await pageApi<{ html: string; builderProject: { pages?: unknown[] } | null }>(
      page,
      `/api/templates/${templateId}`,
    );
    expect(saved.html).toContain('{{ contato.email }}');
    expect(saved.builderProject?.pages?.length).toBeGreaterThan(0);
    await page.reload();
    await page.getByTestId('visual-builder').waitFor();
    // Re-opened, the field reads as a chip, never as raw Liquid.
    await canvas
      .locator('[data-liquid="{{ contato.email }}"]', { hasText: 'E-mail do contato' })
      .waitFor({ timeout: 30_000 });

    // Code mode keeps the merge tag; preview on mobile fills sample data.
    await page.getByRole('tab', { name: 'Código HTML' }).click();
    const code = await page.getByLabel('HTML do modelo').inputValue();
    expect(code).toContain('{{ contato.email }}');
    expect(code).toContain('link_descadastro');
    // A Liquid mistake is refused at save time with its line, in pt-BR; fixing it saves.
    const area = page.getByLabel('HTML do modelo');
    await area.fill(`${code}\n{{ contato.nomee }}`);
    await page.getByRole('button', { name: 'Salvar' }).click();
    const problem = page.getByRole('alert').filter({ hasText: 'Linha' });
    await problem.waitFor();
    expect(await problem.textContent()).toContain('contato.nomee');
    await area.fill(code);
    await page.getByRole('button', { name: 'Salvar' }).click();
    await problem.waitFor({ state: 'detached' });
    await page.getByRole('tab', { name: 'Pré-visualizar' }).click();
    await page.getByRole('button', { name: 'Celular (375 px)' }).click();
    const frame = page.getByTestId('preview-frame');
    expect(await frame.getAttribute('sandbox')).toBe('');
    expect(await frame.evaluate((el) => el.getBoundingClientRect().width)).toBe(375);
    await page
      .frameLocator('[data-testid="preview-frame"]')
      .getByText('Maria Silva', { exact: false })
      .first()
      .waitFor();
    await page.screenshot({ path: join(RESULTS, 'template-preview-mobile-1280.png') });

    // An image uploaded from the builder's asset manager goes to file storage and the e-mail points at its
    // public URL (never base64).
    await page.getByRole('tab', { name: 'Código HTML' }).click();
    const withImage = (await area.inputValue()).replace(
      '</body>',
      '<img id="foto" alt="foto" src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" style="width:120px;height:80px"></body>',
    );
    await area.fill(withImage);
    await page.getByRole('tab', { name: 'Visual', exact: true }).click();
    await canvas.locator('img#foto').dblclick({ timeout: 30_000 });
    await page
      .locator('.gjs-am-file-uploader input[type=file]')
      .setInputFiles({ name: 'foto.png', mimeType: 'image/png', buffer: makePng(40, 20) });
    const asset = page.locator('.gjs-am-asset-image', { hasText: 'foto.png' }).first();
    await asset.waitFor();
    await asset.dblclick();
    await page.getByRole('button', { name: 'Salvar' }).click();
    let withUpload = { html: '' };
    for (let tries = 0; tries < 50 && !withUpload.html.includes('/uploads/'); tries++) {
      await page.waitForTimeout(200);
      withUpload = await pageApi<{ html: string }>(page, `/api/templates/${templateId}`);
    }
    const uploaded = withUpload.html.match(/src="([^"]+\/uploads\/[0-9a-f]{32}\.png)"/)?.[1];
    expect(uploaded, 'a imagem do e-mail aponta para o armazenamento').toMatch(
      new RegExp(`^${suite.app.baseURL}/uploads/`),
    );
    expect(withUpload.html).not.toContain('data:image/png');
    const image = await page.request.get(uploaded as string);
    expect(image.status()).toBe(200);
    expect(image.headers()['content-type']).toBe('image/png');

    // Campaign: stepped form saving the draft, template from the library. Its From must be a verified sender.
    await confirmSenderAddress(page, suite.app.baseURL, 'loja@example.com');
    await page.goto(`${suite.app.baseURL}/dashboard/campaigns`);
    await page.getByText('Nenhuma campanha ainda').waitFor();
    await page.getByRole('link', { name: 'Nova campanha' }).click();
    await page.getByLabel('Nome da campanha (só você vê)').fill('Promoção de março');
    await page.getByLabel('Assunto').fill('Olá, {{ contato.nome }}: novidades');
    await page.getByLabel('Pré-cabeçalho').fill('Só esta semana');
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.waitForURL(/\/dashboard\/campaigns\/[0-9a-f-]+\/edit\?step=1$/);
    await page.getByLabel('E-mail do remetente').selectOption('loja@example.com');
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByLabel('Enviar para Clientes VIP').check();
    await page.screenshot({ path: join(RESULTS, 'campaign-form-1280.png') });
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByText('Modelo: Boas-vindas').click();
    await page.getByRole('button', { name: 'Salvar e continuar' }).click();
    await page.getByRole('button', { name: 'Salvar e revisar' }).click();
    await page.waitForURL(/\/view$/);
    const campaignId = page.url().split('/').at(-2) as string;
    const summary = page.getByTestId('campaign-summary');
    await summary.getByText('R$ 0,005').first().waitFor();
    expect(await summary.textContent()).toContain('Destinatários1');
    // With no balance, the page's checklist and the send dialog say so BEFORE any "Continuar", with a link to
    // add credit (the server would refuse too).
    await page.getByTestId('send-checklist').getByText('Saldo insuficiente para este envio.').waitFor();
    await page.getByRole('button', { name: 'Enviar agora' }).click();
    const missingDialog = page.getByRole('alertdialog');
    await missingDialog.getByText('Falta pouco para enviar').waitFor();
    expect(await missingDialog.getByRole('link', { name: 'Adicionar créditos' }).getAttribute('href')).toBe(
      '/dashboard/my-balance',
    );
    expect(await missingDialog.getByRole('button', { name: 'Continuar' }).count()).toBe(0);
    await page.screenshot({ path: join(RESULTS, 'send-missing-dialog-1280.png') });
    await missingDialog.getByRole('button', { name: 'Fechar' }).click();
    expect((await pageApi<{ status: string }>(page, `/api/campaigns/${campaignId}`)).status).toBe('draft');
    await page.screenshot({ path: join(RESULTS, 'campaign-view-1280.png'), fullPage: true });

    // The campaign's own template: preview with Ana, test-send, read it in the dev mailbox.
    await page.getByRole('link', { name: 'Modelo', exact: true }).click();
    await page.getByTestId('visual-builder').waitFor();
    await page.getByRole('tab', { name: 'Pré-visualizar' }).click();
    await page.getByLabel('Dados da pré-visualização').selectOption({ label: 'Ana Souza <ana.souza@example.com>' });
    await page.getByRole('button', { name: 'Celular (375 px)' }).click();
    await page
      .frameLocator('[data-testid="preview-frame"]')
      .getByText('ana.souza@example.com', { exact: false })
      .first()
      .waitFor();
    await page.getByLabel('Até 5 e-mails').fill('teste@example.com');
    await page.getByRole('button', { name: 'Enviar teste' }).click();
    await page.getByText('Teste enviado para 1 endereço').waitFor();
    const mailbox = await pageApi<{ messages: Array<{ id: number; subject: string; to: string }> }>(
      page,
      '/api/dev/mailbox',
    );
    const test = mailbox.messages.find((m) => m.subject.includes('Ana Souza'));
    expect(test?.subject).toContain('[TESTE]');
    const detail = await pageApi<{ html?: string }>(page, `/api/dev/mailbox/${test?.id}`);
    expect(JSON.stringify(detail)).toContain('Ana Souza');
    // …and read it as a person would, in /dev/mailbox: the contact's name filled in the body.
    await page.goto(`${suite.app.baseURL}/dev/mailbox`);
    await page.getByRole('link', { name: test?.subject ?? '' }).click();
    const body = page.frameLocator('iframe[title="Conteúdo HTML da mensagem"]');
    await body.getByText('Olá, Ana Souza!').waitFor();
    await body.getByText('ana.souza@example.com', { exact: false }).first().waitFor();

    // Schedule for D at 10:00, see it on the calendar, drag to D+1.
    const day = new Date(Date.now() + 2 * 86_400_000);
    const next = new Date(day.getTime() + 86_400_000);
    await page.goto(`${suite.app.baseURL}/dashboard/campaigns/${campaignId}/view`);
    await page.getByLabel('Data e hora do envio').fill(`${spDay(day)}T10:00`);
    await page.getByRole('button', { name: 'Agendar', exact: true }).click();
    await page.getByTestId('scheduled-at').waitFor();

    await page.goto(`${suite.app.baseURL}/dashboard/campaigns/calendar`);
    const event = page.locator('.fc-event', { hasText: 'Promoção de março' });
    await page.locator('.fc-daygrid-day').first().waitFor();
    if ((await page.locator(`td[data-date="${spDay(day)}"]`).count()) === 0)
      await page.locator('.fc-next-button').click();
    await event.waitFor();
    await page.screenshot({ path: join(RESULTS, 'calendar-1280.png') });
    const from = await event.boundingBox();
    const to = await page.locator(`td[data-date="${spDay(next)}"] .fc-daygrid-day-frame`).boundingBox();
    if (!from || !to) throw new Error('calendário sem posições');
    await page.mouse.move(from.x + 10, from.y + from.height / 2);
    await page.mouse.down();
    await page.mouse.move(from.x + 30, from.y + from.height / 2 + 5, { steps: 5 });
    await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2, { steps: 15 });
    await page.mouse.up();
    await page.getByText('Campanha reagendada').waitFor();
    const moved = await pageApi<{ scheduledAt: string }>(page, `/api/campaigns/${campaignId}`);
    expect(spDay(new Date(moved.scheduledAt))).toBe(spDay(next));
    expect(new Date(moved.scheduledAt).toISOString().slice(11, 16)).toBe('13:00');
    await page.locator(`td[data-date="${spDay(next)}"] .fc-event`).click();
    await page.waitForURL(new RegExp(`/dashboard/campaigns/${campaignId}/view$`));

    await page.goto(`${suite.app.baseURL}/dashboard/campaigns/calendar`);
    await page.getByRole('button', { name: 'Semana' }).click();
    await page.screenshot({ path: join(RESULTS, 'calendar-week-1280.png') });

    // The public template viewer: sandboxed frame with the campaign's HTML.
    await page.goto(`${suite.app.baseURL}/campaign/${campaignId}/template-viewer`);
    const viewer = page.locator('iframe[sandbox=""]');
    await viewer.waitFor();
    await page.frameLocator('iframe[sandbox=""]').getByText('Descadastrar').first().waitFor();
    // Generic without a token: merge tags fall back to their defaults.
    await page.frameLocator('iframe[sandbox=""]').getByText('Olá, cliente!').waitFor();

    // Sender HTML that tries to run script stays inert in the viewer (sandboxed, opaque origin): had the script
    // or the onerror handler run, they would have written into the frame's own document.
    // (The viewer shows only campaigns recipients have or will have: this one is scheduled.)
    const hostile = await pageApi<{ id: string }>(page, '/api/campaigns', {
      uuid: crypto.randomUUID(),
      name: 'Hostil',
      subject: 'Hostil',
      fromEmail: 'loja@example.com',
      includeListIds: [list.id],
      template:
        '<p>Conteúdo hostil</p>' +
        '<script>document.body.insertAdjacentHTML("beforeend", "<p>script executou</p>")</script>' +
        '<img src="/nao-existe.png" onerror="document.body.insertAdjacentHTML(\'beforeend\', \'<p>onerror executou</p>\')">' +
        '<a href="{{ link_descadastro }}">Descadastrar</a>',
    });
    await pageApi(page, `/api/campaigns/${hostile.id}/schedule`, {
      scheduledAt: new Date(Date.now() + 3 * 86_400_000).toISOString(),
    });
    await page.goto(`${suite.app.baseURL}/campaign/${hostile.id}/template-viewer`);
    const hostileFrame = page.frameLocator('iframe[sandbox=""]');
    await hostileFrame.getByText('Conteúdo hostil').waitFor();
    await page.waitForTimeout(500);
    expect(await hostileFrame.getByText('executou').count()).toBe(0);

    // An unknown id: the pt-BR 404 page.
    await page.goto(`${suite.app.baseURL}/campaign/${crypto.randomUUID()}/template-viewer`);
    await page.getByRole('heading', { name: 'Página não encontrada' }).waitFor();

    // Phones.
    await page.setViewportSize({ width: 375, height: 800 });
    for (const [path, name] of [
      ['/dashboard/campaigns', 'campaigns-375'],
      [`/dashboard/campaigns/${campaignId}/view`, 'campaign-view-375'],
      ['/dashboard/campaigns/calendar', 'calendar-375'],
      ['/dashboard/templates', 'templates-375'],
      [`/dashboard/campaigns/${campaignId}/template`, 'campaign-template-375'],
      ['/dashboard/campaigns/new', 'campaign-new-375'],
    ] as const) {
      await page.goto(`${suite.app.baseURL}${path}`, { waitUntil: 'networkidle' });
      await page.screenshot({ path: join(RESULTS, `${name}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${suite.app.baseURL}/dashboard/campaigns`, { waitUntil: 'networkidle' });
    await page.screenshot({ path: join(RESULTS, 'campaigns-1280.png') });
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000); // the longest journey of the suite (sign-up with its e-mail confirmation, the builder, the calendar)
});
