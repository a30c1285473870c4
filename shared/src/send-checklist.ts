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
  /** Segments the campaign targets next to its lists (issue 15); a follow-up targets its original's non-openers. */
  includeSegmentIds?: readonly string[];
  resendOfCampaignId?: string | null;
  /** Recipients after deduplication and suppressions, when known (the summary); undefined skips the check. */
  recipients?: number;
  html: string;
  fromEmail: string | null | undefined;
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

/** Every check, in the order a person fixes them; `ok` tells which are missing. */
export function sendChecklist(input: SendCheckInput): SendCheckItem[] {
  const edit = `/dashboard/campaigns/${input.campaignId}/edit`;
  const account = input.account;
  const identityMissing = [
    !account?.legalName?.trim() && 'nome da empresa (razão social)',
    !account?.taxId?.trim() && 'CNPJ ou CPF',
    !account?.address?.trim() && 'endereço',
  ].filter(Boolean) as string[];
  const noLists = input.includeListIds.length === 0 && !input.includeSegmentIds?.length && !input.resendOfCampaignId;
  const items: Array<SendCheckItem | null> = [
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
          key: 'sender',
          ok: Boolean(input.fromEmail?.trim() || account.defaultFromEmail?.trim()),
          label: 'Remetente',
          problem: 'Informe o e-mail do remetente antes de enviar.',
          fix: { href: edit, text: 'Escolher o remetente' },
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
  return items.filter((item): item is SendCheckItem => item !== null);
}

/** The items still missing. */
export function missingSendChecks(input: SendCheckInput): SendCheckItem[] {
  return sendChecklist(input).filter((item) => !item.ok);
}
