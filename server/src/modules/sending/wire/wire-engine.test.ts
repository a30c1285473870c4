/**
 * Wire conformance through the real engine (ADR 0011): campaigns started over HTTP, delivered by SendingEngine
 * through the pipelining SMTP pool to a loopback smtp-server that keeps the raw DATA. Every message is checked
 * byte by byte (wire-check.ts), against the bytes the engine built (dot-stuffing undone by the relay = the same
 * bytes), and with mailauth (RSA-2048 and Ed25519, h= covering List-Unsubscribe and List-Unsubscribe-Post).
 * Sources: every starter template, the evidence message's template and contacts, templates that take
 * the engine's string path (`| raw`, personalised tracked links); PUBLIC_URL https (production) and
 * http://localhost (development, where campaigns were once built by nodemailer's composer with bare LFs).
 */
import { eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUp } from '../../../../test/support/sign-in';
import { createTestApp, type TestApp } from '../../../../test/support/test-app';
import { DATABASE_KINDS } from '../../../../test/support/test-database';
import type { Db } from '../../../db/database';
import { SendingEngine } from '../../../worker/sending-engine';
import { createRelayTransport } from '../../../worker/sending-runtime';
import { contacts } from '../../contacts/contacts.db';
import { sendTestMessages } from '../../templates/preview-message';
import { STARTER_TEMPLATES } from '../../templates/starter-templates';
import { runEngineUntil } from '../testing/engine-harness';
import {
  campaignStatus,
  createListWithContacts,
  createReadyCampaign,
  creditAccount,
  testSenderSettings,
} from '../testing/send-fixtures';
import { type SmtpSink, startSmtpSink } from '../testing/smtp-sink';
import type { MailTransport, WireMessage } from '../transport';
import { dkimProblems, headerFields, wireProblems, wireSigners } from './wire-check';

/** The evidence message's recipients: names and fields as imported, hostile on purpose. */
const EVIDENCE_CONTACTS: { name: string; cidade: string }[] = [
  { name: 'Carla\nQuebra de linha', cidade: 'Salvador' },
  { name: 'Zé "Aspas" = Silva', cidade: 'São Paulo\r\n.\r\n' },
  { name: 'Joana 😀🇧🇷 Emoji', cidade: '..' },
  { name: `Nome ${'muito '.repeat(40)}longo`, cidade: `${'x'.repeat(300)}` },
  { name: 'Tab\tno fim \t', cidade: 'Recife   \t' },
  // PostgreSQL refuses NUL in text and jsonb, so imported data cannot hold one (the property test covers NUL).
  { name: 'Controle\u0001\u0007', cidade: 'Belém\u000b\u001b\u007f' },
  { name: 'Windows\u0093aspas\u0094 Ã§', cidade: 'Goiânia\u0096\u0085' },
  { name: '=?utf-8?q?falso?= =', cidade: 'Natal\r\rFortaleza\n\rManaus' },
];

const promotion = STARTER_TEMPLATES.find((t) => t.key === 'promocao');
if (!promotion) throw new Error('starter template promocao missing');

