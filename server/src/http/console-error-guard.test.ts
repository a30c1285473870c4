import { describe, expect, it, vi } from 'vitest';

// server/test/support/fail-on-console-error.ts: console.error is captured in every test and, when it was called,
// the test fails in afterEach with what was printed (asserting the failure itself would fail this test).
describe('console.error guard (server tests)', () => {
  it('is installed around every test', () => {
    expect(vi.isMockFunction(console.error)).toBe(true);
    expect(vi.mocked(console.error).mock.calls).toEqual([]);
  });
});
