import { describe, expect, it } from 'vitest';
import { missingSendChecks, sendChecklist } from './send-checklist';

const ready = {
  campaignId: 'c1',
  subject: 'Oferta',
  includeListIds: ['l1'],
  html: '<a href="{{ link_descadastro }}">Sair</a>',
  fromEmail: 'loja@padaria.com.br',
  account: { legalName: 'Padaria Ltda', taxId: '11222333000181', address: 'Rua A, 1' },
};

describe('sendChecklist: the sender', () => {
  it('is ready only when the From passes the sending rule', () => {
    expect(missingSendChecks({ ...ready, isSenderVerified: true })).toEqual([]);
    const [missing, ...rest] = missingSendChecks({ ...ready, isSenderVerified: false });
    expect(rest).toEqual([]);
    expect(missing?.key).toBe('sender');
    expect(missing?.errorCode).toBe('sender_not_verified');
    expect(missing?.problem).toBe(
      'O remetente loja@padaria.com.br não está verificado. Confirme o endereço ou verifique o domínio em Configurações → Remetentes e domínios.',
    );
    expect(missing?.fix.href).toBe('/dashboard/settings?aba=remetentes');
  });

  it('checks the account default when the campaign has no From, and asks for one when neither exists', () => {
    const noFrom = { ...ready, fromEmail: null };
    const withDefault = { ...noFrom, account: { ...ready.account, defaultFromEmail: 'Vendas@Loja.com.br' } };
    expect(missingSendChecks({ ...withDefault, isSenderVerified: false })[0]?.problem).toContain('vendas@loja.com.br');
    const [none] = missingSendChecks(noFrom);
    expect(none?.problem).toBe('Informe o e-mail do remetente antes de enviar.');
    expect(none?.errorCode).toBe('campaign_not_ready');
  });

  it('does not fail the item while the verification is unknown (the web still asking)', () => {
    const sender = sendChecklist(ready).find((item) => item.key === 'sender');
    expect(sender?.ok).toBe(true);
  });
});

describe('sendChecklist: the texts by case', () => {
  it('names the case of each item and fills the problem from the one pt-BR table', () => {
    const empty = {
      ...ready,
      subject: ' ',
      includeListIds: [],
      html: '<p>Oi</p>',
      fromEmail: null,
      account: { legalName: '', taxId: null, address: 'Rua A, 1' },
      isBalanceSufficient: false,
    };
    const items = sendChecklist(empty);
    expect(items.map((item) => item.case)).toEqual([
      'subject',
      'audience_unchosen',
      'content',
      'unsubscribe',
      'identity',
      'sender_missing',
      'balance',
    ]);
    const identity = items.find((item) => item.key === 'identity');
    expect(identity?.identityMissing).toEqual(['legalName', 'taxId']);
    expect(identity?.problem).toBe(
      'Complete a identificação da empresa que aparece no rodapé de todo e-mail (nome da empresa (razão social), CNPJ ou CPF): é exigida antes do primeiro envio, como pede o código de autorregulamentação (CAPEM).',
    );
    expect(items.map((item) => item.label)).toEqual([
      'Assunto',
      'Destinatários',
      'Conteúdo',
      'Link de descadastro',
      'Identificação no rodapé',
      'Remetente',
      'Saldo',
    ]);
    expect(sendChecklist({ ...ready, recipients: 0 }).find((item) => item.key === 'audience')).toMatchObject({
      case: 'audience_empty',
      ok: false,
      fix: { href: '/dashboard/contacts', text: 'Adicionar contatos' },
    });
  });
});
