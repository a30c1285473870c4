/**
 * What a campaign needs before it can be sent, as one list both sides use (ADR 0017): the web shows it on the
 * campaign page and in the send dialog BEFORE "Continuar", with a link to fix each item; the server refuses a
 * send with the first missing item's message. Pure: callers pass what they know.
 */

export type SendCheckKey = 'subject' | 'audience' | 'content' | 'unsubscribe' | 'sender' | 'identity' | 'balance';

export interface SendCheckInput {
  campaignId: string;
  subject: string;
  includeListIds: readonly string[];
  /** Segments the campaign targets next to its lists; a follow-up targets its original's non-openers. */
  includeSegmentIds?: readonly string[];
  resendOfCampaignId?: string | null;
  /** Recipients after deduplication and suppressions, when known (the summary); undefined skips the check. */
  recipients?: number;
  html: string;
  fromEmail: string | null | undefined;
  /**
   * Whether the From (the campaign's, else the account's default) passes the one sending rule — a confirmed
   * address or an address at a verified domain of the account (ADR 0012). undefined = not known yet (the web while
   * it asks), which does not fail the item; the server always knows.
   */
  isSenderVerified?: boolean;
  /** The sending account; undefined skips the sender and identity checks (the caller checks them elsewhere). */
  account?: {
    defaultFromEmail?: string | null;
    legalName?: string | null;
    taxId?: string | null;
    address?: string | null;
  };
  /** From the summary; undefined skips the check (the server checks it when reserving). */
  isBalanceSufficient?: boolean;
}

export interface SendCheckItem {
  key: SendCheckKey;
  /** The error code the server answers with when this item is the first missing one. */
  errorCode: 'campaign_not_ready' | 'sender_not_verified';
  ok: boolean;
  /** What the item is ("Assunto"). */
  label: string;
  /** What is missing, in pt-BR, when not ok. */
  problem: string;
  /** Where to fix it (an app path) and the link's text. */
  fix: { href: string; text: string };
}

const UNSUBSCRIBE_TAG = /\{\{-?\s*link_descadastro\b/;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/** True when the HTML (comments aside) has the `{{ link_descadastro }}` tag. */
export function hasUnsubscribeLinkTag(html: string): boolean {
  return UNSUBSCRIBE_TAG.test(html.replace(HTML_COMMENT, ''));
}

export const IDENTITY_SETTINGS_PATH = '/dashboard/settings?aba=conta';
export const SENDERS_SETTINGS_PATH = '/dashboard/settings?aba=remetentes';

/** Every check, in the order a person fixes them; `ok` tells which are missing. */
export function sendChecklist(input: SendCheckInput): SendCheckItem[] {
  const edit = `/dashboard/campaigns/${input.campaignId}/edit`;
  const account = input.account;
  const identityMissing = [
    !account?.legalName?.trim() && 'nome da empresa (razão social)',
    !account?.taxId?.trim() && 'CNPJ ou CPF',
    !account?.address?.trim() && 'endereço',
  ].filter(Boolean) as string[];
  const from = (input.fromEmail?.trim() || account?.defaultFromEmail?.trim() || '').toLowerCase();
  const noLists = input.includeListIds.length === 0 && !input.includeSegmentIds?.length && !input.resendOfCampaignId;
  const items: Array<(Omit<SendCheckItem, 'errorCode'> & { errorCode?: SendCheckItem['errorCode'] }) | null> = [
    {
      key: 'subject',
      ok: input.subject.trim() !== '',
      label: 'Assunto',
      problem: 'Informe o assunto antes de enviar.',
      fix: { href: edit, text: 'Escrever o assunto' },
    },
    {
      key: 'audience',
      ok: !noLists && (input.recipients === undefined || input.recipients > 0),
      label: 'Destinatários',
      problem: noLists
        ? 'Escolha pelo menos uma lista ou segmento de destinatários antes de enviar.'
        : 'Nenhum destinatário: as listas e segmentos escolhidos não têm contatos inscritos.',
      fix: noLists
        ? { href: edit, text: 'Escolher listas ou segmentos' }
        : { href: '/dashboard/contacts', text: 'Adicionar contatos' },
    },
    {
      key: 'content',
      ok: input.html.trim() !== '',
      label: 'Conteúdo',
      problem: 'A campanha não tem conteúdo (modelo vazio).',
      fix: { href: edit, text: 'Escolher um modelo' },
    },
    input.html.trim() === ''
      ? null
      : {
          key: 'unsubscribe',
          ok: hasUnsubscribeLinkTag(input.html),
          label: 'Link de descadastro',
          problem:
            'O modelo não tem o link de descadastro. Inclua {{ link_descadastro }} no rodapé: ele é obrigatório em e-mails de marketing.',
          fix: { href: edit, text: 'Editar o conteúdo' },
        },
    !account
      ? null
      : {
          key: 'identity',
          ok: identityMissing.length === 0,
          label: 'Identificação no rodapé',
          problem: `Complete a identificação da empresa que aparece no rodapé de todo e-mail (${identityMissing.join(', ')}): é exigida antes do primeiro envio, como pede o código de autorregulamentação (CAPEM).`,
          fix: { href: IDENTITY_SETTINGS_PATH, text: 'Completar a identificação' },
        },
    !account
      ? null
      : from === ''
        ? {
            key: 'sender',
            ok: false,
            label: 'Remetente',
            problem: 'Informe o e-mail do remetente antes de enviar.',
            fix: { href: edit, text: 'Escolher o remetente' },
          }
        : {
            key: 'sender',
            ok: input.isSenderVerified !== false,
            errorCode: 'sender_not_verified',
            label: 'Remetente',
            problem: `O remetente ${from} não está verificado. Confirme o endereço ou verifique o domínio em Configurações → Remetentes e domínios.`,
            fix: { href: SENDERS_SETTINGS_PATH, text: 'Verificar o remetente' },
          },
    input.isBalanceSufficient === undefined
      ? null
      : {
          key: 'balance',
          ok: input.isBalanceSufficient,
          label: 'Saldo',
          problem: 'Saldo insuficiente para este envio.',
          fix: { href: '/dashboard/my-balance', text: 'Adicionar créditos' },
        },
  ];
  return items
    .filter((item) => item !== null)
    .map((item) => ({ ...item, errorCode: item.errorCode ?? 'campaign_not_ready' }));
}

/** The items still missing. */
export function missingSendChecks(input: SendCheckInput): SendCheckItem[] {
  return sendChecklist(input).filter((item) => !item.ok);
}
