import { describe, expect, it } from 'vitest';
import { describeEmailProblem, isValidEmail, normaliseEmail } from './email';

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

describe('describeEmailProblem', () => {
  it.each([
    ['', 'E-mail vazio'],
    ['   ', 'E-mail vazio'],
    ['maria silva@example.com', 'E-mail inválido: tem espaço no meio do endereço'],
    ['maria.example.com', 'E-mail inválido: falta o @'],
    ['maria@@example.com', 'E-mail inválido: tem mais de um @'],
    ['maria@example@com.br', 'E-mail inválido: tem mais de um @'],
    ['@example.com', 'E-mail inválido: falta o nome antes do @'],
    ['maria@', 'E-mail inválido: falta o domínio depois do @ (ex.: gmail.com)'],
    [
      'joão@example.com',
      'E-mail inválido: acento ou caractere especial antes do @ (a maioria dos provedores não aceita)',
    ],
    ['maria..silva@example.com', 'E-mail inválido: ponto no início, no fim ou repetido antes do @'],
    ['maria,silva@example.com', 'E-mail inválido: caractere não permitido antes do @ (",")'],
    ['maria@gmail', 'E-mail inválido: domínio sem terminação (falta ".com", ".com.br"…)'],
    ['maria@gmail..com', 'E-mail inválido: domínio com ponto repetido ou no início'],
    ['maria@gmail.c', 'E-mail inválido: terminação do domínio inválida (".c")'],
    ['maria@gmail.123', 'E-mail inválido: terminação do domínio inválida (".123")'],
    [
      'maria@gm_ail.com',
      'E-mail inválido: domínio com caractere não permitido (use só letras, números, ponto e hífen)',
    ],
  ])('%j → %s', (text, reason) => {
    expect(describeEmailProblem(text)).toBe(reason);
  });

  it('says nothing exactly when normaliseEmail accepts the address', () => {
    for (const text of ['maria@example.com', ' Maria@Example.COM ', '<ana@padaria.com.br>', 'jose@açaí.com.br']) {
      expect(normaliseEmail(text)).not.toBeNull();
      expect(describeEmailProblem(text)).toBeNull();
    }
  });
});
