import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type RunningApp, startApp } from './app';
import { launchBrowser } from './browser';

/** Where the browser suite leaves its screenshots, for people to look at (nothing compares them here). */
export const RESULTS = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test-results');

export interface AppAndBrowser {
  readonly app: RunningApp;
  readonly browser: Browser;
}

/**
 * The one set-up every browser file shares: the app, started as a user would with `env` added, and Chromium,
 * both up before the file's first test and stopped after its last.
 */
export function useAppAndBrowser(env: Record<string, string> = {}): AppAndBrowser {
  let app: RunningApp | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    mkdirSync(RESULTS, { recursive: true });
    [app, browser] = await Promise.all([startApp(env), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });
  return {
    get app() {
      if (!app) throw new Error('the app did not start (see beforeAll)');
      return app;
    },
    get browser() {
      if (!browser) throw new Error('Chromium did not start (see beforeAll)');
      return browser;
    },
  };
}
