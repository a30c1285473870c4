import { describe, expect, it } from 'vitest';
import { attemptsLabel, WEBHOOK_TEXTS } from './texts';

describe('webhook texts', () => {
  it('says "1 tentativa" and "3 tentativas", never "tentativa(s)"', () => {
    expect(attemptsLabel(WEBHOOK_TEXTS['pt-BR'], 1)).toBe('1 tentativa');
    expect(attemptsLabel(WEBHOOK_TEXTS['pt-BR'], 3)).toBe('3 tentativas');
    expect(attemptsLabel(WEBHOOK_TEXTS.en, 1)).toBe('1 attempt');
    expect(attemptsLabel(WEBHOOK_TEXTS.en, 2)).toBe('2 attempts');
  });

  it('explains what an endpoint is when there is none yet', () => {
    expect(WEBHOOK_TEXTS['pt-BR'].emptyHint).toMatch(/endereço \(URL\) do seu sistema/);
    expect(Object.keys(WEBHOOK_TEXTS.en).sort()).toEqual(Object.keys(WEBHOOK_TEXTS['pt-BR']).sort());
  });
});
