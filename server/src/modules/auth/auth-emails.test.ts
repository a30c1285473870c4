import { describe, expect, it } from 'vitest';
import {
  changeEmailEmail,
  invitationEmail,
  magicLinkEmail,
  resetPasswordEmail,
  verificationEmail,
} from './auth-emails';

const url = 'https://carteiro.test/link?token=abc';
const EMAILS = {
  verificação: verificationEmail({ name: 'Ana', url }),
  'link de acesso': magicLinkEmail({ url, expiresInMinutes: 15 }),
  'nova senha': resetPasswordEmail({ name: 'Ana', url, expiresInMinutes: 60 }),
  'troca de e-mail': changeEmailEmail({ name: 'Ana', newEmail: 'nova@example.com', url }),
  convite: invitationEmail({ inviterName: 'Bia', accountName: 'Padaria', role: 'admin', url, expiresInDays: 7 }),
};

describe('the identity e-mails', () => {
  it.each(Object.entries(EMAILS))(
    '%s: the text part speaks of the link it prints, never of a button',
    (_name, mail) => {
      expect(mail.text).not.toMatch(/botão|clique no botão|clicando/i);
      expect(mail.text).toContain(url);
    },
  );

  it('the HTML part keeps its button wording', () => {
    expect(EMAILS.verificação.html).toContain('clicando no botão abaixo');
    expect(EMAILS.verificação.text).toContain('confirme que este endereço é seu abrindo o link abaixo.');
  });
});
