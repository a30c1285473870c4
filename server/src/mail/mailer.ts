import nodemailer from 'nodemailer';
import type { Logger } from 'pino';

export interface OutgoingMail {
  to: string | string[];
  subject: string;
  html: string;
  text: string;
  from?: string;
  replyTo?: string;
  headers?: Record<string, string>;
  /**
   * The account the mail concerns (an invitation, a list's confirmation, a notice): the account's suppressions that
   * cover the `system` stream (a hard bounce, a complaint, an erasure, a manual entry — not an unsubscribe) keep it
   * from those recipients.
   */
  accountId?: string;
}

/** The strongest suppression of the address in the account that covers the system stream, or null. */
export type SystemSuppressionCheck = (accountId: string, email: string) => Promise<string | null>;

/** The one way the application sends its own e-mail (verification, reset, invitations, notices). */
export interface Mailer {
  /**
   * Sends one message; resolves with its Message-ID (null when every recipient is suppressed for the account, see
   * `OutgoingMail.accountId`: nothing is sent then), rejects with the transport's error.
   */
  send(mail: OutgoingMail): Promise<{ messageId: string | null }>;
  close(): void;
}

/** A nodemailer transport for `smtpUrl` (the real relay, or the built-in catcher on loopback). */
export function createMailer(options: {
  smtpUrl: string;
  defaultFrom: string;
  logger: Logger;
  /** The contacts module's suppression rule for the system stream (applied when a mail names its account). */
  suppressedFor?: SystemSuppressionCheck;
}): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      let to = mail.to;
      if (mail.accountId && options.suppressedFor) {
        const kept: string[] = [];
        for (const address of Array.isArray(mail.to) ? mail.to : [mail.to]) {
          const reason = await options.suppressedFor(mail.accountId, address);
          if (reason) {
            options.logger.info({ accountId: mail.accountId, subject: mail.subject, reason }, 'mail suppressed');
          } else kept.push(address);
        }
        if (kept.length === 0) return { messageId: null };
        to = kept;
      }
      const info = await transport.sendMail({
        from: mail.from ?? options.defaultFrom,
        to,
        subject: mail.subject,
        html: mail.html,
        text: mail.text,
        replyTo: mail.replyTo,
        headers: mail.headers,
      });
      options.logger.info({ messageId: info.messageId, to: mail.to, subject: mail.subject }, 'mail sent');
      return { messageId: info.messageId };
    },
    close() {
      transport.close();
    },
  };
}
