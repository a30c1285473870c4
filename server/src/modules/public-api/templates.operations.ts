import {
  templateCreateSchema,
  templatePreviewSchema,
  templateQuerySchema,
  templateUpdateSchema,
} from '@carteiro/shared';
import { z } from 'zod';
import { NOT_FOUND_TEXT } from '../../http/not-found';
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
    description:
      'HTML com Liquid: `{{ contato.nome }}`, `{{ contato.<campo> }}`, os dados da conta (`{{ conta.nome }}`) e os ' +
      'dados por mensagem que o modelo declara em `variables`: com `variables: ["pedido", "itens"]`, o modelo usa ' +
      '`{{ dados.pedido }}` e `{% for item in dados.itens %}…{% endfor %}`, e cada envio com ele (`POST /messages`, ' +
      '`templateId`) informa `data.pedido` e `data.itens`. Um `dados.x` não declarado é recusado ao salvar (400 ' +
      'nomeando a variável). Modelos de marketing incluem `{{ link_descadastro }}`.',
    tags: TAGS,
    body: templateCreateSchema,
    success: { status: 201, description: 'O modelo criado.', schema: templateSchema },
    example: {
      body: {
        name: 'Confirmação de pedido',
        subject: 'Pedido {{ dados.pedido }} confirmado',
        html:
          '<p>Olá, {{ contato.nome }}! Recebemos o pedido {{ dados.pedido }}.</p><ul>{% for item in dados.itens %}' +
          '<li>{{ item.quantidade }} × {{ item.nome }}</li>{% endfor %}</ul><p>Total: {{ dados.total }}</p>',
        variables: ['pedido', 'itens', 'total'],
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
    notFoundMessage: NOT_FOUND_TEXT.template,
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
    notFoundMessage: NOT_FOUND_TEXT.template,
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
    notFoundMessage: NOT_FOUND_TEXT.template,
    success: { status: 204, description: 'Excluído.' },
    handler: ({ key, params }) => deleteTemplate(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'POST',
    path: '/templates/{id}/render',
    operationId: 'renderTemplate',
    summary: 'Pré-visualizar modelo',
    description:
      'O modelo renderizado para um contato da conta (`contactId`) ou para dados de exemplo. `data` preenche as ' +
      'variáveis declaradas (`{{ dados.x }}`), conferido como num envio; sem ele, cada uma aparece como `[x]`.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.template,
    body: templatePreviewSchema,
    success: { status: 200, description: 'Assunto, HTML e texto renderizados.', schema: renderedSchema },
    example: { body: { data: { pedido: '1042', itens: [{ nome: 'Café 500 g', quantidade: 2 }], total: 'R$ 59,80' } } },
    handler: ({ key, params, body }) => previewTemplate(db, key.accountId, params.id, { ...body, publicUrl }),
  }),
];
