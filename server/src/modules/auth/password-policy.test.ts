import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS_LIST } from './common-passwords';
import { assertPasswordAllowed, isCommonPassword } from './password-policy';

describe('password policy', () => {
  it('ships a list of thousands of common passwords, all of the minimum length or more, lower-cased', () => {
    const entries = COMMON_PASSWORDS_LIST.split('\n');
    expect(entries.length).toBeGreaterThan(10_000);
    expect(entries.every((p) => p.length >= 8 && p === p.toLowerCase())).toBe(true);
  });

  it('finds common passwords case-insensitively and lets an unusual one through', () => {
    expect(isCommonPassword('12345678')).toBe(true);
    expect(isCommonPassword('PASSWORD')).toBe(true);
    expect(isCommonPassword('senha123')).toBe(true);
    expect(isCommonPassword('padaria-pão-quente-da-esquina')).toBe(false);
  });

  it('checks only the paths and fields that set a password', () => {
    expect(() => assertPasswordAllowed('/sign-up/email', { password: 'qwertyuiop' })).toThrow(/muito comum/);
    expect(() => assertPasswordAllowed('/change-password', { newPassword: 'qwertyuiop' })).toThrow(/muito comum/);
    expect(() => assertPasswordAllowed('/reset-password', { newPassword: 'qwertyuiop' })).toThrow(/muito comum/);
    // Signing in with an old common password still works (the check is on setting one).
    expect(() => assertPasswordAllowed('/sign-in/email', { password: 'qwertyuiop' })).not.toThrow();
    expect(() => assertPasswordAllowed('/sign-up/email', { password: 'bolo-de-fubá-da-vó' })).not.toThrow();
  });
});
