import { randomBytes } from 'node:crypto';
import { simpleParser } from 'mailparser';
import { describe, expect, it } from 'vitest';
import { buildMimeMessage, createMessageFrame, fileParameter, type MessageFields } from './build-message';

const frame = createMessageFrame({
  fromEmail: 'pedidos@loja.com.br',
  fromName: 'Loja Ação',
  listId: null,
  feedbackId: 's1:a1:transactional:carteiro',
  messageIdDomain: 'loja.com.br',
});

const pdf = Buffer.concat([Buffer.from('%PDF-1.4\n'), randomBytes(20_000), Buffer.from('\n%%EOF\n')]);
const png = randomBytes(3_000);

const fields: MessageFields = {
  messageId: 'tok1',
  to: 'cliente@destino.com.br',
  toName: 'Cliente',
  subject: 'Pedido 1234 confirmado',
  unsubscribeUrl: null,
  text: 'Segue a nota fiscal.',
  html: '<p>Segue a nota fiscal.</p><img src="cid:logo@loja">',
  cc: [
    { email: 'financeiro@destino.com.br', name: 'Financeiro Ação' },
    { email: 'compras@destino.com.br', name: null },
  ],
  headers: [
    ['X-Pedido', '1234'],
    ['In-Reply-To', '<pedido-1234@loja.com.br>'],
  ],
  attachments: [
    { filename: 'NF-e 1234.pdf', contentType: 'application/pdf', content: pdf },
    { filename: 'logo.png', contentType: 'image/png', content: png, contentId: 'logo@loja' },
    {
      filename: 'Nota fiscal eletrônica nº 1234 — emitida em São Paulo, com acentuação longa.xml',
      contentType: 'application/xml',
      content: Buffer.from('<nfe/>'),
    },
  ],
};

describe('messages with attachments (the one wire builder)', () => {
  it('carries every file byte for byte, the inline image by Content-ID, Cc and the chosen headers', async () => {
    for (const bodyEncoding of ['quoted-printable', 'base64'] as const) {
      const f = createMessageFrame({
        fromEmail: 'pedidos@loja.com.br',
        listId: null,
        feedbackId: 'x:transactional:carteiro',
        messageIdDomain: 'loja.com.br',
        bodyEncoding,
      });
      const raw = buildMimeMessage(f, fields);
      const mail = await simpleParser(raw);
      expect(mail.text?.trim()).toBe('Segue a nota fiscal.');
      expect(mail.attachments.map((a) => [a.filename, a.contentType, a.contentDisposition])).toEqual([
        ['logo.png', 'image/png', 'inline'],
        ['NF-e 1234.pdf', 'application/pdf', 'attachment'],
        [fields.attachments?.[2]?.filename, 'application/xml', 'attachment'],
      ]);
      expect(mail.attachments[0]?.cid).toBe('logo@loja');
      expect(mail.attachments[0]?.content.equals(png)).toBe(true);
      expect(mail.attachments[1]?.content.equals(pdf)).toBe(true);
      expect(mail.attachments[2]?.content.toString()).toBe('<nfe/>');
      const cc = mail.cc && !Array.isArray(mail.cc) ? mail.cc.value : [];
      expect(cc).toEqual([
        { address: 'financeiro@destino.com.br', name: 'Financeiro Ação' },
        { address: 'compras@destino.com.br', name: '' },
      ]);
      expect(mail.headers.get('x-pedido')).toBe('1234');
      expect(mail.inReplyTo).toBe('<pedido-1234@loja.com.br>');
    }
  });

  it('keeps every line within 78 characters and CRLF only, boundaries nested and distinct', () => {
    const raw = buildMimeMessage(frame, fields).toString('latin1');
    expect(raw.replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
    for (const line of raw.split('\r\n')) expect(line.length).toBeLessThanOrEqual(78);
    const boundaries = [...raw.matchAll(/boundary="([^"]+)"/g)].map((m) => m[1] as string);
    expect(boundaries).toHaveLength(3);
    for (const a of boundaries) for (const b of boundaries) if (a !== b) expect(b.startsWith(a)).toBe(false);
    expect(raw.trimEnd().endsWith(`--${boundaries[0]}--`)).toBe(true);
  });

  it('writes a plain ASCII name quoted and any other as RFC 2231 continuations', () => {
    expect(fileParameter('filename', 'boleto "maio".pdf')).toBe('filename="boleto \\"maio\\".pdf"');
    const long = fileParameter('filename', 'ção'.repeat(30));
    expect(long.split(';\r\n ').every((line) => line.length <= 78)).toBe(true);
    expect(long).toMatch(/^filename\*0\*=utf-8''/);
  });

  it('builds the same message as before when there are no files', () => {
    const plain = { ...fields, cc: undefined, headers: undefined, attachments: undefined };
    const raw = buildMimeMessage(frame, { ...plain, attachments: [] }).toString('latin1');
    expect(raw).toBe(buildMimeMessage(frame, plain).toString('latin1'));
    expect(raw).toContain('Content-Type: multipart/alternative');
    expect(raw).not.toContain('multipart/mixed');
  });
});
