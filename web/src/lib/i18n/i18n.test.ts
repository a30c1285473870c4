import { ERROR_CODES, ERROR_MESSAGES_PT_BR } from '@carteiro/shared';
import { describe, expect, it } from 'vitest';
import { en } from './en';
import { ERROR_MESSAGES_EN } from './errors-en';
import { detectLocale, errorMessage, interpolate, loadLocale, translate } from './index';
import { ptBR as ptBRPublic } from './pt-BR';
import { ptBRApp } from './pt-BR-app';

/** The whole pt-BR catalogue: the public part (entry chunk) plus the app's part (loaded with the app chunks). */
const ptBR = { ...ptBRPublic, ...ptBRApp };

describe('catalogues', () => {
  it('pt-BR and en have exactly the same keys, none empty', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(ptBR).sort());
    for (const value of [...Object.values(ptBR), ...Object.values(en)]) expect(value.trim()).not.toBe('');
  });

  it('both locales use the same placeholders per key', () => {
    const placeholders = (s: string) => (s.match(/\{\w+\}/g) ?? []).sort();
    for (const key of Object.keys(ptBR) as Array<keyof typeof ptBR>) {
      expect(placeholders(en[key]), key).toEqual(placeholders(ptBR[key]));
    }
  });

  it('every error code has an English message', () => {
    expect(Object.keys(ERROR_MESSAGES_EN).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('pt-BR has the accented spec texts', () => {
    expect(ptBR['nav.pricing']).toBe('Preços');
    expect(ptBR['landing.pricing.cta']).toBe('Crie a sua conta já!');
    expect(ptBR['common.cancel']).toBe('Cancelar');
    expect(ptBR['common.continue']).toBe('Continuar');
    expect(en['common.cancel']).toBe('Cancel');
    expect(en['common.continue']).toBe('Continue');
  });
});

describe('t and error messages', () => {
  it('interpolates params', () => {
    expect(interpolate('© {year} Carteiro', { year: 2030 })).toBe('© 2030 Carteiro');
    expect(translate('pt-BR', 'landing.footer.rights', { year: 2030 })).toContain('2030');
  });

  it('maps error codes to the pt-BR table once a chunk that shows errors loads it, and to English once loaded', async () => {
    // Before: the landing chunk has no catalogue; the server's text, else the generic one, is shown.
    expect(errorMessage('pt-BR', 'wrong-password', 'texto do servidor')).toBe('texto do servidor');
    expect(errorMessage('pt-BR', 'wrong-password')).toBe(ERROR_MESSAGES_PT_BR.internal_error);
    await import('./errors-pt-BR');
    expect(errorMessage('pt-BR', 'wrong-password')).toBe(ERROR_MESSAGES_PT_BR['wrong-password']);
    await loadLocale('en');
    expect(errorMessage('en', 'wrong-password')).toBe('Wrong e-mail or password.');
    expect(translate('en', 'common.cancel')).toBe('Cancel');
    expect(errorMessage('pt-BR', 'SOMETHING_ELSE', 'texto do servidor')).toBe('texto do servidor');
  });
});

describe('detectLocale', () => {
  const storage = (value: string | null) => ({ getItem: () => value });
  it('uses the stored choice, else pt-BR whatever the browser language', () => {
    expect(detectLocale(storage('en'))).toBe('en');
    expect(detectLocale(storage(null))).toBe('pt-BR');
    expect(detectLocale(storage('xx'))).toBe('pt-BR');
  });
});
