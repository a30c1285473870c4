import { type ErrorCode, INTERNAL_ERROR_PT_BR, NETWORK_ERROR_PT_BR } from './errors';

// Its own module, apart from the codes: a bundler keeps a module whole in one chunk, and the web's landing
// chunk needs the codes (isErrorCode) but not this catalogue (ADR 0017).
/** pt-BR text for every code: the server's default message and the web's pt-BR catalogue both read it. */
export const ERROR_MESSAGES_PT_BR: Record<ErrorCode, string> = {
  bad_request: 'A requisição não pôde ser entendida.',
  validation_failed: 'Alguns campos estão inválidos. Confira e tente de novo.',
  invalid_json: 'O corpo da requisição não é um JSON válido.',
  payload_too_large: 'O conteúdo enviado é grande demais.',
  unauthenticated: 'Você precisa entrar para continuar.',
  forbidden: 'Você não tem permissão para fazer isso.',
  csrf_rejected: 'Requisição recusada: origem não confiável.',
  not_found: 'Não encontrado.',
  conflict: 'Esta ação entrou em conflito com outra alteração. Recarregue e tente de novo.',
  too_many_requests: 'Muitas tentativas. Aguarde um pouco e tente de novo.',
  internal_error: INTERNAL_ERROR_PT_BR,
  service_unavailable: 'Serviço temporariamente indisponível. Tente de novo em instantes.',
  'invalid-email': 'E-mail inválido.',
  'wrong-password': 'E-mail ou senha incorretos.',
  'invalid-credential': 'E-mail ou senha incorretos.',
  'email-already-in-use': 'Já existe uma conta com este e-mail.',
  'user-not-found': 'E-mail ou senha incorretos.',
  'too-many-requests': 'Muitas tentativas. Aguarde um pouco e tente de novo.',
  'expired-action-code': 'Este link expirou. Peça um novo.',
  'invalid-action-code': 'Este link é inválido ou já foi usado.',
  'requires-recent-login': 'Por segurança, entre de novo antes de fazer esta alteração.',
  'user-token-expired': 'Sua sessão expirou. Entre de novo.',
  'user-disabled': 'Seu acesso ao Carteiro foi bloqueado. Fale com o suporte.',
  'password-does-not-meet-requirements': 'A senha não atende aos requisitos.',
  'network-request-failed': NETWORK_ERROR_PT_BR,
  'popup-closed-by-user': 'A janela de login foi fechada antes de concluir.',
  email_not_verified: 'Confirme o seu e-mail antes de continuar: abra o link que enviamos para você.',
  insufficient_balance: 'Saldo insuficiente. Adicione créditos e tente de novo.',
  account_suspended: 'Esta conta está suspensa. Fale com o suporte.',
  unsupported_image: 'Formato de imagem não suportado. Envie PNG, JPEG, GIF ou WebP.',
  image_too_large: 'A imagem é grande demais.',
  sender_not_verified:
    'Este remetente não está verificado. Confirme o endereço ou verifique o domínio em Configurações → Remetentes e domínios.',
  invalid_api_key: 'Chave de API ausente, inválida ou revogada. Envie o cabeçalho Authorization: Bearer <sua chave>.',
  api_key_scope: 'Esta chave é "somente envio": ela só envia mensagens e lê os resultados delas.',
  api_key_in_url: 'Nunca envie a chave de API na URL: use o cabeçalho Authorization e revogue esta chave.',
  idempotency_key_invalid: 'Idempotency-Key inválida: use de 1 a 255 caracteres ASCII visíveis.',
  idempotency_key_reused: 'Esta Idempotency-Key já foi usada com outra requisição nas últimas 24 horas.',
  idempotency_key_in_progress:
    'Uma requisição com esta Idempotency-Key ainda está em andamento. Tente de novo em instantes.',
};
