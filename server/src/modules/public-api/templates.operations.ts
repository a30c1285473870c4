import { previewSchema, templateCreateSchema, templateQuerySchema, templateUpdateSchema } from '@carteiro/shared';
import { z } from 'zod';
import {
  createTemplate,
  deleteTemplate,
  findTemplate,
  findTemplatePage,
  previewTemplate,
  updateTemplate,
} from '../templates/templates';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';
import { renderedSchema, templateCollectionSchema, templateSchema } from './responses';

const idParams = z.object({ id: z.uuid() });
const NOT_FOUND = 'Modelo não encontrado.';
const TAGS = ['Modelos'];

/** The template library, over the templates module (Liquid validated on save, as in the editor). */
export const templatesOperations: OperationGroup = ({ db, publicUrl }) => [
  defineOperation({
    method: 'GET',
    path: '/templates',
    operationId: 'listTemplates',
    summary: 'Listar modelos',
    description:
      'Mais novos primeiro, paginados por cursor (`limit` até 200; `cursor` = o `nextCursor` da resposta); `search` procura no nome. Sem o HTML: leia o modelo para vê-lo.',
    tags: TAGS,
    query: templateQuerySchema,
    success: { status: 200, description: 'Uma página de modelos (sem o HTML).', schema: templateCollectionSchema },
    example: { query: { search: 'pedido' } },
    errors: ['bad_request'],
    handler: ({ key, query }) => findTemplatePage(db, key.accountId, query),
  }),
  defineOperation({
    method: 'POST',
    path: '/templates',
    operationId: 'createTemplate',
    summary: 'Criar modelo',
    description: 'HTML com Liquid: `{{ contato.nome }}`, `{{ contato.<campo> }}`; inclua `{{ link_descadastro }}`.',
    tags: TAGS,
    body: templateCreateSchema,
    success: { status: 201, description: 'O modelo criado.', schema: templateSchema },
    example: {
      body: {
        name: 'Confirmação de pedido',
        subject: 'Seu pedido chegou, {{ contato.nome }}',
        html: '<p>Olá, {{ contato.nome }}! Seu pedido foi confirmado.</p><p><a href="{{ link_descadastro }}">Descadastrar</a></p>',
      },
    },
    handler: ({ key, body }) => createTemplate(db, key.accountId, body),
  }),
  defineOperation({
    method: 'GET',
    path: '/templates/{id}',
    operationId: 'getTemplate',
    summary: 'Ver modelo',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 200, description: 'O modelo com o HTML.', schema: templateSchema },
    handler: ({ key, params }) => findTemplate(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'PATCH',
    path: '/templates/{id}',
    operationId: 'updateTemplate',
    summary: 'Alterar modelo',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    body: templateUpdateSchema,
    success: { status: 200, description: 'O modelo alterado.', schema: templateSchema },
    example: { body: { subject: 'Pedido confirmado' } },
    handler: ({ key, params, body }) => updateTemplate(db, key.accountId, params.id, body),
  }),
  defineOperation({
    method: 'DELETE',
    path: '/templates/{id}',
    operationId: 'deleteTemplate',
    summary: 'Excluir modelo',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 204, description: 'Excluído.' },
    handler: ({ key, params }) => deleteTemplate(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'POST',
    path: '/templates/{id}/render',
    operationId: 'renderTemplate',
    summary: 'Pré-visualizar modelo',
    description: 'O modelo renderizado para um contato da conta (`contactId`) ou para dados de exemplo.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    body: previewSchema,
    success: { status: 200, description: 'Assunto, HTML e texto renderizados.', schema: renderedSchema },
    example: { body: {} },
    handler: ({ key, params, body }) =>
      previewTemplate(db, key.accountId, params.id, { contactId: body.contactId, publicUrl }),
  }),
];
