/**
 * Why a message counted in a send was not delivered: the recipient stopped being eligible between the snapshot (or
 * the API request) and the moment a worker claimed the message, or the send was cancelled. One code per skipped
 * message (`messages.skip_reason`), shown by the campaign report, the recipients CSV, the API and the webhooks.
 * The eligibility rule that produces the recipient codes lives on the audience side
 * (server/src/modules/contacts/recipient-eligibility.ts); the order below is the order it checks them.
 */
export const SKIP_REASONS = [
  'contact_deleted',
  'contact_unsubscribed',
  'contact_bounced',
  'contact_complained',
  'suppressed',
  'left_list',
  'campaign_cancelled',
  // A message sent with a test key (ct_test_…): stored, rendered and answered, never delivered (ADR 0035).
  'sandbox',
  // A scheduled transactional message (sendAt) cancelled before it went; refunded.
  'message_cancelled',
] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** The pt-BR label of each reason, as the report, the CSV and the automation history show it. */
export const SKIP_REASON_LABELS: Record<SkipReason, string> = {
  suppressed: 'Endereço na lista de supressão',
  contact_deleted: 'Contato excluído',
  contact_unsubscribed: 'Contato descadastrado',
  contact_bounced: 'Endereço com devolução permanente',
  contact_complained: 'Contato marcou como spam',
  left_list: 'Saiu da lista',
  campaign_cancelled: 'Campanha cancelada',
  sandbox: 'Chave de teste (não enviada)',
  message_cancelled: 'Envio programado cancelado',
};

/** The label of a stored reason; messages skipped before reasons were recorded have none. */
export function skipReasonLabel(reason: string | null | undefined): string {
  if (!reason) return '';
  return SKIP_REASON_LABELS[reason as SkipReason] ?? reason;
}

export function isSkipReason(value: unknown): value is SkipReason {
  return typeof value === 'string' && (SKIP_REASONS as readonly string[]).includes(value);
}
