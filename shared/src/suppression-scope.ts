import { MESSAGE_STREAMS, type MessageStream } from './message-streams';
import { SUPPRESSION_REASON_VALUES, type SuppressionReason } from './schemas/audience';

/**
 * The streams each suppression reason covers — the one rule every send path, the claim and the API answer follow.
 * An unsubscribe is the person's "no more marketing": order confirmations, password resets and Carteiro's own
 * e-mails still reach them. A hard bounce (the mailbox does not exist), a complaint (the person called it spam) and
 * an LGPD erasure stop everything. A manual entry is the sender's own "never mail this address" for the whole
 * account; the sender can take it back at any time (an unsubscribe, marketing only, is the contact's
 * "Descadastrar" action instead).
 */
export const SUPPRESSION_SCOPE: Readonly<Record<SuppressionReason, readonly MessageStream[]>> = {
  unsubscribed: ['marketing'],
  manual: MESSAGE_STREAMS,
  bounced: MESSAGE_STREAMS,
  complained: MESSAGE_STREAMS,
  erased: MESSAGE_STREAMS,
};

/** True when a suppression with this reason keeps the stream's messages from the address. */
export function suppressionCovers(reason: SuppressionReason, stream: MessageStream): boolean {
  return SUPPRESSION_SCOPE[reason].includes(stream);
}

/** The reasons that keep the stream's messages from an address (in SUPPRESSION_REASON_VALUES order). */
export function reasonsCovering(stream: MessageStream): SuppressionReason[] {
  return SUPPRESSION_REASON_VALUES.filter((reason) => suppressionCovers(reason, stream));
}

/**
 * An address can carry several reasons at once (unsubscribed, then bounced): each is kept, and the one shown is the
 * strongest — the widest scope first, then what the person or their provider did before what the sender did.
 */
export const SUPPRESSION_REASON_PRECEDENCE: readonly SuppressionReason[] = [
  'erased',
  'complained',
  'bounced',
  'manual',
  'unsubscribed',
];

/** The strongest of an address's reasons (SUPPRESSION_REASON_PRECEDENCE); null when there is none. */
export function strongestSuppressionReason(reasons: Iterable<SuppressionReason>): SuppressionReason | null {
  const held = new Set(reasons);
  return SUPPRESSION_REASON_PRECEDENCE.find((reason) => held.has(reason)) ?? null;
}

/**
 * The reasons the mailbox owner's own confirmed consent (a double opt-in link they followed) lifts: they chose
 * them. A bounce, a complaint and the sender's manual entry stay whatever the person confirms.
 */
export const CONSENT_LIFTS: readonly SuppressionReason[] = ['unsubscribed', 'erased'];

/** pt-BR, as a message's answer and its report say why it was not sent. */
export const SUPPRESSION_REASON_LABELS: Readonly<Record<SuppressionReason, string>> = {
  unsubscribed: 'descadastrado do marketing',
  bounced: 'devolução permanente, endereço inexistente',
  complained: 'reclamação de spam',
  erased: 'dados apagados a pedido do titular (LGPD)',
  manual: 'adicionado à lista de supressão pela conta',
};
