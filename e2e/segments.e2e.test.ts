import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { pageApi } from './support/page-api';
import { signUpAndOpen } from './support/session';
import { RESULTS, useAppAndBrowser } from './support/suite';

describe.skipIf(!CHROMIUM_PATH)('segments journey in Chromium', () => {
  const suite = useAppAndBrowser();

  it('builds a segment with E/OU conditions, sees its live count and first matches, saves it', async () => {
    const { page, context } = await signUpAndOpen(suite.browser, suite.app.baseURL, { path: '/privacy-policy' });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    const people: Array<[string, string, string]> = [
      ['ana', 'São Paulo', '120'],
      ['bia', 'Recife', '300'],
      ['caio', 'são paulo', '10'],
      ['duda', 'Curitiba', '80'],
    ];
    for (const [local, cidade, pontos] of people) {
      await pageApi(page, '/api/contacts', { email: `${local}@loja.com.br`, fields: { cidade, pontos } });
    }

    await page.goto(`${suite.app.baseURL}/dashboard/segments`);
    await page.getByText('Nenhum segmento ainda').waitFor();
    await page.getByRole('link', { name: 'Novo segmento' }).first().click();
    await page.getByLabel('Nome do segmento').fill('Paulistanos ou pontuadores');

    const count = page.getByTestId('segment-count');
    // The default condition (e-mail contém "") is incomplete: no count yet.
    await page.getByText('Complete as condições para ver a contagem.').waitFor();

    const first = page.getByTestId('segment-condition').first();
    await first.getByLabel('Campo').selectOption('custom:cidade');
    await first.getByLabel('Operador').selectOption('equals');
    await first.getByLabel('Valor').fill('SÃO PAULO');
    await page.waitForFunction(() => document.querySelector('[data-testid="segment-count"]')?.textContent === '2');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="segment-preview"]')?.textContent?.includes('caio@loja.com.br'),
    );

    // OU: or more than 200 points.
    await page.getByLabel('Contatos que atendem a').first().selectOption('any');
    await page.getByRole('button', { name: 'Adicionar condição' }).click();
    const second = page.getByTestId('segment-condition').nth(1);
    await second.getByLabel('Campo').selectOption('custom:pontos');
    await second.getByLabel('Operador').selectOption('number_gt');
    await second.getByLabel('Valor').fill('200');
    await page.waitForFunction(() => document.querySelector('[data-testid="segment-count"]')?.textContent === '3');
    expect(await count.textContent()).toBe('3');
    await page.waitForFunction(() =>
      document.querySelector('[data-testid="segment-preview"]')?.textContent?.includes('bia@loja.com.br'),
    );
    const preview = (await page.getByTestId('segment-preview').textContent()) ?? '';
    expect(preview).toContain('bia@loja.com.br');
    expect(preview).not.toContain('duda@loja.com.br');
    await page.screenshot({ path: join(RESULTS, 'segment-editor-1280.png'), fullPage: true });

    await page.getByRole('button', { name: 'Salvar segmento' }).click();
    await page.getByRole('heading', { name: 'Paulistanos ou pontuadores' }).waitFor();
    await page.getByRole('link', { name: 'Voltar para segmentos' }).click();
    await page.getByRole('link', { name: 'Paulistanos ou pontuadores' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
