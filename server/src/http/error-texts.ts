/**
 * The pt-BR sentences of the server's errors that say more than their code's catalogue text
 * (shared/src/error-messages.ts), grouped by the module that raises them: one place to read, reword or translate
 * them. A message built from data (a field, a line, a count) stays where the data is; a 404 reads NOT_FOUND_TEXT
 * (not-found.ts).
 */
export const ERROR_TEXT = {
  accounts: {
    slugTaken: 'Este identificador de conta já está em uso.',
    alreadyMember: 'Esta pessoa já faz parte da equipe.',
    inviteFailed: 'Não foi possível enviar o convite agora. Tente de novo.',
    lastOwner: 'A conta precisa de pelo menos um proprietário.',
  },
  automations: {
    confirmEmailToActivate: 'Confirme seu e-mail antes de ativar automações.',
    listNotInAccount: 'A lista escolhida não existe nesta conta.',
    pauseOnlyActive: 'Só uma automação ativa pode ser pausada.',
    changedMeanwhile: 'A automação mudou enquanto você a alterava. Recarregue e tente de novo.',
  },
  billing: {
    sentCountInvalid: 'O número de e-mails enviados deve ser um inteiro não negativo.',
    recipientCountInvalid: 'O número de destinatários deve ser um inteiro não negativo.',
    noReservation: 'Esta campanha não tem reserva de saldo.',
    blockSelf: 'Você não pode bloquear o seu próprio acesso.',
    revokeOwnOperator: 'Você não pode remover o seu próprio acesso de operação.',
    payOnlyPending: 'Só uma recarga aguardando pagamento pode ser paga.',
    receiptNotReady: 'O recibo fica disponível quando o pagamento for confirmado.',
    adjustReason: 'Informe o motivo do ajuste.',
    topupCredited: 'Esta recarga já foi creditada.',
    topupCancelled: 'Esta recarga foi cancelada.',
    topupWholeCents: 'O valor da recarga deve ser em centavos inteiros.',
    refundKeyReused: 'Chave de pedido já usada em outra recarga.',
    refundOnlyPaid: 'Só é possível devolver uma recarga paga.',
    providerNotConfigured: 'O provedor que recebeu esta recarga não está configurado.',
    refundWholeCents: 'O valor da devolução deve ser positivo e em centavos inteiros.',
    pixWebhookWithoutList: 'Corpo do webhook Pix sem a lista "pix".',
  },
  campaigns: {
    pauseOnlySending: 'Só é possível pausar uma campanha em envio.',
    resumeOnlyPaused: 'Só é possível retomar uma campanha pausada.',
    cancelFinished: 'Esta campanha já terminou e não pode ser cancelada.',
    confirmEmailToSend: 'Confirme seu e-mail antes de enviar campanhas.',
    resendOnlyAfterSent: 'Só é possível reenviar para quem não abriu depois que a campanha foi enviada.',
    viewerRateLimited: 'Muitas visualizações a partir desta rede. Tente de novo em instantes.',
    invalidDateTime: 'Data e hora inválidas.',
    pastDateTime: 'Escolha uma data e hora no futuro.',
  },
  compat: {
    createOnlyInCurrentAccount: 'Só é possível criar campanhas na sua conta atual.',
    ownerMustBeSignedInUser: 'O dono da conta precisa ser o usuário conectado.',
    moveToOtherAccount: 'Não é possível mover a campanha para outra conta.',
  },
  /** The server's settings (`config.ts`), read by the operator at start-up: both languages, as the operator may read either. */
  config: {
    postgresUrl: 'deve começar com postgres:// / must start with postgres://',
    authSecretLength: 'precisa de pelo menos 32 caracteres / needs at least 32 characters',
    smtpUrl: 'deve começar com smtp:// ou smtps:// / must start with smtp:// or smtps://',
    taxIdInvalid: 'CNPJ ou CPF inválido / invalid CNPJ or CPF',
    notProxyAddress: 'não é um endereço, CIDR ou número de saltos / is not an address, CIDR or hop count',
    webhookTokenChars: '24 a 128 letras, números, - ou _ / 24 to 128 letters, digits, - or _',
    metricsTokenLength: 'precisa de pelo menos 16 caracteres / needs at least 16 characters',
  },
  contacts: {
    chooseList: 'Escolha a lista.',
    noEmails: 'Informe ao menos um e-mail.',
    notSuppressed: 'Este endereço não está na lista de supressão.',
    invalidStatus: 'Status inválido.',
  },
  imports: {
    fileTooLarge: 'O arquivo passa de 200 MB.',
    alreadyStarted: 'Esta importação já foi iniciada.',
    oneEmailColumn: 'Escolha exatamente uma coluna para o e-mail.',
    emailColumnMissing: 'A coluna escolhida para o e-mail não existe no arquivo.',
    noRejectedRows: 'Esta importação não tem linhas rejeitadas.',
    emptyFile: 'O arquivo está vazio. Envie um CSV com um cabeçalho e ao menos um contato.',
  },
  lists: {
    unknownChosen: 'Uma das listas escolhidas não existe.',
  },
  publicApi: {
    confirmEmailForKeys: 'Confirme seu e-mail antes de criar chaves de API.',
    testKeysSendOnly: 'Chaves de teste são sempre "somente envio": escolha esse escopo.',
    noBodyExpected: 'Esta operação não recebe corpo na requisição.',
  },
  pagination: {
    invalidCursor: 'Cursor de paginação inválido: use o nextCursor da página anterior.',
  },
  segments: {
    unknownChosen: 'Um dos segmentos escolhidos não existe.',
    invalidCondition: 'Condição inválida.',
    readsRateLimited: 'Muitas contagens de segmento em pouco tempo.',
    readTimedOut:
      'A contagem deste segmento demorou demais e foi interrompida. Simplifique as condições ou tente de novo mais tarde.',
  },
  senders: {
    addressConfirmed: 'Este endereço já está confirmado.',
    domainAdded: 'Este domínio já foi adicionado.',
  },
  templates: {
    previewsBusy: 'Muitas pré-visualizações em andamento. Tente de novo em instantes.',
  },
  unsubscribe: {
    notOnList: 'Este endereço não está mais na lista.',
    addressSuppressed: 'Este endereço não pode mais receber mensagens desta conta.',
    invalidList: 'Lista inválida.',
  },
  uploads: {
    emptyImage: 'Nenhuma imagem recebida: o corpo da requisição está vazio.',
  },
  webhooks: {
    deliveryNotRetriable: 'Esta entrega não existe ou ainda está em andamento.',
  },
} as const;
