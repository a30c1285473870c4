/**
 * The shared schemas' validation texts: one catalogue, key → pt-BR text, data as `{name}` placeholders. The schemas
 * build their messages with `validationText`, so the server answers these pt-BR texts; the web maps an issue's text
 * back to its key (`validationIssueKey`) and shows the same key from its own catalogue in the current locale.
 * The `zod*` entries are for issues zod writes itself (a wrong type, a bound without a message of ours).
 */
export const VALIDATION_TEXTS = {
  taxIdInvalid: 'CPF ou CNPJ inválido.',
  emailInvalid: 'E-mail inválido.',
  accountNameRequired: 'Informe o nome da conta.',
  nameTooLong: 'Nome longo demais.',
  idInvalid: 'Identificador inválido.',
  legalNameTooLong: 'Razão social longa demais.',
  addressTooLong: 'Endereço longo demais.',
  timeZoneInvalid: 'Fuso horário inválido.',
  senderNameTooLong: 'Nome do remetente longo demais.',
  senderEmailInvalid: 'E-mail do remetente inválido.',
  accountInvalid: 'Conta inválida.',
  roleInvalid: 'Papel inválido.',
  invitationInvalid: 'Convite inválido.',
  keyNameRequired: 'Informe um nome para a chave.',
  nameTooLong100: 'Nome longo demais (máximo 100 caracteres).',
  keyScopeRequired: 'Escolha o escopo: acesso total ou somente envio.',
  keyModeRequired: 'Escolha o tipo: chave de produção ou chave de teste.',
  emailRequired: 'Informe o e-mail.',
  customFieldsInvalid: 'Campos personalizados inválidos.',
  customFieldsMax: 'No máximo 100 campos personalizados.',
  legalBasisRequired: 'Informe a base legal (consentimento ou legítimo interesse).',
  contactsRequired: 'Selecione ao menos um contato.',
  emailsRequired: 'Informe ao menos um e-mail.',
  emailsMax: 'No máximo 10.000 endereços de cada vez.',
  listNameRequired: 'Informe o nome da lista.',
  mappingInvalid: 'Mapeamento inválido.',
  columnTypeInvalid: 'Tipo de coluna inválido (texto, número ou data).',
  consentSourceRequired: 'Informe a origem do consentimento.',
  eventNameRequired: 'Informe o nome do evento.',
  eventNameInvalid: 'Nome de evento inválido: use letras, números, _, ., : ou - (até 100 caracteres).',
  listRequired: 'Escolha a lista.',
  dateFieldRequired: 'Escolha o campo de data.',
  hourInvalid: 'Hora inválida.',
  eventKeyInvalid:
    'Chave do evento inválida: use letras, números e _ (até 50 caracteres), como pedido ou numero_pedido.',
  triggerRequired: 'Escolha o gatilho.',
  integerRequired: 'Informe um número inteiro.',
  waitNegative: 'A espera não pode ser negativa.',
  max365: 'No máximo 365.',
  waitUnitRequired: 'Escolha horas ou dias.',
  templateRequired: 'Escolha o modelo.',
  subjectTooLong: 'Assunto longo demais.',
  senderEmailRequired: 'Informe o e-mail do remetente.',
  nameRequired: 'Informe o nome.',
  stepsRequired: 'Adicione ao menos um passo.',
  stepsMax: 'No máximo {max} passos.',
  contactEmailRequired: 'Informe o e-mail do contato.',
  dateFormat: 'Use a data no formato AAAA-MM-DD.',
  yearFrom1900: 'Use um ano a partir de 1900.',
  dateNonexistent: 'Data inexistente.',
  millisInteger: 'Use um valor inteiro em milésimos de real.',
  amountPositive: 'O valor deve ser positivo.',
  topupMax: 'O valor máximo de uma recarga é R$ 100.000,00.',
  periodOrder: 'A data inicial deve ser anterior ou igual à final.',
  amountNonzero: 'O valor não pode ser zero.',
  adjustmentMax: 'Um ajuste pode ser de no máximo R$ 1.000.000,00.',
  adjustmentReasonRequired: 'Informe o motivo do ajuste.',
  reasonRequired: 'Informe o motivo.',
  refundWholeCents: 'O valor da devolução deve ser em centavos inteiros.',
  refundReasonRequired: 'Informe o motivo da devolução.',
  reasonMax140: 'O motivo pode ter no máximo 140 caracteres.',
  orderKeyInvalid: 'Chave do pedido inválida.',
  listInvalid: 'Lista inválida.',
  listsMax: 'No máximo 100 listas.',
  segmentInvalid: 'Segmento inválido.',
  segmentsMax: 'No máximo 20 segmentos.',
  variantSubjectRequired: 'Informe o assunto de cada variante.',
  htmlTooLarge: 'HTML grande demais (máximo 1 MB).',
  variantsMin: 'Um teste A/B precisa de pelo menos 2 variantes.',
  variantsMax: 'No máximo 4 variantes (A a D).',
  abPercentRequired: 'Informe a parte do público que recebe o teste.',
  abPercentInteger: 'Use um número inteiro de por cento.',
  abPercentMin: 'O teste vai para pelo menos {min}% do público.',
  abPercentMax: 'O teste vai para no máximo {max}% do público.',
  abCriterionRequired: 'Escolha como o vencedor é decidido: aberturas ou cliques.',
  abWaitRequired: 'Informe quanto tempo esperar antes de escolher o vencedor.',
  abWaitInteger: 'Use um número inteiro de horas.',
  abWaitMin: 'Espere pelo menos {min} hora.',
  abWaitMax: 'Espere no máximo {max} horas.',
  campaignNameRequired: 'Informe o nome da campanha.',
  preheaderTooLong: 'Pré-cabeçalho longo demais.',
  uuidInvalid: 'Identificador (uuid) inválido.',
  templateInvalid: 'Modelo inválido.',
  sendAtRequired: 'Informe a data e a hora do envio.',
  dateTimeInvalid: 'Data e hora inválidas.',
  statusesUnknown: 'Situação desconhecida: {unknown}. Use: {allowed}.',
  variantInvalid: 'Variante inválida.',
  sendAtFormat: 'sendAt: use data e hora ISO 8601 com fuso (ex.: 2026-12-01T09:00:00-03:00).',
  sendAtPast: 'sendAt deve ser no futuro.',
  sendAtTooFar: 'sendAt pode ser no máximo {days} dias à frente.',
  filenameRequired: 'Informe o nome do arquivo (filename).',
  filenameTooLong: 'Nome de arquivo longo demais (máximo 150 caracteres).',
  filenameChars: 'O nome do arquivo não pode ter barras nem caracteres de controle.',
  fileTypeForbidden: 'Tipo de arquivo não permitido (executáveis e scripts são recusados pelos provedores de e-mail).',
  contentRequired: 'Informe o conteúdo do arquivo em base64 (content).',
  fileEmpty: 'O arquivo está vazio.',
  contentInvalid: 'Conteúdo inválido: envie o arquivo em base64.',
  contentTypeInvalid: 'Tipo de conteúdo inválido (ex.: application/pdf).',
  contentIdInvalid: 'contentId inválido: use letras, números, ponto, hífen, _ e @ (até 100).',
  fileTooLarge: 'Arquivo grande demais: o máximo é 10 MB.',
  fileIdInvalid: 'fileId inválido: use o id devolvido por POST /api/v1/files.',
  contentOrFileId:
    'Informe o conteúdo do arquivo em base64 (content) ou o id de um arquivo enviado (fileId), não os dois.',
  headerValueText: 'O valor do cabeçalho deve ser um texto.',
  headersMax: 'No máximo {max} cabeçalhos.',
  headerNotAllowed:
    'Cabeçalho não permitido: {name}. Só cabeçalhos X-… (exceto X-Carteiro-…), In-Reply-To e References.',
  headerRepeated: 'Cabeçalho repetido: {name}.',
  headerValueChars: 'O valor do cabeçalho não pode ter quebras de linha nem caracteres de controle.',
  headerValueLength: 'O valor do cabeçalho deve ter de 1 a {max} caracteres.',
  metadataKeyInvalid: 'Chave de metadata inválida: use letras, números, ponto, hífen e _.',
  metadataKeyTooLong: 'Chave de metadata longa demais (máximo {max}).',
  metadataValueText: 'Os valores de metadata são textos.',
  metadataValueTooLong: 'Valor de metadata longo demais (máximo {max}).',
  metadataMax: 'No máximo {max} pares em metadata.',
  subjectRequired: 'Informe o assunto.',
  textTooLarge: 'Texto grande demais (máximo 1 MB).',
  tagTooLong: 'Etiqueta longa demais.',
  tagsMax: 'No máximo 10 etiquetas.',
  ccMax: 'No máximo {max} endereços em cc.',
  bccMax: 'No máximo {max} endereços em bcc.',
  attachmentsMax: 'No máximo {max} anexos por mensagem.',
  addressRepeated: 'Endereço repetido entre to, cc e bcc: {address}.',
  attachmentsTooLarge: 'Os anexos somam mais de 10 MB; o máximo é 10 MB por mensagem.',
  contentIdRepeated: 'contentId repetido: {id}.',
  subjectOrTemplate: 'Informe o assunto ou um modelo.',
  bodyOrTemplate: 'Informe o HTML, o texto ou um modelo.',
  messagesRequired: 'Envie ao menos uma mensagem.',
  messagesMax: 'No máximo {max} mensagens por chamada.',
  batchSendAt: 'Num lote, informe sendAt uma vez, ao lado de messages (vale para todas).',
  isoDate: '{label}: use uma data ISO 8601 (ex.: 2026-11-25 ou 2026-11-25T10:00:00-03:00).',
  cursorInvalid: 'Cursor inválido: use o nextCursor da página anterior.',
  statusInvalidUse: 'Situação inválida: use {allowed}.',
  tagRequired: 'Informe a etiqueta.',
  streamInvalid: 'Fluxo inválido: use transactional ou marketing.',
  customFieldRequired: 'Informe o campo personalizado.',
  fieldNameTooLong: 'Nome de campo longo demais.',
  fieldInvalid: 'Campo inválido.',
  operatorInvalid: 'Operador inválido.',
  valueTooLong: 'Valor longo demais.',
  numberRequired: 'Informe um número (ex.: 10 ou 10,5).',
  dateRequired: 'Informe uma data válida (AAAA-MM-DD).',
  valueRequired: 'Informe o valor.',
  statusInvalid: 'Situação inválida.',
  daysRequired: 'Informe um número de dias (1 a 9999).',
  campaignCountRange: 'Informe de 1 a 50 campanhas.',
  conditionInvalid: 'Condição inválida.',
  matchRequired: 'Combine com "todas" (E) ou "qualquer" (OU).',
  conditionsRequired: 'Adicione ao menos uma condição.',
  conditionsPerGroupMax: 'No máximo {max} condições por grupo.',
  groupDepthMax: 'No máximo 3 níveis de grupos.',
  conditionsMax: 'No máximo 30 condições.',
  segmentNameRequired: 'Informe o nome do segmento.',
  domainRequired: 'Informe o domínio.',
  domainInvalid: 'Domínio inválido. Use só o domínio, por exemplo: loja.com.br',
  domainWww: 'Use o domínio sem "www.": {domain} (os e-mails sairão de endereços como contato@{domain}).',
  confirmationLinkInvalid: 'Link de confirmação inválido.',
  reasonTooLong: 'Motivo longo demais.',
  variableNotText: 'Cada variável é um nome, como pedido.',
  variableNameInvalid:
    'Nome de variável inválido: comece com uma letra e use letras, números e _ (até 50 caracteres), como pedido ou itens.',
  variablesMax: 'No máximo {max} variáveis por modelo.',
  variableRepeated: 'Variável repetida: {name}.',
  templateNameRequired: 'Informe o nome do modelo.',
  templateHtmlRequired: 'Informe o HTML do modelo.',
  textTooLargeShort: 'Texto grande demais.',
  emailInvalidValue: 'E-mail inválido: {value}',
  emailsAtLeastOne: 'Informe pelo menos um e-mail.',
  testEmailsMax: 'No máximo {max} e-mails por teste.',
  contactInvalid: 'Contato inválido.',
  urlRequired: 'Informe a URL.',
  urlTooLong: 'A URL pode ter no máximo 2000 caracteres.',
  urlInvalid: 'Informe uma URL http:// ou https:// válida.',
  eventTypeUnknown: 'Tipo de evento desconhecido.',
  eventTypesRequired: 'Escolha pelo menos um tipo de evento.',
  descriptionTooLong: 'A descrição pode ter no máximo 200 caracteres.',
  enabledRequired: 'Informe se o endpoint está ativo.',
  nothingToChange: 'Nada para alterar.',
  statusUnknown: 'Situação desconhecida.',
  emailEmpty: 'E-mail vazio.',
  emailHasSpace: 'E-mail inválido: tem espaço no meio do endereço.',
  emailNoAt: 'E-mail inválido: falta o @.',
  emailManyAt: 'E-mail inválido: tem mais de um @.',
  emailTooLong: 'E-mail inválido: longo demais (máximo de 254 caracteres).',
  emailNoLocal: 'E-mail inválido: falta o nome antes do @.',
  emailNoDomain: 'E-mail inválido: falta o domínio depois do @ (ex.: gmail.com).',
  emailLocalAccent: 'E-mail inválido: acento ou caractere especial antes do @ (a maioria dos provedores não aceita).',
  emailLocalTooLong: 'E-mail inválido: parte antes do @ longa demais (máximo de 64 caracteres).',
  emailLocalDots: 'E-mail inválido: ponto no início, no fim ou repetido antes do @.',
  emailLocalChar: 'E-mail inválido: caractere não permitido antes do @ ("{char}").',
  emailDomainChar: 'E-mail inválido: domínio com caractere não permitido.',
  emailNoTld: 'E-mail inválido: domínio sem terminação (falta ".com", ".com.br"…).',
  emailDomainDots: 'E-mail inválido: domínio com ponto repetido ou no início.',
  emailBadTld: 'E-mail inválido: terminação do domínio inválida (".{tld}").',
  emailDomainLabel: 'E-mail inválido: domínio com caractere não permitido (use só letras, números, ponto e hífen).',
  // The server's own schemas (back office, public API, the compatibility API).
  emailValidRequired: 'Informe um e-mail válido.',
  noteMax500: 'A observação pode ter no máximo 500 caracteres.',
  listsAtLeastOne: 'Informe ao menos uma lista.',
  contactsAtLeastOne: 'Informe ao menos um contato.',
  contactsMax: 'No máximo 10.000 contatos de cada vez.',
  collectionRequired: 'Informe a coleção.',
  filtersMax: 'No máximo 10 filtros.',
  sortOrderInvalid: 'Use "asc" ou "desc".',
  ordersMax: 'No máximo 3 ordenações.',
  documentDataRequired: 'Informe os dados (data).',
  idRequired: 'Informe o id.',
  campaignIdRequired: 'Informe o id da campanha.',
  periodStartInvalid: 'Data inicial inválida.',
  periodEndInvalid: 'Data final inválida.',
  zodRequired: 'Preencha este campo.',
  zodInvalid: 'Valor inválido.',
  zodTooSmall: 'Valor pequeno demais (mínimo {minimum}).',
  zodTooBig: 'Valor grande demais (máximo {maximum}).',
  zodTooShort: 'Texto curto demais (mínimo {minimum} caracteres).',
  zodTooLong: 'Texto longo demais (máximo {maximum} caracteres).',
  zodTooFew: 'Itens de menos (mínimo {minimum}).',
  zodTooMany: 'Itens demais (máximo {maximum}).',
} as const;

