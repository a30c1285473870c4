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

/** Which text an item shows: one per item and case (the web's catalogue keys its translations by it). */
export type SendCheckCase =
  | 'subject'
  | 'audience_unchosen'
  | 'audience_empty'
  | 'content'
  | 'unsubscribe'
  | 'identity'
  | 'sender_missing'
  | 'sender_unverified'
  | 'balance';

/** The identity fields every e-mail's footer needs before the first send. */
export type IdentityField = 'legalName' | 'taxId' | 'address';

/** The pt-BR words for the identity fields, as the identity problem lists them. */
export const IDENTITY_FIELD_LABELS: Readonly<Record<IdentityField, string>> = {
  legalName: 'nome da empresa (razão social)',
  taxId: 'CNPJ ou CPF',
  address: 'endereço',
};

/** The items' labels in pt-BR (one per item). */
export const SEND_CHECK_LABELS: Readonly<Record<SendCheckKey, string>> = {
  subject: 'Assunto',
  audience: 'Destinatários',
  content: 'Conteúdo',
  unsubscribe: 'Link de descadastro',
  identity: 'Identificação no rodapé',
  sender: 'Remetente',
  balance: 'Saldo',
};

/**
 * What is missing and the fix link's text, in pt-BR, per case: the server's refusal and the web's pt-BR catalogue
 * both read them here. `{from}` is the unverified address; `{missing}` the identity fields still empty.
 */
export const SEND_CHECK_TEXTS: Readonly<Record<SendCheckCase, { problem: string; fix: string }>> = {
  subject: { problem: 'Informe o assunto antes de enviar.', fix: 'Escrever o assunto' },
  audience_unchosen: {
    problem: 'Escolha pelo menos uma lista ou segmento de destinatários antes de enviar.',
    fix: 'Escolher listas ou segmentos',
  },
  audience_empty: {
    problem: 'Nenhum destinatário: as listas e segmentos escolhidos não têm contatos inscritos.',
    fix: 'Adicionar contatos',
  },
  content: { problem: 'A campanha não tem conteúdo (modelo vazio).', fix: 'Escolher um modelo' },
  unsubscribe: {
    problem:
      'O modelo não tem o link de descadastro. Inclua {{ link_descadastro }} no rodapé: ele é obrigatório em e-mails de marketing.',
    fix: 'Editar o conteúdo',
  },
  identity: {
    problem:
      'Complete a identificação da empresa que aparece no rodapé de todo e-mail ({missing}): é exigida antes do primeiro envio, como pede o código de autorregulamentação (CAPEM).',
    fix: 'Completar a identificação',
  },
  sender_missing: { problem: 'Informe o e-mail do remetente antes de enviar.', fix: 'Escolher o remetente' },
  sender_unverified: {
    problem:
      'O remetente {from} não está verificado. Confirme o endereço ou verifique o domínio em Configurações → Remetentes e domínios.',
    fix: 'Verificar o remetente',
  },
  balance: { problem: 'Saldo insuficiente para este envio.', fix: 'Adicionar créditos' },
};

export interface SendCheckItem {
  key: SendCheckKey;
  /** Which of the item's texts applies (the web translates by it). */
  case: SendCheckCase;
  /** The error code the server answers with when this item is the first missing one. */
  errorCode: 'campaign_not_ready' | 'sender_not_verified';
  ok: boolean;
  /** What the item is ("Assunto"). */
  label: string;
  /** What is missing, in pt-BR, when not ok. */
  problem: string;
  /** Where to fix it (an app path) and the link's text. */
  fix: { href: string; text: string };
  /** The data in the problem: the unverified From (`sender_unverified`), the empty identity fields (`identity`). */
  from?: string;
  identityMissing?: IdentityField[];
}

const UNSUBSCRIBE_TAG = /\{\{-?\s*link_descadastro\b/;
const HTML_COMMENT = /<!--[\s\S]*?-->/g;

/** True when the HTML (comments aside) has the `{{ link_descadastro }}` tag. */
export function hasUnsubscribeLinkTag(html: string): boolean {
  return UNSUBSCRIBE_TAG.test(html.replace(HTML_COMMENT, ''));
}

export const IDENTITY_SETTINGS_PATH = '/dashboard/settings?aba=conta';
export const SENDERS_SETTINGS_PATH = '/dashboard/settings?aba=remetentes';

type Draft = Pick<SendCheckItem, 'key' | 'case' | 'ok' | 'from' | 'identityMissing'> & {
  href: string;
  errorCode?: SendCheckItem['errorCode'];
};

/** Every check, in the order a person fixes them; `ok` tells which are missing. */
export function sendChecklist(input: SendCheckInput): SendCheckItem[] {
  const edit = `/dashboard/campaigns/${input.campaignId}/edit`;
  const account = input.account;
  const identityMissing = (
    [
      ['legalName', account?.legalName],
      ['taxId', account?.taxId],
      ['address', account?.address],
    ] as const
  )
    .filter(([, value]) => !value?.trim())
    .map(([field]) => field);
  const from = (input.fromEmail?.trim() || account?.defaultFromEmail?.trim() || '').toLowerCase();
  const noLists = input.includeListIds.length === 0 && !input.includeSegmentIds?.length && !input.resendOfCampaignId;
  const drafts: Array<Draft | null> = [
    { key: 'subject', case: 'subject', ok: input.subject.trim() !== '', href: edit },
    {
      key: 'audience',
      case: noLists ? 'audience_unchosen' : 'audience_empty',
      ok: !noLists && (input.recipients === undefined || input.recipients > 0),
      href: noLists ? edit : '/dashboard/contacts',
    },
    { key: 'content', case: 'content', ok: input.html.trim() !== '', href: edit },
    input.html.trim() === ''
      ? null
      : { key: 'unsubscribe', case: 'unsubscribe', ok: hasUnsubscribeLinkTag(input.html), href: edit },
    !account
      ? null
      : {
          key: 'identity',
          case: 'identity',
          ok: identityMissing.length === 0,
          identityMissing,
          href: IDENTITY_SETTINGS_PATH,
        },
    !account
      ? null
      : from === ''
        ? { key: 'sender', case: 'sender_missing', ok: false, href: edit }
        : {
            key: 'sender',
            case: 'sender_unverified',
            ok: input.isSenderVerified !== false,
            errorCode: 'sender_not_verified',
            from,
            href: SENDERS_SETTINGS_PATH,
          },
    input.isBalanceSufficient === undefined
      ? null
      : { key: 'balance', case: 'balance', ok: input.isBalanceSufficient, href: '/dashboard/my-balance' },
  ];
  return drafts
    .filter((draft) => draft !== null)
    .map(({ href, errorCode, ...draft }) => {
      const texts = SEND_CHECK_TEXTS[draft.case];
      const problem = texts.problem
        .replace('{from}', draft.from ?? '')
        .replace('{missing}', (draft.identityMissing ?? []).map((field) => IDENTITY_FIELD_LABELS[field]).join(', '));
      return {
        ...draft,
        errorCode: errorCode ?? 'campaign_not_ready',
        label: SEND_CHECK_LABELS[draft.key],
        problem,
        fix: { href, text: texts.fix },
      };
    });
}

/** The items still missing. */
export function missingSendChecks(input: SendCheckInput): SendCheckItem[] {
  return sendChecklist(input).filter((item) => !item.ok);
}
