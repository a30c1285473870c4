import { describe, expect, it } from 'vitest';
import { senderDomainCreateSchema } from './sender-identities';

const parse = (domain: string) => senderDomainCreateSchema.safeParse({ domain });

describe('a sending domain as people paste it', () => {
  it('keeps only the domain of a pasted address (scheme, path, trailing dot, case)', () => {
    expect(parse('https://Loja.com.br/contato')).toMatchObject({ success: true, data: { domain: 'loja.com.br' } });
    expect(parse('loja.com.br.')).toMatchObject({ success: true, data: { domain: 'loja.com.br' } });
  });

  it('refuses "www." with the domain to use, in pt-BR', () => {
    const result = parse('https://www.loja.com.br/');
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'Use o domínio sem "www.": loja.com.br (os e-mails sairão de endereços como contato@loja.com.br).',
    );
  });
});
