import { describe, expect, it } from 'vitest';
import { contactCreateSchema } from './audience';

const messageFor = (email: string) => contactCreateSchema.safeParse({ email }).error?.issues[0]?.message;

describe('a contact e-mail refused by the form and the API', () => {
  it('says why, as the import report does', () => {
    expect(messageFor('maria.gmail.com')).toBe('E-mail inválido: falta o @.');
    expect(messageFor('maria@gmail')).toBe('E-mail inválido: domínio sem terminação (falta ".com", ".com.br"…).');
    expect(messageFor('jo ao@gmail.com')).toBe('E-mail inválido: tem espaço no meio do endereço.');
  });

  it('accepts and normalises a valid address', () => {
    expect(contactCreateSchema.parse({ email: ' Maria@Gmail.com ' }).email).toBe('maria@gmail.com');
  });
});
