/**
 * The one wire builder (ADR 0011, ADR 0029): every message Carteiro emits — campaigns, A/B variants, transactional
 * and automation messages, test sends and Carteiro's own e-mails — gets its header frame from `wireFrame` and its
 * bytes from `buildMimeMessage` (or the pre-encoded form of the campaign fast path), and is signed by `signChain`
 * with the From domain's keys and/or the platform's. What differs between streams is decided here, once:
 * marketing carries List-Id, `Precedence: bulk` and (per message) the RFC 8058 List-Unsubscribe pair;
 * transactional and system messages carry none of them.
 */
import type { MessageStream } from '@carteiro/shared';
import { messageIdDomainFor } from './build-message';
import { type DkimSigner, signChain } from './dkim/dkim-signer';
import { buildMimeMessage, createMessageFrame, type MessageFields, type MessageFrame } from './mime/build-message';

export interface WireFrameOptions {
  stream: MessageStream;
  fromEmail: string;
  fromName?: string | null;
  replyTo?: string | null;
  /**
   * What the messages belong to: the campaign (or transactional stream) id, or a fixed word for Carteiro's own
   * mail (`sistema`). Names the List-Id of marketing messages and the first field of Feedback-ID.
   */
  sourceId: string;
  /** The account the messages are sent for; null for Carteiro's own mail. */
  accountId: string | null;
  /** LIST_ID_DOMAIN (PUBLIC_URL's host by default): List-Id's domain and the Message-ID fallback. */
  listIdDomain: string;
  /** PUBLIC_URL: an http:// one (development) relaxes List-Unsubscribe's https rule. */
  publicUrl: string;
  /** Feedback-ID's type field; by default `campaign` for marketing, else the stream. */
  feedbackType?: string;
  /** Further headers of every message of the frame (e.g. a test send's marker). */
  extraHeaders?: Record<string, string>;
}

/** The header frame of every message of one source, by its stream. */
export function wireFrame(options: WireFrameOptions): MessageFrame {
  const marketing = options.stream === 'marketing';
  return createMessageFrame({
    fromEmail: options.fromEmail,
    fromName: options.fromName,
    replyTo: options.replyTo,
    listId: marketing ? `${options.sourceId}.${options.listIdDomain}` : null,
    feedbackId: `${options.sourceId}:${options.accountId ?? 'carteiro'}:${options.feedbackType ?? feedbackKind(options.stream)}:carteiro`,
    messageIdDomain: messageIdDomainFor(options.fromEmail, options.listIdDomain),
    extraHeaders: { ...(marketing ? { Precedence: 'bulk' } : {}), ...options.extraHeaders },
    allowHttpUnsubscribe: !options.publicUrl.startsWith('https://'),
  });
}

/** Feedback-ID's type field: campaigns keep `campaign` (the feedback loop's history is keyed by it). */
function feedbackKind(stream: MessageStream): string {
  return stream === 'marketing' ? 'campaign' : stream;
}

/**
 * One message, built on `frame` and signed: the step every path shares. `fields.unsubscribeUrl` must be null
 * outside the marketing stream (a transactional or system message has no List-Unsubscribe).
 */
export function buildWireMessage(frame: MessageFrame, fields: MessageFields, signers: readonly DkimSigner[]): Buffer {
  return signChain(signers, buildMimeMessage(frame, fields));
}
