import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { htmlLiquid } from '../../templates/liquid-engine';
import { BodyProgram } from '../body-program';
import { messageIdDomainFor } from '../build-message';
import { buildMimeMessage, buildMimeMessageFromParts, createMessageFrame } from './build-message';
import { canonicalText, encodeQuotedPrintable } from './encoding';

const frame = createMessageFrame({
  fromEmail: 'contato@padaria.com.br',
  fromName: 'Padaria Pão Quente',
  listId: 'c1.carteiro.test',
  feedbackId: 'c1:a1:campaign:carteiro',
  messageIdDomain: 'padaria.com.br',
  boundary: '=_crt_test',
});
const fields = {
  messageId: 'tok',
  to: 'carla@exemplo.com.br',
  subject: 'Oferta',
  unsubscribeUrl: 'https://app.carteiro.test/u/tok',
  date: new Date(Date.UTC(2026, 0, 2, 3, 4, 5)),
};

describe('quoted-printable bodies in canonical form (ADR 0011)', () => {
  it('turns LF, CR, CRLF and LF CR into CRLF hard breaks, never a bare CR or LF', () => {
    expect(encodeQuotedPrintable('a\nb\rc\r\nd\n\re')).toBe('a\r\nb\r\nc\r\nd\r\n\r\ne');
    expect(encodeQuotedPrintable('.\n..\r\n...')).toBe('.\r\n..\r\n...');
  });

  it('escapes a space or tab that ends a line or the body, keeps it literal inside a line', () => {
    expect(encodeQuotedPrintable('a b \nc\t\r\nd ')).toBe('a b=20\r\nc=09\r\nd=20');
  });

  it('drops NUL and other controls, and maps C1 controls to their Windows-1252 characters', () => {
    expect(canonicalText('a\u0000b\u0007c\u007fd\u000be')).toBe('abcde');
    expect(canonicalText('\u0093aspas\u0094 \u0096 \u0080\u0081')).toBe('“aspas” – €');
    expect(encodeQuotedPrintable('x\u0000\u0093y')).toBe('x=E2=80=9Cy');
  });

  it('keeps lines at 76 characters with soft breaks', () => {
    const encoded = encodeQuotedPrintable(`${'x'.repeat(200)} ${'ç'.repeat(60)}`);
    for (const line of encoded.split('\r\n')) expect(line.length).toBeLessThanOrEqual(76);
  });

  it('encodes a body split in parts exactly as in one piece: a CR ending one part and the LF starting the next are one break', () => {
    const template = htmlLiquid.parse('<p>a \r{{ contato.v }}\n{{ contato.w }} </p>{{ contato.w }}');
    const program = new BodyProgram(template, htmlLiquid);
    for (const scope of [
      { contato: { v: '\nx', w: ' \t' } },
      { contato: { v: '', w: '' } },
      { contato: { v: 'y\r', w: '\n.' } },
    ]) {
      const html = String(htmlLiquid.renderSync(template, scope));
      const one = buildMimeMessage(frame, { ...fields, text: 't', html });
      const text = { maxLength: 64, write: (out: Buffer, pos: number) => pos + out.write('t', pos, 'latin1') };
      const parts = buildMimeMessageFromParts(frame, fields, text, program.prepare(scope, null));
      expect(parts.toString('latin1')).toBe(one.toString('latin1'));
    }
  });
});

describe('headers', () => {
  it('keeps a display name with a newline, quotes, "=", emoji and 200 characters in one To header', async () => {
    for (const name of [
      'Carla\nQuebra',
      'Zé "Aspas" \\ Silva',
      'a = b',
      '=?utf-8?q?x?=',
      'Joana 😀🇧🇷',
      'N'.repeat(200),
      'nome '.repeat(40),
    ]) {
      const raw = buildMimeMessage(frame, { ...fields, toName: name, text: 't', html: 'h' });
      const head = raw.toString('latin1').split('\r\n\r\n')[0] as string;
      expect(head.match(/^To:/gm)).toHaveLength(1);
      for (const line of head.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
      const mail = await simpleParser(raw);
      const to = mail.to && !Array.isArray(mail.to) ? mail.to.value[0] : undefined;
      expect(to?.address).toBe('carla@exemplo.com.br');
      expect(to?.name).toBe(name.replace(/\s+/g, ' ').trim());
    }
  });

  it('folds or encodes subjects so every line stays within 78 characters', async () => {
    for (const subject of [
      `${'palavra '.repeat(30)}fim`,
      'x'.repeat(300),
      `Promoção ${'😀'.repeat(50)}`,
      'a =?utf-8?b?eA==?= b',
    ]) {
      const raw = buildMimeMessage(frame, { ...fields, subject, text: 't', html: 'h' });
      const head = raw.toString('latin1').split('\r\n\r\n')[0] as string;
      for (const line of head.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
      expect((await simpleParser(raw)).subject).toBe(subject.trim());
    }
  });

  it('puts the Message-ID under the sending domain, else the fallback host', () => {
    expect(messageIdDomainFor('loja@Padaria.com.br', 'app.carteiro.com.br')).toBe('padaria.com.br');
    expect(messageIdDomainFor('dev@localhost', 'app.carteiro.com.br')).toBe('app.carteiro.com.br');
    expect(messageIdDomainFor('x@127.0.0.1', 'app.carteiro.com.br')).toBe('app.carteiro.com.br');
    expect(messageIdDomainFor('x@[::1]', 'app.carteiro.com.br')).toBe('app.carteiro.com.br');
  });
});