export type ValidationKey = keyof typeof VALIDATION_TEXTS;
export type ValidationData = Record<string, string | number>;

/** A validation text in pt-BR with its `{name}` placeholders filled. */
export function validationText(key: ValidationKey, data?: ValidationData): string {
  const template: string = VALIDATION_TEXTS[key];
  if (!data) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in data ? String(data[name]) : whole));
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Templates without placeholders are matched by equality; the others by a pattern built once.
const exactKeys = new Map<string, ValidationKey>();
const patterns: Array<{ key: ValidationKey; names: string[]; pattern: RegExp }> = [];
for (const key of Object.keys(VALIDATION_TEXTS) as ValidationKey[]) {
  const template: string = VALIDATION_TEXTS[key];
  const names = [...template.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
  if (names.length === 0) exactKeys.set(template, key);
  else {
    const source = template
      .split(/\{\w+\}/)
      .map(escapeRegExp)
      .join('(.+?)');
    patterns.push({ key, names, pattern: new RegExp(`^${source}$`, 's') });
  }
}

// The most specific template first: 'E-mail inválido: {value}' must not shadow the e-mail problems' texts.
patterns.sort((a, b) => b.pattern.source.length - a.pattern.source.length);

/** The key and data of a text `validationText` wrote; null for any other text. */
export function validationIssueKey(message: string): { key: ValidationKey; data: Record<string, string> } | null {
  const exact = exactKeys.get(message);
  if (exact) return { key: exact, data: {} };
  for (const { key, names, pattern } of patterns) {
    const match = pattern.exec(message);
    if (match) return { key, data: Object.fromEntries(names.map((name, i) => [name, match[i + 1] as string])) };
  }
  return null;
}
