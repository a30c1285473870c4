/**
 * The contract between the sending engine and the fast delivery path.
 *
 * The engine builds `WireMessage`s (see `mime/build-message.ts` and `dkim/dkim-signer.ts`) and hands them,
 * in batches, to a `MailTransport` (see `smtp/smtp-pool.ts`). The transport answers with one
 * `DeliveryOutcome` per message, in the same order as the batch; it never throws for an SMTP-level failure.
 */

/** One fully built message ready for the wire. */
export interface WireMessage {
  id: string;
  envelopeFrom: string;
  recipient: string;
  raw: Buffer;
}

/**
 * What the relay said about one message.
 * kind: 'sent' (2xx), 'temporary' (4xx, connection lost before the final reply, timeout),
 * 'permanent' (5xx; policy = enhanced code 5.7.x).
 */
export interface DeliveryOutcome {
  id: string;
  kind: 'sent' | 'temporary' | 'permanent';
  policy: boolean;
  code: number | null;
  enhancedCode: string | null;
  response: string;
}

export interface MailTransport {
  /** Delivers a batch; resolves with one outcome per message, in batch order. Never rejects for SMTP errors. */
  deliver(batch: WireMessage[]): Promise<DeliveryOutcome[]>;
  /** Sends QUIT on every connection and releases the sockets. */
  close(): Promise<void>;
}
