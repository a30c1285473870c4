import { describe, expect, it } from 'vitest';
import '@/lib/i18n/app-messages';
import { loadLocale, translate } from '@/lib/i18n';
import { ptBRApp } from '@/lib/i18n/pt-BR-app';
import { attemptsLabel, eventLabel } from './labels';

const pt = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
  translate('pt-BR', key, params);
const en = (key: Parameters<typeof translate>[1], params?: Record<string, string | number>) =>
  translate('en', key, params);

describe('webhook labels', () => {
  it('says "1 tentativa" and "3 tentativas", never "tentativa(s)"', async () => {
    await loadLocale('en');
    expect(attemptsLabel(pt, 'pt-BR', 1)).toBe('1 tentativa');
    expect(attemptsLabel(pt, 'pt-BR', 3)).toBe('3 tentativas');
    expect(attemptsLabel(en, 'en', 1)).toBe('1 attempt');
    expect(attemptsLabel(en, 'en', 2)).toBe('2 attempts');
  });

  it('names events in the locale, and shows an unknown type as sent', async () => {
    await loadLocale('en');
    expect(eventLabel(pt, 'message.opened')).toBe('Mensagem aberta');
    expect(eventLabel(en, 'message.opened')).toBe('Message opened');
    expect(eventLabel(pt, 'webhook.test')).toBe('Evento de teste');
    expect(eventLabel(pt, 'message.future')).toBe('message.future');
  });

  it('explains what an endpoint is when there is none yet', () => {
    expect(ptBRApp['webhooks.emptyHint']).toMatch(/endereço \(URL\) do seu sistema/);
  });
});
