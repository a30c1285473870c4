import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

// The project runs files one after another in a shared module graph (isolate: false, web/vitest.config.ts):
// each file starts with the app's modules evaluated afresh, so module state (the loaded catalogues, the public
// configuration, the API client's settings) never carries from one file to the next.
vi.resetModules();

// Tests run in pt-BR (jsdom reports en-US as the browser language).
localStorage.setItem('carteiro.locale', 'pt-BR');

// Any console.error during a test fails it (React warnings, unexpected errors): they are bugs, not noise.
beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    throw new Error(`console.error chamado durante o teste: ${args.map(String).join(' ')}`);
  });
});

afterEach(() => {
  cleanup();
});
