import { cleanup } from '@testing-library/react';
import { afterEach, beforeEach, vi } from 'vitest';

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
