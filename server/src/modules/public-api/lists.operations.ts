import {
  contactQuerySchema,
  listCreateSchema,
  listQuerySchema,
  listUpdateSchema,
  validationText,
} from '@carteiro/shared';
import { z } from 'zod';
import { NOT_FOUND_TEXT } from '../../http/not-found';
import { findContacts } from '../contacts/find-contacts';
import { createList } from '../lists/create-list';
import { deleteList } from '../lists/delete-list';
import { findList, findListPage } from '../lists/find-lists';
import { removeContactsFromList } from '../lists/memberships';
import { updateList } from '../lists/update-list';
import { addContactsToList } from '../subscriptions/add-contacts-to-lists';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';
import { contactPageSchema, LIST_JOIN_ERRORS, listCollectionSchema, listJoinSchema, listSchema } from './responses';

const idParams = z.object({ id: z.uuid() });
const memberParams = z.object({ id: z.uuid(), contactId: z.uuid() });
const membersBody = z.strictObject({
  contactIds: z
    .array(z.uuid(validationText('contactInvalid')))
    .min(1, validationText('contactsAtLeastOne'))
    .max(10_000, validationText('contactsMax')),
});
const membersQuery = contactQuerySchema.omit({ listId: true });
const TAGS = ['Listas'];

/** Lists and their members, over the lists and contacts modules. */
export const listsOperations: OperationGroup = ({ db, consentLinks }) => [
  defineOperation({
    method: 'GET',
    path: '/lists',
    operationId: 'listLists',
    summary: 'Listar listas',
    description:
      'Mais novas primeiro, paginadas por cursor (`limit` até 200; `cursor` = o `nextCursor` da resposta); `search` procura no nome.',
    tags: TAGS,
    query: listQuerySchema,
    success: { status: 200, description: 'Uma página das listas da conta.', schema: listCollectionSchema },
    example: { query: { limit: '50' } },
    errors: ['bad_request'],
    handler: ({ key, query }) => findListPage(db, key.accountId, query),
  }),
  defineOperation({
    method: 'POST',
    path: '/lists',
    operationId: 'createList',
    summary: 'Criar lista',
    tags: TAGS,
    body: listCreateSchema,
    success: { status: 201, description: 'A lista criada.', schema: listSchema },
    example: { body: { name: 'Clientes da loja', optIn: 'single' } },
    handler: ({ key, body }) => createList(db, key.accountId, body),
  }),
  defineOperation({
    method: 'GET',
    path: '/lists/{id}',
    operationId: 'getList',
    summary: 'Ver lista',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.list,
    success: { status: 200, description: 'A lista e suas contagens.', schema: listSchema },
    handler: ({ key, params }) => findList(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'PATCH',
    path: '/lists/{id}',
    operationId: 'updateList',
    summary: 'Alterar lista',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.list,
    body: listUpdateSchema,
    success: { status: 200, description: 'A lista alterada.', schema: listSchema },
    example: { body: { description: 'Quem comprou nos últimos 12 meses' } },
    handler: ({ key, params, body }) => updateList(db, key.accountId, params.id, body),
  }),
  defineOperation({
    method: 'DELETE',
    path: '/lists/{id}',
    operationId: 'deleteList',
    summary: 'Excluir lista',
    description: 'Os contatos continuam na conta.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.list,
    success: { status: 204, description: 'Excluída.' },
    handler: ({ key, params }) => deleteList(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'GET',
    path: '/lists/{id}/members',
    operationId: 'listListMembers',
    summary: 'Listar membros da lista',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.list,
    query: membersQuery,
    success: { status: 200, description: 'Uma página dos contatos da lista.', schema: contactPageSchema },
    errors: ['bad_request'],
    handler: async ({ key, params, query }) => {
      await findList(db, key.accountId, params.id);
      return findContacts(db, key.accountId, { ...query, listId: params.id });
    },
  }),
  defineOperation({
    method: 'POST',
    path: '/lists/{id}/members',
    operationId: 'addListMembers',
    summary: 'Adicionar contatos à lista',
    description:
      'Ids de contatos de outras contas são ignorados; quem já está na lista fica como está; contatos descadastrados ou suprimidos ficam de fora (só a própria pessoa volta, pelo formulário). Numa lista com confirmação dupla os contatos entram pendentes e cada um recebe um e-mail de confirmação, do remetente padrão da conta, cobrado como qualquer mensagem (402 sem saldo, nada muda).',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.list,
    body: membersBody,
    success: { status: 200, description: 'Quantos contatos entraram, e como.', schema: listJoinSchema },
    errors: ['not_found', ...LIST_JOIN_ERRORS],
    example: { body: { contactIds: ['00000000-0000-4000-8000-000000000000'] } },
    handler: async ({ key, params, body }) => {
      const joined = await addContactsToList(db, consentLinks, key.accountId, params.id, body.contactIds, {
        kind: 'sender',
        via: 'api',
      });
      return { affected: joined.subscribed + joined.pending, ...joined };
    },
  }),
  defineOperation({
    method: 'DELETE',
    path: '/lists/{id}/members/{contactId}',
    operationId: 'removeListMember',
    summary: 'Tirar contato da lista',
    tags: TAGS,
    params: memberParams,
    notFoundMessage: NOT_FOUND_TEXT.list,
    success: { status: 204, description: 'Retirado (ou já não estava na lista).' },
    handler: async ({ key, params }) => {
      await removeContactsFromList(db, key.accountId, params.id, [params.contactId]);
    },
  }),
];
