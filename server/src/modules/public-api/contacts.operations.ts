import { contactCreateSchema, contactQuerySchema, contactUpdateSchema } from '@carteiro/shared';
import { z } from 'zod';
import { AppError } from '../../http/app-error';
import { createContact } from '../contacts/create-contact';
import { deleteContacts } from '../contacts/delete-contacts';
import { findContact, findContacts } from '../contacts/find-contacts';
import { updateContact } from '../contacts/update-contact';
import { upsertContactByEmail } from '../contacts/upsert-contact';
import { addContactsToList, removeContactsFromList } from '../lists/add-contacts-to-list';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';
import { affectedSchema, contactDetailSchema, contactPageSchema, contactSchema } from './responses';

const idParams = z.object({ id: z.uuid() });
const listParams = z.object({ id: z.uuid(), listId: z.uuid() });
const listIdsBody = z.strictObject({
  listIds: z.array(z.uuid('Lista inválida.')).min(1, 'Informe ao menos uma lista.').max(100, 'No máximo 100 listas.'),
});
const NOT_FOUND = 'Contato não encontrado.';
const TAGS = ['Contatos'];

/** Contacts: thin operations over the contacts module, every call scoped by the key's account. */
export const contactsOperations: OperationGroup = ({ db }) => [
  defineOperation({
    method: 'GET',
    path: '/contacts',
    operationId: 'listContacts',
    summary: 'Listar contatos',
    description:
      'Mais novos primeiro, paginados por cursor: passe o `nextCursor` da resposta em `cursor`. `search` busca pelo começo do e-mail ou do nome.',
    tags: TAGS,
    query: contactQuerySchema,
    success: { status: 200, description: 'Uma página de contatos.', schema: contactPageSchema },
    example: { query: { limit: '50' } },
    errors: ['bad_request'],
    handler: ({ key, query }) => findContacts(db, key.accountId, query),
  }),
  defineOperation({
    method: 'POST',
    path: '/contacts',
    operationId: 'createContact',
    summary: 'Criar contato',
    description: 'Um e-mail que já existe na conta ou está na lista de supressão é recusado com 409.',
    tags: TAGS,
    body: contactCreateSchema,
    success: { status: 201, description: 'O contato criado.', schema: contactSchema },
    example: { body: { email: 'ana@example.com', name: 'Ana Souza', fields: { cidade: 'Recife' } } },
    errors: ['contact_exists', 'address_suppressed', 'not_found'],
    handler: ({ key, body, request }) => createContact(db, key.accountId, body, { ip: request.ip }),
  }),
  defineOperation({
    method: 'PUT',
    path: '/contacts',
    operationId: 'upsertContact',
    summary: 'Criar ou atualizar contato pelo e-mail',
    description:
      'Cria o contato, ou atualiza o da conta com este e-mail: nome, situação e consentimento substituídos quando enviados, campos personalizados mesclados, listas adicionadas. Responde 201 ao criar e 200 ao atualizar.',
    tags: TAGS,
    body: contactCreateSchema,
    success: { status: 200, description: 'O contato atualizado (201 quando criado).', schema: contactSchema },
    example: { body: { email: 'bruno@example.com', name: 'Bruno Lima', fields: { plano: 'ouro' } } },
    errors: ['address_suppressed', 'not_found'],
    handler: async ({ key, body, request, reply }) => {
      const { contact, created } = await upsertContactByEmail(db, key.accountId, body, { ip: request.ip });
      return reply.status(created ? 201 : 200).send(contact);
    },
  }),
  defineOperation({
    method: 'GET',
    path: '/contacts/{id}',
    operationId: 'getContact',
    summary: 'Ver contato',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 200, description: 'O contato e suas listas.', schema: contactDetailSchema },
    handler: ({ key, params }) => findContact(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'PATCH',
    path: '/contacts/{id}',
    operationId: 'updateContact',
    summary: 'Alterar contato',
    description:
      '`fields` substitui os campos personalizados. A situação `unsubscribed` descadastra de todas as listas.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    body: contactUpdateSchema,
    success: { status: 200, description: 'O contato alterado.', schema: contactSchema },
    example: { body: { name: 'Ana S. Souza', fields: { cidade: 'Olinda' } } },
    errors: ['contact_exists', 'address_suppressed'],
    handler: ({ key, params, body }) => updateContact(db, key.accountId, params.id, body),
  }),
  defineOperation({
    method: 'DELETE',
    path: '/contacts/{id}',
    operationId: 'deleteContact',
    summary: 'Excluir contato',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 204, description: 'Excluído.' },
    handler: async ({ key, params }) => {
      if ((await deleteContacts(db, key.accountId, [params.id])) === 0) throw new AppError('not_found', NOT_FOUND);
    },
  }),
  defineOperation({
    method: 'POST',
    path: '/contacts/{id}/lists',
    operationId: 'addContactToLists',
    summary: 'Adicionar contato a listas',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND,
    body: listIdsBody,
    success: { status: 200, description: 'Quantas inscrições novas foram criadas.', schema: affectedSchema },
    example: { body: { listIds: ['00000000-0000-4000-8000-000000000000'] } },
    handler: async ({ key, params, body }) => {
      await findContact(db, key.accountId, params.id);
      let affected = 0;
      for (const listId of new Set(body.listIds))
        affected += await addContactsToList(db, key.accountId, listId, [params.id]);
      return { affected };
    },
  }),
  defineOperation({
    method: 'DELETE',
    path: '/contacts/{id}/lists/{listId}',
    operationId: 'removeContactFromList',
    summary: 'Tirar contato de uma lista',
    description: 'O contato continua na conta.',
    tags: TAGS,
    params: listParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 204, description: 'Retirado (ou já não estava na lista).' },
    handler: async ({ key, params }) => {
      await findContact(db, key.accountId, params.id);
      await removeContactsFromList(db, key.accountId, params.listId, [params.id]);
    },
  }),
];
