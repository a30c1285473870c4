import { describe, expect, it } from 'vitest';
import { fillSample } from '@/lib/sample-liquid';
import { customFieldTags } from './merge-tags';

describe('fillSample (client preview of library templates)', () => {
  it('fills name, e-mail, custom fields and defaults', () => {
    const html = '<p>Olá, {{ contato.nome | default: "cliente" }} ({{contato.email}}) de {{ contato.cidade }}</p>';
    expect(fillSample(html)).toBe('<p>Olá, Maria Silva (maria.silva@exemplo.com.br) de São Paulo</p>');
    expect(fillSample(html, { email: 'a@b.com', name: null, fields: {} })).toBe('<p>Olá, cliente (a@b.com) de </p>');
  });

  it('escapes contact data so it cannot inject markup', () => {
    expect(fillSample('{{ contato.nome }}', { email: 'x@y.z', name: '<img src=x onerror=alert(1)>', fields: {} })).toBe(
      '&lt;img src=x onerror=alert(1)&gt;',
    );
  });

  it('points the unsubscribe link at a harmless anchor', () => {
    expect(fillSample('<a href="{{ link_descadastro }}">Sair</a>')).toBe('<a href="#">Sair</a>');
    // The account's own data, and no Liquid tag left on screen.
    const account = { name: 'Padaria', legalName: 'Padaria Ltda', taxId: '11222333000181', address: 'Rua A' };
    expect(
      fillSample(
        '{{ conta.razao_social }}{% if conta.documento != "" %} · {{ conta.documento }}{% endif %}',
        undefined,
        account,
      ),
    ).toBe('Padaria Ltda · CNPJ 11.222.333/0001-81');
  });
});

describe('customFieldTags', () => {
  it('offers only names Liquid can address', () => {
    expect(customFieldTags(['cidade', 'data nasc', 'empresa_2']).map((t) => t.tag)).toEqual([
      '{{ contato.cidade }}',
      '{{ contato.empresa_2 }}',
    ]);
  });
});
