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
}

/** The one way the application sends its own e-mail (verification, reset, invitations, notices). */
export interface Mailer {
  /** Sends one message; resolves with its Message-ID, rejects with the transport's error. */
  send(mail: OutgoingMail): Promise<{ messageId: string }>;
  close(): void;
}

/** A nodemailer transport for `smtpUrl` (the real relay, or the built-in catcher on loopback). */
export function createMailer(options: { smtpUrl: string; defaultFrom: string; logger: Logger }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl);
  return {
    async send(mail) {
      const info = await transport.sendMail({
        from: mail.from ?? options.defaultFrom,
        to: mail.to,
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
