import { describe, expect, it } from 'vitest';
import { greetingName } from './dashboard-home-page';

describe('greetingName', () => {
  it("greets by the person's first name, and by nothing when there is no name", () => {
    expect(greetingName('Ana Souza')).toBe('Ana');
    expect(greetingName('  Maria   Teste ')).toBe('Maria');
    expect(greetingName('   ')).toBe('');
  });
});
