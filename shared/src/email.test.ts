import { describe, expect, it } from 'vitest';
import { isValidEmail, normaliseEmail } from './email';

describe('normaliseEmail', () => {
  it('trims and lower-cases the whole address', () => {
    expect(normaliseEmail('  Joao.Silva@Exemplo.COM.br ')).toBe('joao.silva@exemplo.com.br');
    expect(normaliseEmail('<ana@x.com>')).toBe('ana@x.com');
  });
  it('converts IDN domains to punycode', () => {
    expect(normaliseEmail('joao@conceição.com.br')).toBe('joao@xn--conceio-2wa9a.com.br');
  });
  it('rejects invalid addresses', () => {
    for (const bad of [
      '',
      'semarroba',
      'a@',
      '@b.com',
      'a@b',
      'a b@c.com',
      'a..b@c.com',
      '.a@c.com',
      'a@-b.com',
      'a@b.c',
    ]) {
      expect(isValidEmail(bad), bad).toBe(false);
    }
    expect(isValidEmail('a+tag@sub.exemplo.com')).toBe(true);
  });
});
