/**
 * The three streams every message Carteiro emits belongs to, as the best transactional services keep them:
 * `marketing` (campaigns, automations, API sends in marketing form), `transactional` (API sends a recipient
 * expects: orders, receipts, passwords) and `system` (Carteiro's own e-mails: verification, reset, invitations,
 * notices). A stream decides what a suppression covers: an unsubscribe covers the account's marketing stream only;
 * a hard bounce, a complaint or an LGPD erasure cover every stream.
 */
export const MESSAGE_STREAMS = ['marketing', 'transactional', 'system'] as const;
export type MessageStream = (typeof MESSAGE_STREAMS)[number];

/** The pt-BR name of each stream, as the dashboard and the API docs show it. */
export const MESSAGE_STREAM_LABELS: Record<MessageStream, string> = {
  marketing: 'Marketing',
  transactional: 'Transacional',
  system: 'Sistema',
};
