import { identityFooterTable } from '@carteiro/shared';
import { describe, expect, it } from 'vitest';
import { buildScope, compileCampaign, htmlSourceToTextSource, renderMessage } from './render-message';
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
