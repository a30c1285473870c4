import { describe, expect, it } from 'vitest';
import { htmlLiquid, textLiquid } from '../templates/liquid-engine';
import { buildScope, compileCampaign, renderMessage } from '../templates/render-message';
import { planTrackedHtml } from '../tracking/rewrite-links';
import { BodyProgram } from './body-program';
import { buildMimeMessageFromParts, createMessageFrame } from './mime/build-message';

const account = { name: 'Loja <Ação> & Cia', address: 'Rua "A", 10' };
const links = {
  unsubscribeUrl: 'https://app.test/u/tok',
  browserUrl: 'https://app.test/campaign/c/template-viewer?t=tok',
};
const contacts = [
  {
    email: 'a@x.com.br',
    name: 'Ana <b>Maria</b> & "Zé"',
    fields: { cidade: 'São Paulo', pontos: 12, tags: ['x', 'y'] },
  },
  { email: 'b@x.com.br', name: null, fields: { cidade: '' } },
  { email: 'c@x.com.br', name: '', fields: null },
  { email: 'd@x.com.br', name: 'Dora', fields: { cidade: 'Maceió', 'com espaço': 'sim', nested: { a: 1 } } },
];

const TEMPLATES = [
  '<html><body><p>Olá, {{ contato.nome | default: "cliente" }} de {{ contato.cidade | default: "algum lugar" | upcase }}!</p>{{ conta.nome }} {{ conta.endereco | append: " — BR" | prepend: "End.: " }}</body></html>',
  '{% assign saudacao = "Oi" %}<p>{{ saudacao }}, {{ contato.nome | capitalize | strip }}</p>{% if contato.cidade %}<p>{{ contato.cidade | downcase }}</p>{% else %}<p>sem cidade</p>{% endif %}',
  '{% for t in contato.tags %}<i>{{ t }}</i>{% endfor %} {{ contato.tags.size }} {{ contato.tags.first }} {{ contato["com espaço"] }} {{ contato.nested }} {{ contato.pontos | plus: 1 }} {{ contato.nome | default: contato.email }}',
  '  \n  <p>{{ contato.email }}</p>\n<p>{{ link_descadastro }}</p>{{ campanha.nome | escape }}  \n ',
];

describe('BodyProgram', () => {
  it('renders exactly what renderMessage renders (subject, HTML and trimmed text)', () => {
    for (const html of TEMPLATES) {
      const compiled = compileCampaign({
        subject: 'Oi {{ contato.nome | default: "você" }}, {{ contato.cidade }}',
        html,
      });
      const programs = {
        html: new BodyProgram(compiled.html, htmlLiquid),
        text: new BodyProgram(compiled.text, textLiquid, { trim: true }),
        subject: new BodyProgram(compiled.subject, textLiquid),
      };
      for (const contact of contacts) {
        const scope = buildScope(contact, account, links, 'Campanha <1>');
        const expected = renderMessage(compiled, scope);
        expect(programs.html.renderString(scope)).toBe(expected.html);
        expect(programs.text.renderString(scope)).toBe(expected.text);
        expect(programs.subject.renderString(scope).replace(/\s+/g, ' ').trim()).toBe(expected.subject);
      }
    }
  });

  it('encodes quoted-printable bodies that decode to the rendered text, tracking markers replaced', async () => {
    const { simpleParser } = await import('mailparser');
    const plan = planTrackedHtml(
      `<body><p>${'Promoção válida até domingo, confira já! '.repeat(6)}</p><a href="https://loja.test/a?x=1&amp;y=2">a</a> {{ contato.nome }}<a href="{{ link_descadastro }}">sair</a></body>`,
      { publicUrl: 'https://app.test', trackClicks: true, trackOpens: true, nonce: 'n0nce1' },
    );
    const compiled = compileCampaign({ subject: 's', html: plan.source });
    const html = new BodyProgram(compiled.html, htmlLiquid, { marker: plan.marker });
    const text = new BodyProgram(compiled.text, textLiquid, { trim: true });
    const frame = createMessageFrame({
      fromEmail: 'loja@loja.test',
      listId: 'l.test',
      feedbackId: 'f',
      messageIdDomain: 'test',
    });
    for (const contact of contacts) {
      const scope = buildScope(contact, account, links, 'c');
      const hooks = {
        click: (i: number) => `https://app.test/c/L${i}`,
        pixel: () => 'https://app.test/o/P.gif',
        finish: (s: string) => s,
      };
      const raw = buildMimeMessageFromParts(
        frame,
        { messageId: 'tok', to: contact.email, subject: 's', unsubscribeUrl: links.unsubscribeUrl },
        text.prepare(scope, null),
        html.prepare(scope, hooks, plan.marker),
      );
      const body = raw.toString('latin1').split('\r\n\r\n').slice(1).join('\r\n\r\n');
      for (const line of body.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
      const mail = await simpleParser(raw);
      const expected = renderMessage(compiled, scope)
        .html.replace(`${plan.marker}L0;`, 'https://app.test/c/L0')
        .replace(`${plan.marker}O`, 'https://app.test/o/P.gif');
      expect(mail.html).toBe(expected);
      // Control characters (here the marker's \u0001, which this test's text part keeps) never reach the wire.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the encoder drops exactly these
      expect(mail.text).toBe(renderMessage(compiled, scope).text.replace(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, ''));
    }
  });
});
