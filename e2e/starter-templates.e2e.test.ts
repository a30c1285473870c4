import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pixelmatch from 'pixelmatch';
import type { Browser } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildScope, compileCampaign, renderMessage } from '../server/src/modules/templates/render-message';
import { STARTER_TEMPLATES } from '../server/src/modules/templates/starter-templates';
import { CHROMIUM_PATH, launchBrowser } from './support/browser';

/**
 * Every starter template as a recipient sees it (rendered by the real Liquid renderer with sample data), in
 * Chromium at 600 px and 375 px, light — and dark at 600 px, where the page asks for it — compared with the
 * stored screenshots in `e2e/screenshots/starters/`. A small tolerance absorbs anti-aliasing; a changed layout,
 * colour or text fails. After an intended change: `UPDATE_SCREENSHOTS=1` rewrites them (look at them before
 * committing).
 */
const STORED = resolve(dirname(fileURLToPath(import.meta.url)), 'screenshots', 'starters');
const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'test-results', 'starters');
const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';
/** Share of pixels allowed to differ (anti-aliasing of text edges). */
const MAX_DIFF_RATIO = 0.005;

const SHOTS: Array<{ width: number; scheme: 'light' | 'dark' }> = [
  { width: 600, scheme: 'light' },
  { width: 375, scheme: 'light' },
  { width: 600, scheme: 'dark' },
];

function render(html: string, subject: string): string {
  const scope = buildScope(
    { email: 'maria.silva@exemplo.com.br', name: 'Maria Silva', fields: {} },
    {
      name: 'Padaria Pão Quente',
      legalName: 'Padaria Pão Quente Ltda',
      taxId: '11222333000181',
      address: 'Rua das Flores, 100 — Recife/PE, 50000-000',
    },
    { unsubscribeUrl: 'https://carteiro.exemplo/u/token', browserUrl: 'https://carteiro.exemplo/v/token' },
  );
  return renderMessage(compileCampaign({ subject, html }), scope).html;
}

describe.skipIf(!CHROMIUM_PATH)('starter templates in Chromium (600 and 375 px, light and dark)', () => {
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    if (UPDATE) mkdirSync(STORED, { recursive: true });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('has at least 12 starters', () => {
    expect(STARTER_TEMPLATES.length).toBeGreaterThanOrEqual(12);
  });

  it.each(STARTER_TEMPLATES.map((s) => [s.key, s] as const))('%s looks as stored and fits', async (key, starter) => {
    const html = render(starter.html, starter.subject);
    expect(html).not.toMatch(/\{\{|\{%/);
    expect(html).toContain('CNPJ 11.222.333/0001-81');
    for (const { width, scheme } of SHOTS) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      const page = await context.newPage();
      // Offline: a starter loads nothing from anywhere.
      const requests: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      await page.setContent(html, { waitUntil: 'load' });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `${key} a ${width} px`).toBeLessThanOrEqual(width);
      expect(requests.filter((url) => !url.startsWith('data:') && url !== 'about:blank')).toEqual([]);
      const shot = PNG.sync.read(await page.screenshot({ fullPage: true }));
      await context.close();
      const name = `${key}-${width}-${scheme}.png`;
      writeFileSync(join(RESULTS, name), PNG.sync.write(shot));
      const storedPath = join(STORED, name);
      if (UPDATE) {
        writeFileSync(storedPath, PNG.sync.write(shot));
        continue;
      }
      expect(existsSync(storedPath), `${name} guardado (rode com UPDATE_SCREENSHOTS=1)`).toBe(true);
      const stored = PNG.sync.read(readFileSync(storedPath));
      expect(`${shot.width}×${shot.height}`, name).toBe(`${stored.width}×${stored.height}`);
      const diff = new PNG({ width: shot.width, height: shot.height });
      const differing = pixelmatch(shot.data, stored.data, diff.data, shot.width, shot.height, { threshold: 0.1 });
      if (differing > 0) writeFileSync(join(RESULTS, `diff-${name}`), PNG.sync.write(diff));
      expect(differing / (shot.width * shot.height), name).toBeLessThanOrEqual(MAX_DIFF_RATIO);
    }
  });
});
