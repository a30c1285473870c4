import {
  MESSAGE_FILE_RETENTION_DAYS,
  MESSAGES_BODY_LIMIT_BYTES,
  messageFileSchema,
  messageFileUploadSchema,
} from '@carteiro/shared';
import { z } from 'zod';
import { NOT_FOUND_TEXT } from '../../http/not-found';
import { deleteMessageFile, findMessageFile, saveMessageFile } from '../message-files/message-files';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';

const TAGS = ['Arquivos'];
const idParams = z.object({ id: z.uuid() });

/**
 * Files uploaded once and attached to many messages by `fileId` (ADR 0033): thin operations over message-files.
 * Send-only and test keys may use them — they exist only to be sent.
 */
export const filesOperations: OperationGroup = ({ db, config }) => [
  defineOperation({
    method: 'POST',
    path: '/files',
    operationId: 'uploadFile',
    summary: 'Enviar arquivo para anexar',
    description:
      'Guarda um arquivo (em base64, com as mesmas regras de nome, tipo e tamanho dos anexos: até 10 MB; executáveis ' +
      'e scripts são recusados) para usá-lo em quantas mensagens quiser com `attachments: [{ "fileId": "…" }]`, sem ' +
      `reenviar os bytes a cada mensagem. Fica disponível por ${MESSAGE_FILE_RETENTION_DAYS} dias e depois é apagado ` +
      '(mensagens já aceitas com ele ainda saem com ele). Os mesmos bytes enviados de novo devolvem o mesmo id, com ' +
      'o nome e o tipo do envio mais recente e o prazo contado de novo. Chaves só de envio e de teste podem usar. ' +
      `Cada conta guarda até ${config.API_FILES_QUOTA_MB} MB em arquivos ainda válidos (chaves de teste incluídas): ` +
      'passar disso é 409 `file_quota_exceeded`; apague os que não usa mais ou espere que expirem.',
    tags: TAGS,
    sendOnly: true,
    body: messageFileUploadSchema,
    bodyLimit: MESSAGES_BODY_LIMIT_BYTES,
    success: { status: 201, description: 'O arquivo guardado, com o id para `fileId`.', schema: messageFileSchema },
    example: {
      body: {
        filename: 'catalogo.pdf',
        contentType: 'application/pdf',
        content: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64'),
      },
    },
    errors: ['file_quota_exceeded'],
    handler: async ({ key, body }) =>
      (await saveMessageFile(db, key.accountId, body, { quotaBytes: config.API_FILES_QUOTA_MB * 1024 * 1024 })).file,
  }),
  defineOperation({
    method: 'GET',
    path: '/files/{id}',
    operationId: 'getFile',
    summary: 'Consultar arquivo',
    description: 'Nome, tipo, tamanho, hash e validade de um arquivo enviado (nunca os bytes).',
    tags: TAGS,
    sendOnly: true,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.file,
    success: { status: 200, description: 'O arquivo.', schema: messageFileSchema },
    handler: ({ key, params }) => findMessageFile(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'DELETE',
    path: '/files/{id}',
    operationId: 'deleteFile',
    summary: 'Apagar arquivo',
    description:
      'Apaga o arquivo agora (os bytes vão junto). Mensagens já aceitas com ele que ainda não saíram falham e são ' +
      'reembolsadas: nenhuma sai sem o anexo.',
    tags: TAGS,
    sendOnly: true,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.file,
    success: { status: 204, description: 'Apagado.' },
    handler: ({ key, params }) => deleteMessageFile(db, key.accountId, params.id),
  }),
];
