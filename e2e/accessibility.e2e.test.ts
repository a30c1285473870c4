import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM_PATH } from './support/browser';
import { pageApi } from './support/page-api';
import { signUpAndOpen } from './support/session';
import { useAppAndBrowser } from './support/suite';

/**
 * axe-core (WCAG 2.1 A and AA rules) on every public and dashboard page, each with data on it, at 1280 px:
 * no serious or critical violation. The script is evaluated through the DevTools protocol, which the page's
 * CSP (`script-src 'self'`) does not govern, so the app runs with its real headers.
 */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = (await page.evaluate(async () => {
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: unknown[] }> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
      // The sender's own e-mail inside preview frames is not our interface.
      exclude: [['iframe[data-testid="preview-frame"]']],
    });
    return result.violations;
  })) as Violation[];
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
}

describe.skipIf(!CHROMIUM_PATH)('accessibility: axe-core on every page, with data', () => {
  const suite = useAppAndBrowser();

  it('public pages', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'pt-BR' });
    const page = await context.newPage();
    const found: Record<string, string[]> = {};
    for (const path of ['/', '/privacy-policy', '/auth/login', '/auth/register', '/auth/forgot-password']) {
      await page.goto(`${suite.app.baseURL}${path}`);
      await page.locator('main, [role="main"], form').first().waitFor();
      await page.waitForLoadState('networkidle');
      const problems = await seriousViolations(page);
      if (problems.length) found[path] = problems;
    }
    await context.close();
    expect(found).toEqual({});
  });

  it('dashboard pages', async () => {
    const { page } = await signUpAndOpen(suite.browser, suite.app.baseURL);
    const list = await pageApi<{ id: string }>(page, '/api/lists', { name: 'Clientes VIP' });
    await pageApi(page, '/api/contacts', {
      email: 'ana@example.com',
      name: 'Ana Souza',
      listIds: [list.id],
      legalBasis: 'consent',
      consentSource: 'e2e',
    });
    const template = await pageApi<{ id: string }>(page, '/api/templates', {
      name: 'Boas-vindas',
      html: '<p>Olá, {{ contato.nome }}</p><a href="{{ link_descadastro }}">Sair</a>',
    });
    const campaign = await pageApi<{ id: string }>(page, '/api/campaigns', {
      uuid: crypto.randomUUID(),
      name: 'Promoção de Natal',
      subject: '{{ contato.nome | default: "Cliente" }}, presentes de Natal',
      fromName: 'Loja',
      fromEmail: 'vendas@loja.com.br',
      includeListIds: [list.id],
      template: '<p>Oi</p><a href="{{ link_descadastro }}">Sair</a>',
    });
    const paths = [
      '/dashboard',
      '/dashboard/campaigns',
      '/dashboard/campaigns/new',
      '/dashboard/campaigns/calendar',
      `/dashboard/campaigns/${campaign.id}/view`,
      `/dashboard/campaigns/${campaign.id}/edit`,
      '/dashboard/templates',
      `/dashboard/templates/${template.id}`,
      '/dashboard/lists',
      `/dashboard/lists/${list.id}`,
      '/dashboard/contacts',
      '/dashboard/segments',
      '/dashboard/automations',
      '/dashboard/my-balance',
      '/dashboard/api',
      '/dashboard/settings',
    ];
    const found: Record<string, string[]> = {};
    for (const path of paths) {
      await page.goto(`${suite.app.baseURL}${path}`);
      await page
        .locator('main h1, main h2')
        .first()
        .waitFor({ timeout: 30_000 })
        .catch(() => {
          throw new Error(`${path}: a página não mostrou um título`);
        });
      await page.waitForLoadState('networkidle');
      if (path.startsWith('/dashboard/templates/')) {
        await page.locator('[data-testid="visual-builder"][data-ready]').waitFor({ timeout: 30_000 });
      }
      const problems = await seriousViolations(page);
      if (problems.length) found[path] = problems;
    }
    expect(found).toEqual({});
  }, 240_000);
});