/** The sources each campaign is sent with: starter templates, the evidence, the engine's string paths. */
const SOURCES = [
  ...STARTER_TEMPLATES.map((t) => ({ label: `starter ${t.key}`, subject: t.subject, html: t.html, preheader: '' })),
  {
    label: 'evidence',
    subject: '{{ contato.nome }}, 30% de desconto no panetone',
    html: promotion.html,
    preheader: 'Só até domingo na Padaria Pão Quente',
  },
  {
    // The shape the visual builder saves (web visual-builder.tsx wrapEmailHtml around GrapesJS newsletter-preset
    // output): one-line CSS, tables with inline styles, <br/>, entities, merge tags inserted as text.
    label: 'visual builder output',
    subject: 'Novidades de {{ conta.nome }}',
    html: [
      '<!doctype html>',
      '<html lang="pt-BR">',
      '<head>',
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      `<style>* { box-sizing: border-box; } body {margin: 0;}.row{display:table;padding:10px;width:100%;}.cell{width:8%;display:table-cell;height:75px;}${'.c'.repeat(200)}{color:#111;}</style>`,
      '</head>',
      `<body><table id="i3xk" class="main-body" style="width:100%;height:100%;"><tbody><tr class="row"><td class="main-body-cell"><table class="container"><tbody><tr><td class="container-cell"><h1 class="card-title">Olá, {{ contato.nome | default: "cliente" }}!</h1><p class="card-text">Promoções&nbsp;da semana &mdash; só até domingo.<br/>Frete grátis em ${'todo o Brasil '.repeat(12)}</p><a href="https://loja.com.br/ofertas?utm_source=carteiro&amp;utm_medium=email" class="button">Ver ofertas</a><p class="footer">{{ conta.nome }} · {{ conta.endereco }}<br/><a href="{{ link_descadastro }}">Descadastrar</a></p></td></tr></tbody></table></td></tr></tbody></table></body>`,
      '</html>',
    ].join('\n'),
    preheader: '',
  },
  {
    label: '| raw output (string path, tracking per message)',
    subject: 'Raw {{ contato.cidade }}',
    html: '<p>Olá {{ contato.nome }}</p>\n<p>{{ contato.cidade | raw }}</p>\r\n.\n<a href="https://loja.com.br/x">x</a> <a href="{{ link_descadastro }}">Sair</a>',
    preheader: '',
  },
  {
    label: 'personalised tracked link (string path)',
    subject: 'Link {{ contato.nome }}',
    html: '<p>Oi {{ contato.nome }} \t</p>\r\n<a href="https://loja.com.br/c/{{ contato.email }}">minha oferta</a>\r..\n<a href="{{ link_descadastro }}">Sair</a>',
    preheader: '',
  },
];

/** Wraps a transport to keep the bytes the engine built (what the relay must receive, after un-stuffing). */
function recording(inner: MailTransport, built: Map<string, Buffer>): MailTransport {
  return {
    deliver(batch: WireMessage[]) {
      for (const m of batch) built.set(m.recipient, m.raw);
      return inner.deliver(batch);
    },
    close: () => inner.close(),
  };
}

