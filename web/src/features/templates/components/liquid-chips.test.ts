import { identityFooterDisplayLines, identityFooterTable } from '@carteiro/shared';
import { describe, expect, it } from 'vitest';
import { EMAIL_BLOCKS } from './email-blocks';
import { CHIP_ATTRIBUTE, chipHtml, chipLabel, liquidToChips, restoreLiquid } from './liquid-chips';

const account = {
  name: 'Padaria Pão Quente',
  legalName: 'Padaria Pão Quente Ltda',
  taxId: '11222333000181',
  address: 'Rua das Flores, 100',
};

describe('liquidToChips', () => {
  it('turns every Liquid piece of the text into a chip that keeps it, and leaves attributes alone', () => {
    const html =
      '<p>Olá, {{ contato.nome | default: "cliente" }}! {% if contato.cidade %}De {{ contato.cidade }}{% endif %}</p><a href="{{ link_descadastro }}">Sair</a>';
    const doc = new DOMParser().parseFromString(liquidToChips(html, account), 'text/html');
    const chips = Array.from(doc.querySelectorAll(`[${CHIP_ATTRIBUTE}]`));
    expect(chips.map((c) => c.getAttribute(CHIP_ATTRIBUTE))).toEqual([
      '{{ contato.nome | default: "cliente" }}',
      '{% if contato.cidade %}De {{ contato.cidade }}{% endif %}',
    ]);
    expect(chips.map((c) => c.textContent)).toEqual(['Nome do contato', 'Trecho personalizado']);
    expect(doc.body.textContent).not.toMatch(/\{\{|\{%/);
    expect(doc.querySelector('a')?.getAttribute('href')).toBe('{{ link_descadastro }}');
  });

  it('shows the account data for conta.* and a readable name for the other fields', () => {
    expect(chipLabel('{{ conta.razao_social }}', account)).toBe('Padaria Pão Quente Ltda');
    expect(chipLabel('{{ conta.cnpj }}', account)).toBe('CNPJ 11.222.333/0001-81');
    expect(chipLabel('{{ contato.email }}')).toBe('E-mail do contato');
    expect(chipLabel('{{ contato.data_nascimento }}')).toBe('Campo: data_nascimento');
    expect(chipLabel('{{ link_navegador }}')).toBe('Link para ver no navegador');
  });

  it('leaves HTML without Liquid untouched', () => {
    expect(liquidToChips('<p>Sem campos</p>')).toBe('<p>Sem campos</p>');
  });
});

describe('restoreLiquid', () => {
  it('undoes the escaping serialisers apply inside Liquid, and only there', () => {
    expect(restoreLiquid('<p>&quot;x&quot; {{ contato.nome | default: &quot;cliente&quot; }} &amp;</p>')).toBe(
      '<p>&quot;x&quot; {{ contato.nome | default: "cliente" }} &amp;</p>',
    );
    expect(restoreLiquid('{% if conta.documento != &quot;&quot; %}')).toBe('{% if conta.documento != "" %}');
  });

  it('gives back the Liquid of a chip made for it', () => {
    const tag = '{{ contato.nome | default: "cliente" }}';
    const doc = new DOMParser().parseFromString(chipHtml(tag), 'text/html');
    expect(doc.querySelector(`[${CHIP_ATTRIBUTE}]`)?.getAttribute(CHIP_ATTRIBUTE)).toBe(tag);
  });
});

describe('the identity footer', () => {
  it('saves as Liquid with the formatted document, and shows the real data in the editor', () => {
    const saved = identityFooterTable();
    expect(saved).toContain('{{ conta.razao_social }}');
    expect(saved).toContain('{{ conta.documento }}');
    expect(saved).toContain('{{ link_descadastro }}');
    const shown = identityFooterDisplayLines(account);
    expect(shown).toContain('Padaria Pão Quente Ltda · CNPJ 11.222.333/0001-81');
    expect(shown).not.toMatch(/\{\{|\{%/);
    expect(identityFooterDisplayLines({ ...account, taxId: null, address: null })).toContain(
      'CNPJ ou CPF (complete em Configurações)',
    );
  });
});

describe('EMAIL_BLOCKS', () => {
  it('insert pt-BR content with pictures from Carteiro itself', () => {
    const all = EMAIL_BLOCKS.map((block) => block.content('https://app.carteiro.com.br')).join('\n');
    expect(all).not.toMatch(/Lorem|ipsum|Insert|Title here|via\.placeholder/);
    for (const src of all.match(/src="[^"]+"/g) ?? [])
      expect(src).toMatch(/^src="https:\/\/app\.carteiro\.com\.br\/email\//);
    expect(new Set(EMAIL_BLOCKS.map((b) => b.id)).size).toBe(EMAIL_BLOCKS.length);
  });
});
