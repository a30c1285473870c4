import {
  MESSAGE_ATTACHMENTS_MAX,
  MESSAGE_COPIES_MAX,
  MESSAGE_FILE_RETENTION_DAYS,
  MESSAGES_BODY_LIMIT_BYTES,
  messageCollectionSchema,
  messageDetailSchema,
  messageListQuerySchema,
  SEND_AT_MAX_DAYS,
  type TransactionalMessageInput,
  type TransactionalSendResult,
  transactionalBatchSchema,
  transactionalMessageRequestSchema,
  transactionalSendResultSchema,
} from '@carteiro/shared';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { NOT_FOUND_TEXT } from '../../http/not-found';
import { resolveMessageFiles } from '../message-files/message-files';
import { cancelScheduledMessage } from '../transactional/cancel-scheduled';
import { sendTransactionalGrouped } from '../transactional/group-commit';
import { emitSandboxDelivered } from '../transactional/sandbox-webhooks';
import {
  sendTransactional,
  TRANSACTIONAL_READ_SLOTS,
  transactionalReadOf,
  transactionalReadSql,
  transactionalReadValues,
  transactionalStreamId,
} from '../transactional/send-transactional';
import { findMessage, findMessageContent, findMessagePage } from './message-lookup';
import { fastMessageRequest } from './message-request-fast';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';
import { keyRiderStatement } from './rate-limit';

const errors = ['insufficient_balance', 'account_suspended', 'sender_not_verified', 'not_found'] as const;

const example = {
  to: { email: 'ana@example.com', name: 'Ana Souza' },
  from: { email: 'pedidos@minhaloja.com.br', name: 'Minha Loja' },
  subject: 'Pedido {{ dados.pedido }} confirmado',
  html: '<p>Olá, {{ contato.nome }}! Recebemos o pedido {{ dados.pedido }}.</p><img src="cid:logo">',
  data: { pedido: '1234' },
  cc: [{ email: 'financeiro@example.com' }],
  replyTo: 'atendimento@minhaloja.com.br',
  headers: { 'X-Pedido': '1234' },
  tags: ['pedido-confirmado'],
  metadata: { pedido: '1234' },
  attachments: [
    { filename: 'pedido-1234.txt', content: Buffer.from('Pedido 1234: 1 x Camiseta').toString('base64') },
    {
      filename: 'logo.png',
      contentType: 'image/png',
      contentId: 'logo',
      // A 1×1 transparent PNG.
      content: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    },
  ],
};

/** What the send operations say about copies, headers, files and the price (ADR 0033). */
const extrasDescription =
  ` \`cc\` e \`bcc\` (até ${MESSAGE_COPIES_MAX} cada): cada endereço recebe sua própria cópia, com id, verificação de supressão e custo próprios — ` +
  'cada cópia custa um e-mail, e o tamanho da mensagem não muda o preço. ' +
  '`headers`: só cabeçalhos `X-…` (exceto `X-Carteiro-…`), `In-Reply-To` e `References`; From, To, Subject, DKIM, List-* e os demais são do Carteiro. ' +
  `\`attachments\`: até ${MESSAGE_ATTACHMENTS_MAX} arquivos, até 10 MB somados por mensagem (corpo JSON de até 16 MB), cada um em base64 (\`content\` + \`filename\`) ` +
  `ou por \`fileId\`, um arquivo enviado uma vez por \`POST /files\` e usado em quantas mensagens quiser por ${MESSAGE_FILE_RETENTION_DAYS} dias ` +
  '(um `fileId` desconhecido, de outra conta ou expirado: 404 nomeando o anexo); ' +
  'executáveis e scripts (.exe, .bat, .js, .vbs, .scr, .msi, .jar…) são recusados; com `contentId`, o arquivo é uma imagem embutida (`<img src="cid:…">`). ' +
  '`tags` e `metadata` voltam na consulta e em todo webhook da mensagem. ' +
  `\`sendAt\` (ISO 8601 com fuso, no futuro, até ${SEND_AT_MAX_DAYS} dias; no lote, uma vez ao lado de \`messages\`): aceita e cobra agora, ` +
  'responde `scheduled` e entrega a partir dessa hora; `POST /messages/{id}/cancel` cancela e estorna enquanto espera. ' +
  'Campos desconhecidos: 400 `unknown_fields`.';

/** The key statement with a single send's read (transactional's) over the key's account: built once per process. */
export const sendMessageKeyRider = keyRiderStatement(
  'public_api_key_and_transactional_read',
  TRANSACTIONAL_READ_SLOTS,
  transactionalReadSql,
);

