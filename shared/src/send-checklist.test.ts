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
