import { describe, expect, it } from 'vitest';

// web/src/test/setup.ts: any console.error during a test throws, so React warnings and unexpected errors fail it.
describe('console.error guard (web tests)', () => {
  it('turns a console.error into a thrown error that fails the test', () => {
    expect(() => console.error('algo deu errado', 42)).toThrow(
      'console.error chamado durante o teste: algo deu errado 42',
    );
  });
});
