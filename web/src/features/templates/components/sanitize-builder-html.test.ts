import { describe, expect, it } from 'vitest';
import { sanitizeBuilderHtml } from './sanitize-builder-html';

describe('sanitizeBuilderHtml', () => {
  it('gives clean HTML back exactly as it came, Liquid between rows included', () => {
    const html =
      '<!doctype html><html><head><style>p{color:#333}</style></head><body><table>{% for item in dados.itens %}<tr><td>{{ item.nome }}</td></tr>{% endfor %}</table><a href="https://loja.com.br/?c={{ contato.email }}">Ver</a></body></html>';
    expect(sanitizeBuilderHtml(html)).toBe(html);
  });

  it('drops every javascript: URL the parser lets through: any case, leading spaces, tabs and newlines inside', () => {
    const out = sanitizeBuilderHtml(
      '<p><a id="a" href="JavaScript:alert(1)">a</a><a id="b" href="  javascript:alert(2)">b</a><a id="c" href="java\tscript:alert(3)">c</a><img id="d" src="vbscript:msgbox(4)"><a id="e" href="data:text/html,<script>alert(5)</script>">e</a><a id="ok" href="https://loja.com.br/">ok</a></p>',
    );
    const doc = new DOMParser().parseFromString(out, 'text/html');
    for (const id of ['a', 'b', 'c', 'e']) expect(doc.getElementById(id)?.hasAttribute('href')).toBe(false);
    expect(doc.getElementById('d')?.hasAttribute('src')).toBe(false);
    expect(doc.getElementById('ok')?.getAttribute('href')).toBe('https://loja.com.br/');
  });

  it('drops frames, objects, scripts and handlers, keeping the text around them', () => {
    const out = sanitizeBuilderHtml(
      '<!doctype html><html><head><script>alert(0)</script><meta http-equiv="refresh" content="0;url=https://x.test"></head><body onload="alert(1)"><p onclick="alert(2)">Olá, {{ contato.nome }}!</p><iframe srcdoc="<script>alert(3)</script>"></iframe><object data="x.swf"></object><embed src="x.swf"><svg onload="alert(4)"><rect width="2" height="2"/></svg></body></html>',
    );
    expect(out).not.toMatch(/<script|<iframe|<object|<embed|http-equiv|\son[a-z]+=/i);
    expect(out).toMatch(/^<!DOCTYPE html><html>/);
    expect(out).toContain('<p>Olá, {{ contato.nome }}!</p>');
    expect(out).toContain('<rect width="2" height="2">');
  });

  it('keeps a fragment a fragment', () => {
    expect(sanitizeBuilderHtml('<p onclick="x()">Oi</p>')).toBe('<p>Oi</p>');
  });
});
