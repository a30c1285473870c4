import type { ErrorCode } from './errors';

/**
 * The error codes the public API v1 (`/api/v1`) answers: the `enum` of `Error.code` in its OpenAPI document and
 * the table of docs/api-errors.md. Each code has one HTTP status everywhere (`ERROR_HTTP_STATUS`), its meaning is
 * its pt-BR message (`ERROR_MESSAGES_PT_BR`), and what the caller should do is below.
 */
export const PUBLIC_API_ERROR_CODES = [
  'bad_request',
  'validation_failed',
  'unknown_fields',
  'invalid_json',
  'api_key_in_url',
  'idempotency_key_invalid',
  'invalid_api_key',
  'insufficient_balance',
  'api_key_scope',
  'account_suspended',
  'sender_not_verified',
  'not_found',
  'method_not_allowed',
  'contact_exists',
  'address_suppressed',
  'consent_required',
  'suppression_not_manual',
  'campaign_exists',
  'campaign_already_sending',
  'campaign_not_editable',
  'campaign_not_ready',
  'message_not_scheduled',
  'file_quota_exceeded',
  'idempotency_key_in_progress',
  'payload_too_large',
  'unsupported_media_type',
  'idempotency_key_reused',
  'too_many_requests',
  'internal_error',
] as const satisfies readonly ErrorCode[];

export type PublicApiErrorCode = (typeof PUBLIC_API_ERROR_CODES)[number];

export function isPublicApiErrorCode(value: unknown): value is PublicApiErrorCode {
  return typeof value === 'string' && (PUBLIC_API_ERROR_CODES as readonly string[]).includes(value);
}

/** What the caller should do about each code (pt-BR, for the documentation and the OpenAPI document). */
export const API_ERROR_ADVICE_PT_BR: Record<PublicApiErrorCode, string> = {
  bad_request: 'Confira a requisição (por exemplo, o `cursor` de paginação deve ser o `nextCursor` recebido).',
  validation_failed:
    'Corrija o campo indicado em `details.fields` (caminho e mensagem) e envie de novo. Não adianta repetir igual.',
  unknown_fields:
    'Tire os campos listados em `details.unknown` ou corrija o nome deles: nada é ignorado em silêncio, e nada foi feito.',
  invalid_json: 'Envie um corpo JSON válido (UTF-8) com `Content-Type: application/json`.',
  api_key_in_url: 'Mande a chave só no cabeçalho `Authorization: Bearer` e revogue a chave que apareceu na URL.',
  idempotency_key_invalid: 'Use de 1 a 255 caracteres ASCII visíveis (um UUID, por exemplo).',
  invalid_api_key: 'Confira o cabeçalho `Authorization: Bearer <chave>`; crie uma chave nova em Painel → API.',
  insufficient_balance:
    'Recarregue o saldo (Painel → Meu saldo); `details.missingMillis` diz quanto falta. Depois repita a requisição — pode ser com a mesma Idempotency-Key.',
  api_key_scope: 'Use uma chave com acesso completo: chaves "somente envio" só enviam mensagens e leem os resultados.',
  account_suspended: 'Fale com o suporte do Carteiro.',
  sender_not_verified:
    'Confirme o endereço ou verifique o domínio em Configurações → Remetentes e domínios; depois repita a requisição.',
  not_found: 'Confira o identificador: ele não existe nesta conta (ou já foi excluído).',
  method_not_allowed: 'Use um dos métodos do cabeçalho `Allow`.',
  contact_exists: 'Use `PUT /contacts` (cria ou atualiza pelo e-mail) ou altere o contato existente.',
  address_suppressed:
    'Não envie para este endereço: ele se descadastrou, devolveu ou reclamou. Só o próprio destinatário pode voltar a se inscrever.',
  consent_required:
    'Não mude a situação para `subscribed`: peça que a pessoa se inscreva de novo pelo formulário da lista (ela confirma por e-mail) ou pelo link "Quero voltar a receber" de um e-mail que recebeu. `details.status` diz por que saiu.',
  suppression_not_manual: 'Só entradas adicionadas à mão podem ser retiradas da lista de supressão.',
  campaign_exists: 'Gere outro `uuid`, ou omita-o para que o Carteiro gere um.',
  message_not_scheduled:
    'Nada a cancelar: a mensagem já saiu (ou está saindo), já foi cancelada ou não tinha `sendAt`. Veja a situação em `GET /messages/{id}`.',
  file_quota_exceeded:
    'Apague arquivos que não usa mais (`DELETE /files/{id}`) ou espere que expirem; `details.usedBytes` e `details.quotaBytes` dizem quanto está ocupado e o limite da conta. Anexos em base64 na própria mensagem não contam.',
  campaign_already_sending: 'Nada a fazer: a campanha já está em envio. Acompanhe em `GET /campaigns/{id}/report`.',
  campaign_not_editable:
    'Leia a campanha de novo (`GET /campaigns/{id}`) e veja a situação dela: só rascunhos e agendadas mudam; só uma campanha em envio pausa.',
  campaign_not_ready:
    'Complete o item indicado em `details.check` (assunto, público, conteúdo, link de descadastro, remetente ou identificação do rodapé) e repita.',
  idempotency_key_in_progress:
    'Aguarde alguns segundos e repita: a primeira requisição com esta chave ainda está rodando.',
  payload_too_large: 'Diminua o corpo da requisição (ou divida o lote em partes).',
  unsupported_media_type: 'Envie o corpo como JSON, com `Content-Type: application/json`.',
  idempotency_key_reused: 'Use uma Idempotency-Key nova para uma requisição diferente.',
  too_many_requests: 'Aguarde os segundos de `Retry-After` e repita; o limite é por conta (`RateLimit-*`).',
  internal_error:
    'Repita em instantes (com a mesma Idempotency-Key, nada é feito duas vezes); se persistir, fale com o suporte.',
};
