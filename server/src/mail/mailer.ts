import { randomBytes } from 'node:crypto';
import type { MessageStream } from '@carteiro/shared';
import type { Logger } from 'pino';
import type { SigningResolver } from '../modules/sender-identities/sender-signing';
import { verpAddress } from '../modules/sending/build-message';
import type { DkimSigner } from '../modules/sending/dkim/dkim-signer';
import type { MailTransport } from '../modules/sending/transport';
import { buildWireMessage, wireFrame } from '../modules/sending/wire-message';

export interface OutgoingMail {
  to: string | string[];
  subject: string;
  html: string;
  text: string;
  /** The From address (`nome@dominio` or `Nome <nome@dominio>`); MAIL_FROM by default. */
  from?: string;
  /** The From display name when `from` is a bare address. */
  fromName?: string | null;
  replyTo?: string;
  headers?: Record<string, string>;
  /**
   * The account the mail concerns (an invitation, a list's confirmation, a notice, a test send): the account's
   * suppressions that cover the system stream (a hard bounce, a complaint, an erasure, a manual entry — not an
   * unsubscribe) keep it from those recipients, and a From on one of the account's verified
   * sender domains is signed with that domain's key.
   */
  accountId?: string;
  /**
   * The stream the mail is built as; `system` by default. A test send is built as the real message would be
   * (`marketing`: List-Id, Precedence: bulk and, with `unsubscribeUrl`, the RFC 8058 List-Unsubscribe pair).
   */
  stream?: MessageStream;
  /** List-Unsubscribe's URL (marketing only). */
  unsubscribeUrl?: string;
  /** What the mail belongs to (a campaign's id for its test): List-Id and Feedback-ID. Default `sistema`. */
  sourceId?: string;
}

/** The strongest suppression of the address in the account that covers the system stream, or null. */
export type SystemSuppressionCheck = (accountId: string, email: string) => Promise<string | null>;

/** The one way the application sends its own e-mail (verification, reset, invitations, notices, test sends). */
export interface Mailer {
  /**
   * Sends the mail, one message per recipient; resolves with the first message's Message-ID (null when every
   * recipient is suppressed for the account, see `OutgoingMail.accountId`: nothing is sent then), rejects with the
   * relay's answer when a message is refused or cannot be handed over.
   */
  send(mail: OutgoingMail): Promise<{ messageId: string | null }>;
  close(): Promise<void> | void;
}

/** `Nome <email>` / `"Nome" <email>` / `email` → its parts. */
export function parseMailbox(value: string): { email: string; name: string | null } {
  const match = /^\s*(?:"?([^"<]*?)"?\s*)?<([^<>\s]+@[^<>\s]+)>\s*$/.exec(value);
  if (match) return { email: match[2] as string, name: match[1]?.trim() || null };
  return { email: value.trim(), name: null };
}

/**
 * The Mailer on the one pipeline (ADR 0029): every message is built by the wire builder the campaigns use
 * (sending/wire-message.ts), signed with the From domain's key (verified sender domain of `accountId`) and/or the
 * platform key (DKIM_*), and handed to the project's own SMTP client (sending/smtp) — the relay, or the built-in
 * catcher on loopback.
 */
export function createMailer(options: {
  transport: MailTransport;
  defaultFrom: string;
  logger: Logger;
  /** PUBLIC_URL and LIST_ID_DOMAIN / BOUNCE_DOMAIN (PUBLIC_URL's host by default), as the engine has them. */
  publicUrl: string;
  listIdDomain: string;
  bounceDomain: string;
  /** The platform's DKIM signers (DKIM_DOMAIN and its keys); none: the platform does not sign. */
  platformSigners?: DkimSigner[];
  /** The sender-identities resolver of the engine: the From domain's keys, then the platform's. */
  signingFor?: SigningResolver;
  /**
   * The contacts module's suppression rule for the system stream (applied when a mail names its account). A test
   * send is checked as system mail too: a member asked for it, to addresses the mail policy allowed, so an
   * unsubscribe from the account's marketing does not stop it — a bounce, a complaint or an erasure does.
   */
  suppressedFor?: SystemSuppressionCheck;
}): Mailer {
  const defaultFrom = parseMailbox(options.defaultFrom);
  return {
    async send(mail) {
      const stream = mail.stream ?? 'system';
      let recipients = Array.isArray(mail.to) ? mail.to : [mail.to];
      if (mail.accountId && options.suppressedFor) {
        const kept: string[] = [];
        for (const address of recipients) {
          const reason = await options.suppressedFor(mail.accountId, address);
          if (reason) {
            options.logger.info({ accountId: mail.accountId, subject: mail.subject, reason }, 'mail suppressed');
          } else kept.push(address);
        }
        if (kept.length === 0) return { messageId: null };
        recipients = kept;
      }
      const from = mail.from ? parseMailbox(mail.from) : defaultFrom;
      const fromName = mail.fromName ?? from.name;
      const signing =
        mail.accountId && options.signingFor ? await options.signingFor(mail.accountId, from.email) : null;
      const signers = signing?.signers ?? options.platformSigners ?? [];
      const frame = wireFrame({
        stream,
        fromEmail: from.email,
        fromName,
        replyTo: mail.replyTo ?? null,
        sourceId: mail.sourceId ?? 'sistema',
        accountId: mail.accountId ?? null,
        listIdDomain: options.listIdDomain,
        publicUrl: options.publicUrl,
        extraHeaders: mail.headers,
      });
      const bounceDomain = signing?.bounceDomain ?? options.bounceDomain;
      const messages = recipients.map((to) => {
        const token = randomBytes(20).toString('hex');
        return {
          id: token,
          // A system token never names a message row: a bounce to it is read and dropped (bounces/ reads b+<token>).
          envelopeFrom: verpAddress(token, bounceDomain),
          recipient: to,
          raw: buildWireMessage(
            frame,
            {
              messageId: token,
              to,
              subject: mail.subject,
              unsubscribeUrl: stream === 'marketing' ? (mail.unsubscribeUrl ?? null) : null,
              text: mail.text,
              html: mail.html,
            },
            signers,
          ),
        };
      });
      const outcomes = await options.transport.deliver(messages);
      const refused = outcomes.find((o) => o.kind !== 'sent');
      if (refused) {
        options.logger.warn({ to: recipients, subject: mail.subject, response: refused.response }, 'mail not sent');
        throw new Error(`o servidor SMTP recusou a mensagem: ${refused.response}`);
      }
      const messageId = `<${messages[0]?.id}@${frame.messageIdDomain}>`;
      options.logger.info({ messageId, to: recipients, subject: mail.subject }, 'mail sent');
      return { messageId };
    },
    close() {
      return options.transport.close();
    },
  };
}
