/**
 * Wire conformance, property-based (ADR 0011): for generated HTML, text, subjects, sender names and merge values,
 * the fast path (body programs) and the string path (renderMessage + buildMimeMessage) build byte-identical
 * messages that are clean on the wire, whose bodies decode to the rendered text in canonical form, that
 * mailauth verifies (RSA-2048 and Ed25519, relaxed/relaxed), and that a real SMTP exchange (our pool → a
 * loopback smtp-server) delivers byte for byte (dot-stuffing).
 *
 * WIRE_CASES (default 200) sets the number of generated messages: `WIRE_CASES=5000 npx vitest run <this file>`.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { htmlLiquid, textLiquid } from '../../templates/liquid-engine';
import { buildScope, compileCampaign, renderMessage } from '../../templates/render-message';
import { BodyProgram } from '../body-program';
import { messageLinks } from '../build-message';
import { buildMimeMessage, buildMimeMessageFromParts, createMessageFrame } from '../mime/build-message';
import { canonicalText } from '../mime/encoding';
import { createSmtpPool } from '../smtp/smtp-pool';
import { type SmtpSink, startSmtpSink } from '../testing/smtp-sink';
import type { WireMessage } from '../transport';
import { hostileContact, hostileHtml, hostileSource, hostileText } from './hostile';
import { dkimProblems, wireProblems, wireSigners } from './wire-check';

const CASES = Number(process.env.WIRE_CASES ?? 200);
const { signers, records } = wireSigners();
const DATE = new Date(Date.UTC(2026, 10, 24, 18, 57, 14));

/** Decodes the quoted-printable parts of a multipart/alternative message (soft breaks removed, =XX decoded). */
function decodedParts(raw: Buffer): Buffer[] {
  const text = raw.toString('latin1');
  const boundary = /boundary="([^"]+)"/.exec(text)?.[1] as string;
  const parts = text.split(`--${boundary}`).slice(1, -1);
  return parts.map((part) => {
    const body = part.slice(part.indexOf('\r\n\r\n') + 4).replace(/\r\n$/, '');
    const unfolded = body.replace(/=\r\n/g, '');
    const bytes: number[] = [];
    for (let i = 0; i < unfolded.length; i++) {
      if (unfolded[i] === '=') {
        bytes.push(Number.parseInt(unfolded.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(unfolded.charCodeAt(i));
    }
    return Buffer.from(bytes);
  });
}

const account = { name: 'Padaria Pão Quente', address: 'Rua das Flores, 10 — Salvador', taxId: '12.345.678/0001-90' };

const caseArbitrary = fc.record({
  subject: hostileSource(8),
  preheader: fc.option(hostileText(4), { nil: null }),
  html: hostileHtml,
  text: fc.option(hostileSource(16), { nil: null }),
  fromName: hostileText(6),
  contact: hostileContact,
  publicUrl: fc.constantFrom('https://app.carteiro.test', 'http://localhost:10100'),
});

describe('wire conformance of generated messages (fast path = string path)', () => {
  let sink: SmtpSink;
  const sent: WireMessage[] = [];

  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });

  it(`builds ${CASES} generated messages identically on both paths, clean on the wire and DKIM-valid`, async () => {
    await fc.assert(
      fc.asyncProperty(caseArbitrary, async (c) => {
        let compiled: ReturnType<typeof compileCampaign>;
        try {
          compiled = compileCampaign({ subject: c.subject, preheader: c.preheader, html: c.html, text: c.text });
        } catch {
          return; // not valid Liquid (the editor refuses it at save time): nothing to send
        }
        const token = `t${sent.length.toString(16).padStart(8, '0')}`;
        const links = messageLinks(c.publicUrl, 'c1', token);
        const scope = buildScope(
          {
            email: `p${sent.length}@destino.com.br`,
            name: c.contact.name,
            fields: { cidade: c.contact.cidade, obs: c.contact.obs },
          },
          account,
          links,
          'Campanha',
        );
        const frame = createMessageFrame({
          fromEmail: 'contato@padaria.com.br',
          fromName: c.fromName,
          replyTo: 'sac@padaria.com.br',
          listId: 'c1.carteiro.test',
          feedbackId: 'c1:a1:campaign:carteiro',
          messageIdDomain: 'padaria.com.br',
          extraHeaders: { Precedence: 'bulk' },
          boundary: '=_crt_test',
          allowHttpUnsubscribe: c.publicUrl.startsWith('http://'),
        });
        const base = {
          messageId: token,
          to: `p${sent.length}@destino.com.br`,
          toName: c.contact.name,
          unsubscribeUrl: links.unsubscribeUrl,
          date: DATE,
        };

        // String path (renderMessage + buildMimeMessage), as the engine's assemble().
        const rendered = renderMessage(compiled, scope);
        const viaString = buildMimeMessage(frame, {
          ...base,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
        });

        // Fast path (body programs + buildMimeMessageFromParts), as the engine's buildFast().
        const programs = {
          html: new BodyProgram(compiled.html, htmlLiquid),
          text: new BodyProgram(compiled.text, textLiquid, { trim: true }),
          subject: new BodyProgram(compiled.subject, textLiquid),
        };
        const subject = programs.subject.renderString(scope).replace(/\s+/g, ' ').trim();
        const viaParts = buildMimeMessageFromParts(
          frame,
          { ...base, subject },
          programs.text.prepare(scope, null),
          programs.html.prepare(scope, null),
        );

        expect(viaParts.toString('latin1')).toBe(viaString.toString('latin1'));
        expect(wireProblems(viaString)).toEqual([]);
        const [textPart, htmlPart] = decodedParts(viaString);
        expect(textPart?.toString('utf8')).toBe(canonicalText(rendered.text));
        expect(htmlPart?.toString('utf8')).toBe(canonicalText(rendered.html));

        let signed = viaString;
        for (const signer of signers) signed = signer.sign(signed);
        expect(wireProblems(signed)).toEqual([]);
        expect(await dkimProblems(signed, records)).toEqual([]);
        sent.push({ id: token, envelopeFrom: `b+${token}@bounces.carteiro.test`, recipient: base.to, raw: signed });
      }),
      { numRuns: CASES },
    );

    // The same messages through a real SMTP exchange: the relay receives exactly the bytes built (dot-stuffing).
    const pool = createSmtpPool({ host: '127.0.0.1', port: sink.port, connections: 2, startTls: 'never' });
    try {
      const outcomes = await pool.deliver(sent);
      expect(outcomes.every((o) => o.kind === 'sent')).toBe(true);
    } finally {
      await pool.close();
    }
    expect(sink.messages).toHaveLength(sent.length);
    const byRecipient = new Map(sink.messages.map((m) => [m.to, m.raw]));
    for (const message of sent) {
      const received = byRecipient.get(message.recipient);
      expect(received?.equals(message.raw), message.id).toBe(true);
    }
  }, 120_000);
});