describe.each(DATABASE_KINDS)('wire conformance through the engine on %s', (kind) => {
  let t: TestApp;
  let db: Db;
  let sink: SmtpSink;
  const { signers, records } = wireSigners();

  beforeAll(async () => {
    t = await createTestApp(kind);
    db = t.database.db;
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
    await t.close();
  });

  async function sendCampaign(publicUrl: string, source: (typeof SOURCES)[number], n: number) {
    const user = await signUp(t, { verified: true });
    await creditAccount(db, user.accountId, 100_000);
    const emails = EVIDENCE_CONTACTS.map((_, i) => `w${n}-${i}@destino.com.br`);
    const { listId } = await createListWithContacts(db, user.accountId, emails);
    for (const [i, contact] of EVIDENCE_CONTACTS.entries()) {
      await db
        .update(contacts)
        .set({ name: contact.name, fields: { cidade: contact.cidade } })
        .where(eq(contacts.email, emails[i] as string));
    }
    const id = await createReadyCampaign(db, user.accountId, {
      includeListIds: [listId],
      subject: source.subject,
      template: source.html,
      preheader: source.preheader,
      fromName: 'Padaria Pão Quente',
      fromEmail: 'contato@padaria.com.br',
      replyTo: 'sac@padaria.com.br',
    });
    const res = await t.app.inject({ method: 'POST', url: `/api/campaigns/${id}/send`, headers: user.headers });
    expect(res.statusCode, res.body).toBe(200);

    const built = new Map<string, Buffer>();
    const transport = recording(createRelayTransport(sink.url, 2), built);
    const sender = new SendingEngine({
      db,
      signers,
      transports: [transport],
      settings: testSenderSettings({ publicUrl, listIdDomain: new URL(publicUrl).hostname }),
      logger: pino({ level: 'silent' }),
      mailer: null,
    });
    try {
      await runEngineUntil(sender, async () => (await campaignStatus(db, id))?.status === 'sent', 'the campaign sent');
    } finally {
      await sender.stop();
      await transport.close();
    }
    expect((await campaignStatus(db, id))?.status).toBe('sent');
    return { emails, built };
  }

  for (const publicUrl of ['https://app.carteiro.test', 'http://localhost:10100']) {
    for (const [n, source] of SOURCES.entries()) {
      it(`${source.label}, PUBLIC_URL ${publicUrl}: every message clean on the wire and DKIM-valid`, async () => {
        const tag = `${publicUrl.startsWith('https') ? 's' : 'd'}${n}`;
        const { emails, built } = await sendCampaign(publicUrl, source, n + (publicUrl.startsWith('https') ? 0 : 100));
        for (const email of emails) {
          const received = sink.messages.find((m) => m.to === email);
          if (!received) throw new Error(`${tag}: ${email} not delivered`);
          expect(received.raw.equals(built.get(email) as Buffer), `${email}: relay got other bytes`).toBe(true);
          expect(wireProblems(received.raw), email).toEqual([]);
          expect(await dkimProblems(received.raw, records), email).toEqual([]);
          const headers = headerFields(received.raw);
          for (const name of ['from', 'to', 'subject', 'message-id', 'date', 'list-unsubscribe']) {
            expect(
              headers.filter((h) => h.name === name),
              `${email} ${name}`,
            ).toHaveLength(1);
          }
          expect(headers.find((h) => h.name === 'message-id')?.value).toMatch(/^<[0-9a-f]{40}@padaria\.com\.br>$/);
          const mail = await simpleParser(received.raw);
          expect(mail.text?.trim().length, 'text part').toBeGreaterThan(0);
          expect(mail.html).toBeTruthy();
          expect(mail.to && !Array.isArray(mail.to) ? mail.to.value.length : 0).toBe(1);
        }
        const carla = sink.messages.find((m) => m.to === emails[0]);
        const parsed = await simpleParser(carla?.raw as Buffer);
        // A name with a newline stays one header: the line break becomes a space.
        expect(parsed.to && !Array.isArray(parsed.to) ? parsed.to.value[0]?.name : '').toBe('Carla Quebra de linha');
      }, 60_000);
    }
  }

  it('test sends and system e-mails (Mailer) are clean on the wire too', async () => {
    const { accountId } = await signUp(t, { verified: true });
    const before = (await t.sentMail()).length;
    await sendTestMessages(
      t.mailer,
      {
        subject: 'Teste\ncom quebra 😀 =?utf-8?q?x?= '.repeat(4),
        html: `<p>linha\r\n.\n..\rfim \t</p>${'y'.repeat(1200)}`,
        text: 'linha 1\n.\nlinha 2\r\nlinha 3\rfim  \t',
      },
      {
        emails: ['teste@destino.com.br'],
        fallbackSubject: 'x',
        sender: {
          accountId,
          fromEmail: 'loja@padaria.com.br',
          fromName: 'Padaria "Pão" Quente',
          replyTo: 'sac@padaria.com.br',
          sourceId: 'teste',
          unsubscribeUrl: 'http://localhost:10100/descadastro/exemplo',
        },
      },
    );
    const mails = await t.sentMail();
    expect(mails.length).toBe(before + 1);
    const raw = mails[0]?.raw;
    expect(typeof raw).toBe('string');
    const bytes = Buffer.from(raw as string, 'latin1');
    // Signed and checked by mailauth in the seam suite (test/seams/every-message.test.ts); here: the bytes.
    expect(wireProblems(bytes).filter((p) => !/^header line \d+ has \d+ characters/.test(p))).toEqual([]);
  });
});
