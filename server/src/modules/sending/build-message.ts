import MailComposer from 'nodemailer/lib/mail-composer';
import type { RenderedMessage } from '../templates/render-message';

/** What every message of one campaign shares: addresses and the domains its headers name. */
export interface MessageEnvelope {
  campaignId: string;
  accountId: string;
  fromName: string;
  fromEmail: string;
  replyTo: string | null;
  publicUrl: string;
  /** Domain of the VERP return path. */
  bounceDomain: string;
  /** Domain of List-Id and Message-ID. */
  listIdDomain: string;
}

/** The per-recipient URLs, all keyed by the message's opaque token (never by the contact's id or address). */
export function messageLinks(publicUrl: string, campaignId: string, token: string) {
  return {
    unsubscribeUrl: `${publicUrl}/u/${token}`,
    browserUrl: `${publicUrl}/campaign/${campaignId}/template-viewer?t=${token}`,
  };
}

/** VERP return path: a bounce that does not name the recipient still names its message (standards.md "Bounces"). */
export function verpAddress(token: string, bounceDomain: string): string {
  return `b+${token}@${bounceDomain}`;
}

/**
 * Development fallback (PUBLIC_URL not https, where mime/build-message.ts refuses the List-Unsubscribe URL):
 * the RFC 5322 message of one recipient composed by nodemailer: HTML + text (UTF-8, encoded by the composer for pt-BR accents),
 * Message-ID, Date, one https List-Unsubscribe URL with RFC 8058 one-click, List-Id, Feedback-ID.
 */
export async function buildMessage(
  envelope: MessageEnvelope,
  recipient: { email: string; name?: string | null; token: string },
  rendered: RenderedMessage,
): Promise<Buffer> {
  const links = messageLinks(envelope.publicUrl, envelope.campaignId, recipient.token);
  const composer = new MailComposer({
    from: { name: envelope.fromName, address: envelope.fromEmail },
    to: recipient.name ? { name: recipient.name, address: recipient.email } : recipient.email,
    replyTo: envelope.replyTo ?? undefined,
    subject: rendered.subject,
    html: rendered.html,
    text: rendered.text,
    messageId: `<${recipient.token}@${envelope.listIdDomain}>`,
    date: new Date(),
    textEncoding: 'quoted-printable',
    // Prepared: written as is, never folded or encoded (one line each; all ASCII).
    headers: {
      'List-Unsubscribe': { prepared: true, value: `<${links.unsubscribeUrl}>` },
      'List-Unsubscribe-Post': { prepared: true, value: 'List-Unsubscribe=One-Click' },
      'List-Id': { prepared: true, value: `<${envelope.campaignId}.${envelope.listIdDomain}>` },
      // Gmail's Feedback Loop: campaign:customer:mail type:sender.
      'Feedback-ID': { prepared: true, value: `${envelope.campaignId}:${envelope.accountId}:campaign:carteiro` },
      Precedence: 'bulk',
    },
  });
  return composer.compile().build();
}
