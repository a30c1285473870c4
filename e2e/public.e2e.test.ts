import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { freePort } from './support/app';
import { CHROMIUM_PATH, SKIP_REASON } from './support/browser';
import { RESULTS, useAppAndBrowser } from './support/suite';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// Runs with or without Chromium (not in the child run it starts itself).
describe.skipIf(process.env.CARTEIRO_E2E_CHILD === '1')('browser suite on a machine without Chromium', () => {
  it('skips the browser tests, passes, and says plainly how to enable them', () => {
    const run = spawnSync(
      process.execPath,
      [
        join(ROOT, 'node_modules/vitest/vitest.mjs'),
        'run',
        '--config',
        'e2e/vitest.config.ts',
        'e2e/public.e2e.test.ts',
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, CHROMIUM_PATH: '/nao/existe/chromium', CARTEIRO_E2E_CHILD: '1', NO_COLOR: '1' },
        timeout: 120_000,
      },
    );
    const output = `${run.stdout}${run.stderr}`;
    expect(run.status, output).toBe(0);
    expect(output).toContain(SKIP_REASON);
    expect(output).toContain('CHROMIUM_PATH');
    expect(output).toMatch(/Tests\s+\d+ skipped/);
    expect(output).not.toMatch(/\d+ (passed|failed)/);
  });
});

/** Starts `node server/dist/main.js all` on DATA_DIR and resolves once /readyz answers 200. */
async function startServer(dataDir: string) {
  const port = await freePort();
  const child = spawn(process.execPath, ['server/dist/main.js', 'all'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      MAIL_CATCHER_PORT: '0',
      BOUNCE_SMTP_PORT: '0',
      NODE_ENV: 'test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`o servidor saiu com código ${child.exitCode}:\n${output}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ready) return { child, exited, output: () => output };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`o servidor não ficou pronto:\n${output}`);
}

describe.skipIf(process.env.CARTEIRO_E2E_CHILD === '1' || Boolean(process.env.E2E_BASE_URL))(
  'graceful shutdown of the built server',
  () => {
    it.each(['SIGTERM', 'SIGINT'] as const)(
      'on %s stops with exit code 0 and frees the data directory for the next start',
      async (signal) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'carteiro-shutdown-'));
        try {
          const first = await startServer(dataDir);
          first.child.kill(signal);
          const code = await Promise.race([
            first.exited,
            new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 20_000)),
          ]);
          expect(code, first.output()).toBe(0);
          expect(first.output()).toContain('shutting down');
          // The lock went with the process: the same directory starts again at once.
          const second = await startServer(dataDir);
          second.child.kill('SIGTERM');
          expect(await second.exited, second.output()).toBe(0);
        } finally {
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
    );
  },
);

