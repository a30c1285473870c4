import { transactionalBatchSchema, transactionalMessageSchema, transactionalSendResultSchema } from '@carteiro/shared';
import { sendTransactionalGrouped } from '../sending/transactional/group-commit';
import { sendTransactional } from '../sending/transactional/send-transactional';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';

const errors = ['insufficient_balance', 'account_suspended', 'sender_not_verified', 'not_found'] as const;

const example = {
  to: { email: 'ana@example.com', name: 'Ana Souza' },
  from: { email: 'pedidos@minhaloja.com.br', name: 'Minha Loja' },
  subject: 'Pedido {{ pedido }} confirmado',
  html: '<p>Olá, {{ contato.nome }}! Recebemos o pedido {{ pedido }}.</p>',
  data: { pedido: '1234' },
};

/**
 * Transactional messages: thin operations over the sending engine's use case (sending/transactional). Allowed to
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
      'Endereços suprimidos não são enviados nem cobrados. Saldo insuficiente: 402 com o valor que falta.',
    tags: ['Mensagens'],
    sendOnly: true,
    body: transactionalMessageSchema,
    success: {
      status: 201,
      description: 'A mensagem aceita, o custo e o saldo.',
      schema: transactionalSendResultSchema,
    },
    errors: [...errors],
    example: { body: example },
    // Concurrent single sends of one account share one commit (group-commit.ts), each with its own answer.
    handler: ({ key, body }) => sendTransactionalGrouped(db, key.accountId, body, { publicUrl }),
  }),
  defineOperation({
    method: 'POST',
    path: '/messages/batch',
    operationId: 'sendMessageBatch',
    summary: 'Enviar mensagens transacionais em lote',
    description:
      'Até 500 mensagens numa chamada, cobradas de uma vez: ou todas são aceitas, ou nenhuma (402 com o valor que falta).',
    tags: ['Mensagens'],
    sendOnly: true,
    body: transactionalBatchSchema,
    success: {
      status: 201,
      description: 'As mensagens aceitas, o custo total e o saldo.',
      schema: transactionalSendResultSchema,
    },
    errors: [...errors],
    example: { body: { messages: [example, { ...example, to: { email: 'bruno@example.com', name: 'Bruno' } }] } },
    handler: ({ key, body }) => sendTransactional(db, key.accountId, body.messages, { publicUrl }),
  }),
];
