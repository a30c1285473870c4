import { identityFooterTable } from '@carteiro/shared';
import { describe, expect, it } from 'vitest';
import {
  buildScope,
  type CompiledCampaign,
  compileCampaign,
  htmlSourceToTextSource,
  plainPartOf,
  renderMessage,
} from './render-message';
import { STARTER_TEMPLATES } from './starter-templates';
import { assertHasUnsubscribeLink, validateTemplate } from './validate-template';

const account = {
  name: 'Padaria Pão Quente',
  address: 'Rua das Flores, 10 — São Paulo/SP',
  taxId: '11.222.333/0001-81',
};
const links = { unsubscribeUrl: 'https://carteiro.test/u/abc?x=1&y=2', browserUrl: 'https://carteiro.test/v/abc' };
const scope = (contact: { email: string; name?: string | null; fields?: Record<string, string> }) =>
  buildScope(contact, account, links, 'Promo');

describe('renderMessage', () => {
  const html = `<html><body>
<h1>Olá, {{ contato.nome | default: "cliente" }}!</h1>
<p>Sua cidade: {{ contato.cidade | default: "não informada" }}</p>
<p>{{ conta.nome }} · {{ conta.endereco }} · {{ conta.cnpj }}</p>
<a href="{{ link_descadastro }}">Descadastrar</a> <a href="{{ link_navegador }}">Ver no navegador</a>
</body></html>`;
  const compiled = compileCampaign({
    subject: '{{ contato.nome | default: "Cliente" }}, só hoje',
    preheader: 'Oi {{ contato.nome }}',
    html,
  });

  it('fills merge tags, custom fields, the account footer and both links', () => {
    const out = renderMessage(compiled, scope({ email: 'ana@x.com', name: 'Ana', fields: { cidade: 'Recife' } }));
    expect(out.subject).toBe('Ana, só hoje');
    expect(out.html).toContain('<h1>Olá, Ana!</h1>');
    expect(out.html).toContain('Sua cidade: Recife');
    expect(out.html).toContain('Padaria Pão Quente · Rua das Flores, 10 — São Paulo/SP · 11.222.333/0001-81');
    expect(out.html).toContain('href="https://carteiro.test/u/abc?x=1&amp;y=2"');
    expect(out.html).toContain('href="https://carteiro.test/v/abc"');
    expect(out.html).toMatch(/<body><div style="display:none[^>]*>Oi Ana/);
  });

  it('formats each account’s document once per tax id, each scope with its own (a cache by id)', () => {
    const conta = (taxId: string | null) => buildScope({ email: 'a@x.com' }, { ...account, taxId }, links).conta;
    for (let round = 0; round < 2; round++) {
      expect(conta('11222333000181')).toMatchObject({
        cnpj: '11.222.333/0001-81',
        documento: 'CNPJ 11.222.333/0001-81',
      });
      expect(conta('52998224725')).toMatchObject({ cnpj: '529.982.247-25', documento: 'CPF 529.982.247-25' });
      expect(conta(null)).toMatchObject({ cnpj: '', documento: '' });
    }
  });

  it('prints the stored CNPJ digits formatted, and the identity footer with its kind of document', () => {
    const footer = compileCampaign({ subject: 'x', html: identityFooterTable() });
    const out = renderMessage(
      footer,
      buildScope(
        { email: 'ana@x.com' },
        { ...account, legalName: 'Padaria Pão Quente Ltda', taxId: '11222333000181' },
        links,
      ),
    );
    expect(out.html).toContain('Padaria Pão Quente Ltda · CNPJ 11.222.333/0001-81');
    expect(out.html).not.toContain('11222333000181');
    expect(out.text).toContain('CNPJ 11.222.333/0001-81');
    const cpf = renderMessage(footer, buildScope({ email: 'a@x.com' }, { ...account, taxId: '52998224725' }, links));
    expect(cpf.html).toContain('CPF 529.982.247-25');
    const none = renderMessage(footer, buildScope({ email: 'a@x.com' }, { ...account, taxId: null }, links));
    expect(none.html).toContain('Padaria Pão Quente<br>');
  });

  it('falls back to default: when a value is missing or empty', () => {
    const out = renderMessage(compiled, scope({ email: 'x@x.com', name: null }));
    expect(out.subject).toBe('Cliente, só hoje');
    expect(out.html).toContain('Olá, cliente!');
    expect(out.html).toContain('Sua cidade: não informada');
  });

  it('escapes an XSS-looking name in the HTML and keeps it plain in subject and text', () => {
    const name = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const out = renderMessage(compiled, scope({ email: 'x@x.com', name }));
    expect(out.html).not.toContain('<script>');
    expect(out.html).not.toContain('<img src=x');
    expect(out.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(out.subject).toBe(`${name}, só hoje`);
    expect(out.text).toContain(`Olá, ${name}!`);
  });

  it('derives the text part from the HTML, links included, headings not upper-cased', () => {
    const out = renderMessage(compiled, scope({ email: 'ana@x.com', name: 'Ana' }));
    expect(out.text).toContain('Olá, Ana!');
    expect(out.text).toContain('Descadastrar [https://carteiro.test/u/abc?x=1&y=2]');
    expect(out.text).not.toContain('<');
    expect(out.text).not.toContain('Oi Ana'); // the hidden preheader is HTML-only
  });

  it('keeps Liquid tags intact through the HTML → text conversion', () => {
    expect(htmlSourceToTextSource('<h1>{{ contato.nome | default: "x y z" }}</h1>')).toBe(
      '{{ contato.nome | default: "x y z" }}',
    );
  });

  it('cannot read files or run forever', () => {
    expect(() => compileCampaign({ subject: '', html: '{% include "/etc/passwd" %}' })).toThrow(/não é permitida/);
    const loop = compileCampaign({ subject: '', html: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' });
    expect(() => renderMessage(loop, scope({ email: 'x@x.com' }))).toThrow();
  });

  it('renders every starter template with the unsubscribe link and the account identity', () => {
    for (const starter of STARTER_TEMPLATES) {
      expect(validateTemplate({ subject: starter.subject, html: starter.html }, [])).toEqual([]);
      assertHasUnsubscribeLink(starter.html);
      const out = renderMessage(
        compileCampaign({ subject: starter.subject, html: starter.html }),
        scope({ email: 'a@x.com', name: 'Bia' }),
      );
      expect(out.html).toContain(links.unsubscribeUrl.replace('&', '&amp;'));
      expect(out.html).toContain(account.name);
      expect(out.html).toContain(account.address);
      expect(out.html).toContain('max-width: 620px');
    }
  });
});

describe('renderMessage: plain parts (bare {{ name.name }} outputs) printed without liquidjs', () => {
  /** The same sources rendered by liquidjs alone: the oracle. */
  const byLiquid = (compiled: CompiledCampaign): CompiledCampaign => ({ ...compiled, plain: undefined });
  const hostile = `<b>&"'</b> {{ x }} {% if %}`;
  const scopes: Record<string, unknown>[] = [
    { ...scope({ email: 'ana@x.com', name: 'Ana', fields: { cidade: 'Recife' } }), pedido: '123', valor: 149.9 },
    { ...scope({ email: 'b@x.com', name: hostile }), pedido: hostile, valor: 0, dados: { pedido: -0, ok: true } },
    // Values liquidjs prints its own way: the part goes through liquidjs, with the same answer.
    { pedido: ['a', 'b', ['c']], valor: { a: 1 }, dados: { pedido: null, ok: false }, contato: 'texto' },
    {
      pedido: 2 ** 70,
      valor: 1e21,
      dados: Object.assign(Object.create(null), { pedido: 'sem protótipo' }),
    },
    {
      contato: new Date(0),
      conta: [1, 2],
      dados: { pedido: () => 'função' },
      link_descadastro: { toLiquid: () => 'x' },
    },
    {},
  ];
  const sources = [
    {
      subject: 'Pedido {{ pedido }} recebido',
      html: '<p>Olá, {{ contato.nome }}! R$ {{ valor }} {{ dados.pedido }}</p>',
    },
    {
      subject: '{{pedido}}{{ valor }}',
      html: '{{ pedido }}{{ pedido }}',
      text: 'T {{ dados.ok }} {{\n contato.cidade\t}}',
    },
    // Names liquidjs reads by the prototype or computes; literals; names not in the scope.
    {
      subject: '{{ constructor }} {{ toString }} {{ __proto__ }} {{ contato.constructor }}',
      html: '{{ hasOwnProperty }}.',
    },
    {
      subject: '{{ pedido.size }} {{ dados.first }}',
      html: '{{ empty }}{{ nil }}{{ true }}|{{ contato.nome.length }}',
    },
    {
      subject: 'x',
      html: '<a href="{{ link_descadastro }}">{{ conta.cnpj }} {{ nada.de.nada }}</a>',
      preheader: 'Oi {{ contato.nome }}',
    },
    // Not plain: filters, tags, whitespace control, odd delimiters: liquidjs only.
    { subject: '{{ pedido | upcase }}', html: '{%- if pedido -%}{{ pedido }}{% endif %} {{- valor }}' },
    { subject: '{{ pedido }}}', html: '{ {{ pedido }} } }} {{ a-b }} {{ dados["pedido"] }}' },
  ];
  it('renders every part exactly as liquidjs does, whatever the values', () => {
    for (const source of sources) {
      const compiled = compileCampaign(source);
      for (const values of scopes) {
        const run = (c: CompiledCampaign) => {
          try {
            return renderMessage(c, values as never);
          } catch (error) {
            return `throws ${(error as Error).message}`;
          }
        };
        expect(run(compiled), `${JSON.stringify(source)} / ${Object.keys(values)}`).toEqual(run(byLiquid(compiled)));
      }
    }
  });

  it('has a plain form only for literal text and bare name outputs', () => {
    expect(plainPartOf('Pedido {{ pedido }} de {{contato.nome}}')).toEqual({
      literals: ['Pedido ', ' de ', ''],
      paths: [['pedido'], ['contato', 'nome']],
    });
    expect(plainPartOf('sem tags')).toEqual({ literals: ['sem tags'], paths: [] });
    for (const source of [
      '{{ a | upcase }}',
      '{% if a %}x{% endif %}',
      '{{- a }}',
      '{{ a.size }}',
      '{{ nil }}',
      '{{ a[0] }}',
    ]) {
      expect(plainPartOf(source), source).toBeNull();
    }
  });

  it('renders the memory limit as liquidjs does (the escaped values of one HTML part)', () => {
    const compiled = compileCampaign({ subject: 'x', html: '{{ a }}{{ a }}' });
    const values = { a: 'a'.repeat(10_000_001) } as never;
    expect(() => renderMessage(compiled, values)).toThrow(/memory alloc limit exceeded/);
    expect(() => renderMessage(byLiquid(compiled), values)).toThrow(/memory alloc limit exceeded/);
  });
});

describe('validateTemplate', () => {
  it('reports an unknown variable with its line and a suggestion', () => {
    const problems = validateTemplate({ html: '<p>a</p>\n<p>b</p>\n<p>{{ contato.nomee }}</p>' }, []);
    expect(problems).toEqual([
      {
        part: 'html',
        line: 3,
        message: 'Linha 3: variável desconhecida contato.nomee (você quis dizer contato.nome?)',
      },
    ]);
  });

  it('accepts custom fields of the account, loop and assigned variables', () => {
    const html =
      '{{ contato.cidade }}{% assign x = 1 %}{{ x }}{% for i in (1..2) %}{{ i }}{% endfor %}{{ contato.nome | upcase }}';
    expect(validateTemplate({ html }, ['cidade'])).toEqual([]);
    expect(validateTemplate({ html }, [])[0]?.message).toBe('Linha 1: variável desconhecida contato.cidade');
  });

  it('reports syntax errors in pt-BR with the line, per part', () => {
    expect(validateTemplate({ html: 'a\nb\n{% if contato.nome %}x' }, [])[0]?.message).toMatch(
      /^Linha 3: a tag \{% if contato.nome %\} não foi fechada/,
    );
    expect(validateTemplate({ html: 'a\n{{ contato.nome | inexistente }}' }, [])[0]?.message).toBe(
      'Linha 2: filtro desconhecido "inexistente"',
    );
    expect(validateTemplate({ subject: 'Oi {{ contato.nome' }, [])[0]?.message).toBe(
      'Assunto, linha 1: "{{" sem o "}}" correspondente',
    );
    expect(validateTemplate({ preheader: '{{ segredo }}' }, [])[0]?.message).toBe(
      'Pré-cabeçalho, linha 1: variável desconhecida segredo',
    );
  });

  it('refuses a marketing template without the unsubscribe link', () => {
    expect(() => assertHasUnsubscribeLink('<p>Oi</p>')).toThrow(/link de descadastro/);
    expect(() => assertHasUnsubscribeLink('<a href="{{link_descadastro}}">sair</a>')).not.toThrow();
    expect(() => assertHasUnsubscribeLink('<!-- <a href="{{ link_descadastro }}">sair</a> -->')).toThrow(
      /link de descadastro/,
    );
  });
});
