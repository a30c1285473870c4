import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildMimeMessage, createMessageFrame, type MessageFields } from './build-message';
import { encodeQuotedPrintable, encodeWords, formatRfc5322Date } from './encoding';

const frame = createMessageFrame({
  fromEmail: 'loja@padaria.com.br',
  fromName: 'Padaria São João',
  replyTo: 'contato@padaria.com.br',
  listId: 'c42.lists.carteiro.app',
  listName: 'Novidades da Padaria',
  feedbackId: 'c42:a7:campaign:carteiro',
  messageIdDomain: 'carteiro.app',
  extraHeaders: { Precedence: 'bulk' },
});

const longLine = `Uma linha bem comprida com acentuação — ${'pão de queijo, '.repeat(12)}fim.`;
const fields: MessageFields = {
  messageId: 'tok_abc123',
  to: 'maria@example.com',
  toName: 'Maria Conceição',
  subject: 'Promoção de Natal: 20% em pães e doces',
  unsubscribeUrl: 'https://carteiro.app/u/tok_abc123',
  text: `Olá, Maria!\n.linha que começa com ponto\n${longLine}\nespaço no fim \nAté logo`,
  html: `<p style="color:#333">Olá, <b>Maria</b>! Promoção de Natal 🎄</p>\r\n<p>${longLine}</p>`,
  date: new Date(Date.UTC(2025, 11, 16, 13, 4, 5)),
};

function lines(raw: Buffer): string[] {
  return raw.toString('latin1').split('\r\n');
}

describe('buildMimeMessage', () => {
  it('builds a message mailparser reads back exactly, pt-BR accents included', async () => {
    const raw = buildMimeMessage(frame, fields);
    const mail = await simpleParser(raw);
    expect(mail.subject).toBe(fields.subject);
    expect(mail.from?.value).toEqual([{ name: 'Padaria São João', address: 'loja@padaria.com.br' }]);
    expect(mail.to && !Array.isArray(mail.to) ? mail.to.value : null).toEqual([
      { name: 'Maria Conceição', address: 'maria@example.com' },
    ]);
    expect(mail.replyTo?.value[0]?.address).toBe('contato@padaria.com.br');
    expect(mail.messageId).toBe('<tok_abc123@carteiro.app>');
    expect(mail.date?.toISOString()).toBe('2025-12-16T13:04:05.000Z');
    expect(mail.text).toBe(fields.text);
    expect(mail.html).toBe(fields.html.replace(/\r\n/g, '\n'));
    expect(mail.headerLines.find((h) => h.key === 'list-id')?.line).toBe(
      'List-Id: Novidades da Padaria <c42.lists.carteiro.app>',
    );
    expect(mail.headers.get('feedback-id')).toBe('c42:a7:campaign:carteiro');
    expect(mail.headers.get('precedence')).toBe('bulk');
    expect(mail.headerLines.filter((h) => h.key === 'list-unsubscribe-post').map((h) => h.line)).toEqual([
      'List-Unsubscribe-Post: List-Unsubscribe=One-Click',
    ]);
    expect(mail.headerLines.filter((h) => h.key === 'list-unsubscribe')).toHaveLength(1);
    expect(mail.headerLines.filter((h) => h.key === 'list-unsubscribe')[0]?.line).toBe(
      'List-Unsubscribe: <https://carteiro.app/u/tok_abc123>',
    );
  });

  it('uses CRLF only, keeps lines within 76 characters in the bodies and 998 everywhere', () => {
    const raw = buildMimeMessage(frame, fields);
    const text = raw.toString('latin1');
    expect(text.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    const all = lines(raw);
    const bodyStart = all.indexOf('');
    for (const line of all.slice(bodyStart)) expect(line.length).toBeLessThanOrEqual(76);
    for (const line of all) expect(line.length).toBeLessThanOrEqual(998);
    expect(text).toContain('\r\n.linha que come=C3=A7a com ponto\r\n');
    expect(text).toContain('espa=C3=A7o no fim=20\r\n');
    expect(text.endsWith(`--${frame.boundary}--\r\n`)).toBe(true);
  });

  it('encodes the subject and names with RFC 2047 only when not ASCII', () => {
    const raw = buildMimeMessage(frame, { ...fields, subject: 'Black Friday', toName: 'Joe' }).toString('latin1');
    expect(raw).toContain('\r\nSubject: Black Friday\r\n');
    expect(raw).toContain('\r\nTo: Joe <maria@example.com>\r\n');
    expect(raw).toContain('From: =?UTF-8?B?');
    expect(encodeWords('Promoção')).toBe(`=?UTF-8?B?${Buffer.from('Promoção').toString('base64')}?=`);
  });

  it('splits long encoded subjects at character boundaries and folds long ASCII subjects', async () => {
    const subject = `${'ção '.repeat(40)}🎄 fim`;
    const raw = buildMimeMessage(frame, { ...fields, subject });
    for (const word of raw.toString('latin1').match(/=\?UTF-8\?B\?[^?]*\?=/g) ?? []) {
      expect(word.length).toBeLessThanOrEqual(75);
    }
    expect((await simpleParser(raw)).subject).toBe(subject);
    const ascii = `Oferta ${'imperdivel '.repeat(20)}hoje`;
    const rawAscii = buildMimeMessage(frame, { ...fields, subject: ascii });
    expect((await simpleParser(rawAscii)).subject).toBe(ascii);
  });

  it('strips line breaks from merge data so no header can be injected', async () => {
    const raw = buildMimeMessage(frame, { ...fields, subject: 'Oi\r\nBcc: intruso@example.com', toName: 'A\nB' });
    const mail = await simpleParser(raw);
    expect(mail.headers.has('bcc')).toBe(false);
    expect(mail.subject).toBe('Oi Bcc: intruso@example.com');
  });

  it('refuses a non-https unsubscribe URL', () => {
    expect(() => buildMimeMessage(frame, { ...fields, unsubscribeUrl: 'http://x.example/u/1' })).toThrow(/https/);
  });

  it('supports base64 bodies', async () => {
    const b64 = createMessageFrame({ ...frameOptions(), bodyEncoding: 'base64' });
    const raw = buildMimeMessage(b64, fields);
    const mail = await simpleParser(raw);
    expect(mail.html).toBe(fields.html.replace(/\r\n/g, '\n'));
    for (const line of lines(raw)) expect(line.length).toBeLessThanOrEqual(998);
  });

  it('quoted-printable round-trips arbitrary UTF-8', () => {
    expect(encodeQuotedPrintable('a=b ç\tx \n')).toBe('a=3Db =C3=A7\tx=20\r\n');
    expect(formatRfc5322Date(new Date(Date.UTC(2026, 0, 5, 3, 7, 9)))).toBe('Mon, 5 Jan 2026 03:07:09 +0000');
  });
});

function frameOptions() {
  return {
    fromEmail: 'loja@padaria.com.br',
    fromName: 'Padaria',
    listId: 'c42.lists.carteiro.app',
    feedbackId: 'c42:a7:campaign:carteiro',
    messageIdDomain: 'carteiro.app',
  };
}
