import { describe, expect, it } from 'vitest';
import { signToken, verifyToken } from './signed-token';

describe('signed, expiring link tokens', () => {
  const secret = 'segredo-de-teste-segredo-de-teste';
  const issued = new Date('2026-11-26T10:00:00Z');

  it('names its id until its lifetime is over, then nothing; never for another purpose or once altered', () => {
    const token = signToken(secret, 'inscricao', 'pedido-1', 3_600, issued);
    expect(verifyToken(secret, 'inscricao', token, new Date(issued.getTime() + 3_600_000))).toBe('pedido-1');
    expect(verifyToken(secret, 'inscricao', token, new Date(issued.getTime() + 3_601_000))).toBeNull();
    expect(verifyToken(secret, 'privacidade', token, issued)).toBeNull();
    const altered = `${token.slice(0, -1)}${token.endsWith('x') ? 'y' : 'x'}`;
    expect(verifyToken(secret, 'inscricao', altered, issued)).toBeNull();
    expect(verifyToken('outro-segredo-outro-segredo-outro', 'inscricao', token, issued)).toBeNull();
  });
});