describe.skipIf(!CHROMIUM_PATH)('public pages in Chromium', () => {
  const suite = useAppAndBrowser();

  async function open(path: string, width = 1280, height = 800): Promise<Page> {
    const context = await suite.browser.newContext({ viewport: { width, height }, locale: 'pt-BR' });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${suite.app.baseURL}${path}`, { waitUntil: 'networkidle' });
    expect(errors, 'erros de JavaScript na página').toEqual([]);
    return page;
  }

  it('loads the landing page in pt-BR', async () => {
    const page = await open('/');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.locator('html').getAttribute('lang')).toBe('pt-BR');
    expect(await page.getByText('enviar e-mail não precisa ser um monstro').count()).toBeGreaterThan(0);
    expect(await page.getByRole('link', { name: 'Entrar' }).getAttribute('href')).toBe('/auth/login');
    expect(await page.getByRole('link', { name: 'Crie a sua conta já!' }).first().getAttribute('href')).toBe(
      '/auth/register',
    );
    expect(await page.getByRole('link', { name: 'Política de privacidade' }).getAttribute('href')).toBe(
      '/privacy-policy',
    );
    const year = String(new Date().getFullYear());
    expect(await page.locator('footer').textContent()).toContain(`© ${year}`);
    expect(await page.locator('footer a[href^="mailto:"]').count()).toBe(1);
    await page.context().close();
  });

  it('calculator shows pt-BR currency (R$ 5,00 for 1000, R$ 61,73 for 12.345 e-mails) and rejects negatives', async () => {
    const page = await open('/');
    const input = page.getByTestId('calculator-input');
    const cost = page.getByTestId('calculator-cost');
    await input.fill('1000');
    expect((await cost.textContent())?.replace(/\u00a0/g, ' ')).toBe('R$ 5,00');
    await input.fill('12345');
    expect((await cost.textContent())?.replace(/\u00a0/g, ' ')).toBe('R$ 61,73');
    expect((await page.getByTestId('calculator-exact').textContent())?.replace(/\u00a0/g, ' ')).toContain('R$ 61,725');
    await input.fill('');
    expect((await cost.textContent())?.replace(/\u00a0/g, ' ')).toBe('R$ 0,00');
    // Written as a Brazilian writes it: "1.000" is a thousand; "1,5" is refused, never read as 15.
    await input.fill('1.000');
    expect((await cost.textContent())?.replace(/\u00a0/g, ' ')).toBe('R$ 5,00');
    await input.fill('1,5');
    expect(await cost.textContent()).toBe('—');
    await input.fill('-5');
    expect(await cost.textContent()).not.toContain('NaN');
    expect(await page.getByRole('alert').textContent()).toContain('igual ou maior que zero');
    await page.context().close();
  });

  it('a deep link to /dashboard/campaigns/new serves the SPA and sends an anonymous visitor to login', async (ctx) => {
    const session = await fetch(`${suite.app.baseURL}/api/session`);
    if (session.status === 404) {
      console.warn('[e2e] GET /api/session ainda não existe no servidor: teste do redirecionamento pulado.');
      ctx.skip();
    }
    expect(session.status).toBe(401);
    const response = await fetch(`${suite.app.baseURL}/dashboard/campaigns/new`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<div id="root">');
    const page = await open('/dashboard/campaigns/new');
    await page.waitForURL((url) => url.pathname === '/auth/login', { timeout: 15_000 });
    expect(new URL(page.url()).searchParams.get('next')).toBe('/dashboard/campaigns/new');
    await page.getByRole('heading', { name: 'Entrar no Carteiro' }).waitFor();
    await page.reload({ waitUntil: 'networkidle' });
    await page.getByRole('heading', { name: 'Entrar no Carteiro' }).waitFor();
    await page.context().close();
  });

  it('/privacy-policy "Voltar" goes home', async () => {
    const page = await open('/privacy-policy');
    await page.getByRole('heading', { name: 'Política de privacidade', level: 1 }).waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    for (const phrase of [
      'descadastro em um clique',
      'portabilidade',
      'revogar o consentimento',
      'provedores de envio',
    ]) {
      expect(text).toContain(phrase);
    }
    await page.getByRole('link', { name: 'Voltar', exact: true }).first().click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.context().close();
  });

  it('unknown routes show the pt-BR 404 page', async () => {
    const page = await open('/nao-existe');
    await page.getByRole('heading', { name: 'Página não encontrada' }).waitFor();
    await page.context().close();
  });

  it.each([
    [1280, 'landing-1280.png'],
    [375, 'landing-375.png'],
    [360, 'landing-360.png'],
  ])('landing at %i px has no horizontal overflow (screenshot %s)', async (width, file) => {
    const page = await open('/', width, 800);
    await page.getByTestId('calculator-input').waitFor();
    // "Preços" is in the top bar on large screens only.
    expect(await page.locator('header a[href="/#precos"]').isVisible()).toBe(width >= 640);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(RESULTS, file), fullPage: true });
    await page.context().close();
  });

  it.each([375, 360])('privacy policy at %i px has no horizontal overflow', async (width) => {
    const page = await open('/privacy-policy', width, 800);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await page.screenshot({ path: join(RESULTS, `privacy-${width}.png`), fullPage: true });
    await page.context().close();
  });
});
