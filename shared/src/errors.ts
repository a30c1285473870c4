/**
 * Error codes shared by server and web. The server answers `{ error: { code, message } }`;
 * the web shows the message of its own locale for the code (falling back to the server's text).
 */
export const ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'invalid_json',
  'payload_too_large',
  'unauthenticated',
  'forbidden',
  'csrf_rejected',
  'not_found',
  'conflict',
  'too_many_requests',
  'internal_error',
  'service_unavailable',
  // identity (spec §8)
  'invalid-email',
  'wrong-password',
  'invalid-credential',
  'email-already-in-use',
  'user-not-found',
  'too-many-requests',
  'expired-action-code',
  'invalid-action-code',
  'requires-recent-login',
  'user-token-expired',
  'user-disabled',
  'password-does-not-meet-requirements',
  'network-request-failed',
  'popup-closed-by-user',
  // billing
  'insufficient_balance',
  'account_suspended',
  // uploads
  'unsupported_image',
  'image_too_large',
  // sender identities
  'sender_not_verified',
  // public API v1 (issue 12)
  'invalid_api_key',
  'api_key_scope',
  'api_key_in_url',
  'idempotency_key_invalid',
  'idempotency_key_reused',
  'idempotency_key_in_progress',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

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
  internal_error: 'Algo deu errado do nosso lado. Tente de novo em instantes.',
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
  'network-request-failed': 'Não foi possível conectar. Verifique sua internet e tente de novo.',
  'popup-closed-by-user': 'A janela de login foi fechada antes de concluir.',
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

/** The JSON body of every error answer. */
export interface ApiErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && (ERROR_CODES as readonly string[]).includes(value);
}
