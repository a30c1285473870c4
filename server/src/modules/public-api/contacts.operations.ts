import { contactCreateSchema, contactQuerySchema } from '@carteiro/shared';
import { z } from 'zod';
import { createContact } from '../contacts/create-contact';
import { findContact, findContacts } from '../contacts/find-contacts';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';
import { contactDetailSchema, contactPageSchema, contactSchema } from './responses';

const idParams = z.object({ id: z.uuid() });
const NOT_FOUND = 'Contato não encontrado.';

/** Contacts: thin operations over the contacts module, every call scoped by the key's account. */
export const contactsOperations: OperationGroup = ({ db }) => [
  defineOperation({
    method: 'GET',
    path: '/contacts',
    operationId: 'listContacts',
    summary: 'Listar contatos',
    description: 'Mais novos primeiro, paginados por cursor (`nextCursor`). Busca por prefixo do e-mail ou do nome.',
    tags: ['Contatos'],
    query: contactQuerySchema,
    success: { status: 200, description: 'Uma página de contatos.', schema: contactPageSchema },
    handler: ({ key, query }) => findContacts(db, key.accountId, query),
  }),
  defineOperation({
    method: 'POST',
    path: '/contacts',
    operationId: 'createContact',
    summary: 'Criar contato',
    tags: ['Contatos'],
    body: contactCreateSchema,
    success: { status: 201, description: 'O contato criado.', schema: contactSchema },
    example: { body: { email: 'ana@example.com', name: 'Ana Souza', fields: { cidade: 'Recife' } } },
    handler: ({ key, body, request }) => createContact(db, key.accountId, body, { ip: request.ip }),
  }),
  defineOperation({
    method: 'GET',
    path: '/contacts/{id}',
    operationId: 'getContact',
    summary: 'Ver contato',
    tags: ['Contatos'],
    params: idParams,
    notFoundMessage: NOT_FOUND,
    success: { status: 200, description: 'O contato e suas listas.', schema: contactDetailSchema },
    handler: ({ key, params }) => findContact(db, key.accountId, params.id),
  }),
];