/**
 * A test key's accepted messages tell the account's webhooks what a live send would: one `message.delivered` each
 * (copies included) at once; a scheduled one at its sendAt, by the sandbox job (transactional/sandbox-webhooks.ts).
 */
async function emitSandboxAccepted(
  db: Db,
  accountId: string,
  inputs: TransactionalMessageInput[],
  result: TransactionalSendResult,
): Promise<TransactionalSendResult> {
  const campaignId = await transactionalStreamId(db, accountId);
  const sentAt = new Date().toISOString();
  for (const [index, message] of result.messages.entries()) {
    const input = inputs[index];
    const rows = [message, ...(message.copies ?? [])].filter((m) => m.status === 'queued');
    for (const row of rows) {
      await emitSandboxDelivered(db, {
        accountId,
        messageId: row.id,
        campaignId,
        email: row.to,
        tags: input?.tags ?? [],
        metadata: input?.metadata ?? {},
        sentAt,
      });
    }
  }
  return result;
}

/**
 * Transactional messages: thin operations over the sending engine's use case (modules/transactional). Allowed to
 * send-only keys. Charged atomically; 402 with the missing amount on a short balance.
 */
export const messagesOperations: OperationGroup = ({ db, publicUrl }) => [
  defineOperation({
    method: 'POST',
    path: '/messages',
    operationId: 'sendMessage',
    summary: 'Enviar mensagem transacional',
    description:
      'Uma mensagem para um destinatário, de um modelo da biblioteca (`templateId` + `data`) ou de assunto + HTML/texto, ' +
      'com rastreamento, DKIM e verificação de supressão. A resposta traz o custo cobrado e o saldo restante (milésimos de real). ' +
      'Endereços suprimidos não são enviados nem cobrados. Saldo insuficiente: 402 com o valor que falta.' +
      extrasDescription,
    tags: ['Mensagens'],
    sendOnly: true,
    body: transactionalMessageRequestSchema,
    // The usual body checked without zod, to the schema's very output; anything else is the schema's (ADR 0019).
    bodyFastPath: fastMessageRequest,
    bodyLimit: MESSAGES_BODY_LIMIT_BYTES,
    success: {
      status: 201,
      description: 'A mensagem aceita, o custo e o saldo.',
      schema: transactionalSendResultSchema,
    },
    errors: [...errors],
    example: { body: example },
    // The send's read (account, senders, suppressions) rides on the key statement: one round trip fewer per call.
    keyRider: (body) => ({ rider: sendMessageKeyRider, values: transactionalReadValues([body]) }),
    // Concurrent single sends of one account share one commit (group-commit.ts), each with its own answer.
    handler: async ({ key, body, keyRead }) => {
      const [input] = await resolveMessageFiles(db, key.accountId, [body]);
      if (!input) throw new Error('resolveMessageFiles lost the message');
      const read = keyRead ? transactionalReadOf([body], keyRead) : undefined;
      const options = { publicUrl, sandbox: key.mode === 'test', read };
      // A scheduled send is committed alone: a group commit makes batches due at once.
      const result = body.sendAt
        ? await sendTransactional(db, key.accountId, [input], { ...options, sendAt: new Date(body.sendAt) })
        : await sendTransactionalGrouped(db, key.accountId, input, options);
      return key.mode === 'test' ? emitSandboxAccepted(db, key.accountId, [input], result) : result;
    },
  }),
  defineOperation({
    method: 'POST',
    path: '/messages/batch',
    operationId: 'sendMessageBatch',
    summary: 'Enviar mensagens transacionais em lote',
    description:
      'Até 500 mensagens numa chamada, cobradas de uma vez: ou todas são aceitas, ou nenhuma (402 com o valor que falta). ' +
      'Cada mensagem aceita os mesmos campos do envio único.' +
      extrasDescription,
    tags: ['Mensagens'],
    sendOnly: true,
    body: transactionalBatchSchema,
    bodyLimit: MESSAGES_BODY_LIMIT_BYTES,
    success: {
      status: 201,
      description: 'As mensagens aceitas, o custo total e o saldo.',
      schema: transactionalSendResultSchema,
    },
    errors: [...errors],
    example: { body: { messages: [example, { ...example, to: { email: 'bruno@example.com', name: 'Bruno' } }] } },
    handler: async ({ key, body }) => {
      const inputs = await resolveMessageFiles(db, key.accountId, body.messages);
      const result = await sendTransactional(db, key.accountId, inputs, {
        publicUrl,
        sandbox: key.mode === 'test',
        sendAt: body.sendAt ? new Date(body.sendAt) : undefined,
      });
      return key.mode === 'test' ? emitSandboxAccepted(db, key.accountId, inputs, result) : result;
    },
  }),
  defineOperation({
    method: 'GET',
    path: '/messages/{id}',
    operationId: 'getMessage',
    summary: 'Consultar mensagem',
    description:
      'Uma mensagem enviada pela API (cada cópia cc/bcc tem seu próprio id): situação, fluxo, destinatário, assunto, ' +
      'custo, etiquetas, metadata, horários e a linha do tempo (queued, delivered, bounced, failed, suppressed, opened, ' +
      'clicked, complained, unsubscribed). Para reconciliar o que um webhook perdido diria. Chaves só de envio podem ler.',
    tags: ['Mensagens'],
    sendOnly: true,
    params: z.object({ id: z.string().regex(/^\d{1,19}$/) }),
    notFoundMessage: NOT_FOUND_TEXT.message,
    success: { status: 200, description: 'A mensagem e sua linha do tempo.', schema: messageDetailSchema },
    handler: ({ key, params }) => findMessage(db, key.accountId, key.mode, params.id),
  }),
  defineOperation({
    method: 'POST',
    path: '/messages/{id}/cancel',
    operationId: 'cancelMessage',
    summary: 'Cancelar envio programado',
    description:
      'Cancela uma mensagem aceita com `sendAt` enquanto ela espera a hora (situação `scheduled`), com as cópias cc/bcc ' +
      'dela (o id pode ser o da mensagem ou o de uma cópia). O que foi cobrado volta ao saldo (uma linha de estorno ' +
      'no extrato). Depois da hora, ou se já saiu ou foi cancelada: 409 `message_not_scheduled`. A resposta é a ' +
      'mensagem, agora `cancelled`.',
    tags: ['Mensagens'],
    sendOnly: true,
    params: z.object({ id: z.string().regex(/^\d{1,19}$/) }),
    notFoundMessage: NOT_FOUND_TEXT.message,
    success: { status: 200, description: 'A mensagem cancelada e sua linha do tempo.', schema: messageDetailSchema },
    errors: ['not_found', 'message_not_scheduled'],
    handler: async ({ key, params }) => {
      // 404 first for what this key cannot see (another account's, a test message for a live key, the reverse).
      await findMessage(db, key.accountId, key.mode, params.id);
      await cancelScheduledMessage(db, key.accountId, params.id);
      return findMessage(db, key.accountId, key.mode, params.id);
    },
  }),
  defineOperation({
    method: 'GET',
    path: '/messages/{id}/content',
    operationId: 'getMessageContent',
    summary: 'Ver conteúdo da mensagem',
    description:
      'O assunto, o HTML e o texto da mensagem como foram renderizados para o destinatário quando ela foi aceita (com ' +
      'os links de rastreamento e descadastro dela). Com uma chave de teste, é como ver o que teria sido enviado.',
    tags: ['Mensagens'],
    sendOnly: true,
    params: z.object({ id: z.string().regex(/^\d{1,19}$/) }),
    notFoundMessage: NOT_FOUND_TEXT.message,
    success: {
      status: 200,
      description: 'O conteúdo renderizado.',
      schema: z
        .object({ id: z.string(), subject: z.string(), html: z.string(), text: z.string() })
        .meta({ id: 'MessageContent' }),
    },
    handler: ({ key, params }) => findMessageContent(db, key.accountId, key.mode, params.id),
  }),
  defineOperation({
    method: 'GET',
    path: '/messages',
    operationId: 'listMessages',
    summary: 'Listar mensagens',
    description:
      'As mensagens enviadas pela API, mais novas primeiro, paginadas por cursor (`limit` até 200; passe o `nextCursor` ' +
      'da resposta em `cursor`). Filtros combináveis: `recipient` (o endereço), `status` (uma ou várias situações ' +
      'separadas por vírgula), `tag`, `stream` (`transactional` ou `marketing`) e o período `since` (inclusive) e ' +
      '`until` (exclusive), datas ISO 8601 (uma data sem hora é meia-noite UTC). Os itens não trazem a linha do tempo: ' +
      'consulte a mensagem para vê-la. Chaves só de envio podem ler.',
    tags: ['Mensagens'],
    sendOnly: true,
    query: messageListQuerySchema,
    success: { status: 200, description: 'Uma página de mensagens.', schema: messageCollectionSchema },
    example: { query: { status: 'delivered,bounced', tag: 'pedido-confirmado', limit: '20' } },
    handler: ({ key, query }) => findMessagePage(db, key.accountId, key.mode, query),
  }),
];
