/**
 * The campaign status machine, in one place (style guide "Status changes in one place"). Every status change
 * of a campaign — by the API, the scheduler or the sending engine — is checked against this table.
 */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'sending', 'paused', 'sent', 'cancelled', 'failed'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Allowed next statuses. sent, cancelled and failed are final. */
export const CAMPAIGN_TRANSITIONS: Readonly<Record<CampaignStatus, readonly CampaignStatus[]>> = {
  draft: ['scheduled', 'sending', 'cancelled'],
  scheduled: ['draft', 'sending', 'cancelled'],
  sending: ['paused', 'sent', 'cancelled', 'failed'],
  paused: ['sending', 'cancelled', 'failed'],
  sent: [],
  cancelled: [],
  failed: [],
};

/** pt-BR labels for badges and messages. */
export const CAMPAIGN_STATUS_LABELS: Readonly<Record<CampaignStatus, string>> = {
  draft: 'Rascunho',
  scheduled: 'Agendada',
  sending: 'Enviando',
  paused: 'Pausada',
  sent: 'Enviada',
  cancelled: 'Cancelada',
  failed: 'Falhou',
};

export function isCampaignStatus(value: unknown): value is CampaignStatus {
  return typeof value === 'string' && (CAMPAIGN_STATUSES as readonly string[]).includes(value);
}

/** True when the table allows going from `from` to `to` (staying in the same status is not a transition). */
export function canTransition(from: CampaignStatus, to: CampaignStatus): boolean {
  return CAMPAIGN_TRANSITIONS[from].includes(to);
}

/** True for statuses whose content (audience, template, sender…) may still change: before sending starts. */
export function isEditable(status: CampaignStatus): boolean {
  return status === 'draft' || status === 'scheduled';
}

/** True for statuses in which the campaign may be deleted: drafts only (anything else has history). */
export function isDeletable(status: CampaignStatus): boolean {
  return status === 'draft';
}

/** True once the campaign will never change status again. */
export function isFinal(status: CampaignStatus): boolean {
  return CAMPAIGN_TRANSITIONS[status].length === 0;
}

/** The pt-BR reason a transition is refused, or null when it is allowed. */
export function refusedTransitionMessage(from: CampaignStatus, to: CampaignStatus): string | null {
  if (canTransition(from, to)) return null;
  const fromLabel = CAMPAIGN_STATUS_LABELS[from].toLowerCase();
  const toLabel = CAMPAIGN_STATUS_LABELS[to].toLowerCase();
  if (isFinal(from)) return `Esta campanha já está ${fromLabel} e não pode mais mudar de situação.`;
  return `Não é possível mudar a campanha de "${fromLabel}" para "${toLabel}".`;
}

/**
 * Throws (via `makeError`, so the server can throw its AppError) when the transition is not allowed.
 * Returns `to`, for `status: assertTransition(campaign.status, 'scheduled', …)`.
 */
export function assertTransition(
  from: CampaignStatus,
  to: CampaignStatus,
  makeError: (message: string) => Error = (message) => new Error(message),
): CampaignStatus {
  const message = refusedTransitionMessage(from, to);
  if (message) throw makeError(message);
  return to;
}
