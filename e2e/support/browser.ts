import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Chromium from CHROMIUM_PATH, else Debian's /usr/bin/chromium; null when neither exists. */
export const CHROMIUM_PATH: string | null = (() => {
  const candidate = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
  return existsSync(candidate) ? candidate : null;
})();

export const SKIP_REASON = 'Chromium não encontrado: defina CHROMIUM_PATH ou instale chromium';

if (!CHROMIUM_PATH) console.warn(`[e2e] ${SKIP_REASON} — os testes de navegador serão pulados.`);

/** Headless Chromium with the flags the project machine needs (root, closed network). */
export function launchBrowser(): Promise<Browser> {
  if (!CHROMIUM_PATH) throw new Error(SKIP_REASON);
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
