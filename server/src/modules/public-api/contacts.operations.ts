import {
  apiContactCreateSchema,
  contactCreateSchema,
  contactQuerySchema,
  contactUpdateSchema,
  validationText,
} from '@carteiro/shared';
import { z } from 'zod';
import { NOT_FOUND_TEXT, notFound } from '../../http/not-found';
import { createContact } from '../contacts/create-contact';
import { deleteContacts } from '../contacts/delete-contacts';
import { findContact, findContacts } from '../contacts/find-contacts';
import { updateContact } from '../contacts/update-contact';
import { upsertContactByEmail } from '../contacts/upsert-contact';
import { removeContactsFromList } from '../lists/memberships';
import { addContactsToLists, joinListsWith } from '../subscriptions/add-contacts-to-lists';
import { defineOperation } from './operation';
import type { OperationGroup } from './public-api.routes';
import { contactDetailSchema, contactPageSchema, contactSchema, LIST_JOIN_ERRORS, listJoinSchema } from './responses';

const idParams = z.object({ id: z.uuid() });
const listParams = z.object({ id: z.uuid(), listId: z.uuid() });
const listIdsBody = z.strictObject({
  listIds: z
    .array(z.uuid(validationText('listInvalid')))
    .min(1, validationText('listsAtLeastOne'))
    .max(100, validationText('listsMax')),
});
const TAGS = ['Contatos'];

/** Contacts: thin operations over the contacts module, every call scoped by the key's account. */
export const contactsOperations: OperationGroup = ({ db, consentLinks }) => [
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
    description:
      'A base legal da LGPD é obrigatória (`legalBasis`: `consent` ou `legitimate_interest`; sem ela, 400 `validation_failed` com o campo): ela fica como evidência no contato, com a origem (`consentSource`, "API" quando não enviada), a data e o IP da requisição — as mesmas que o painel pede. Um e-mail que já existe na conta ou está na lista de supressão é recusado com 409. Em `listIds` com confirmação dupla o contato entra pendente e recebe um e-mail de confirmação (cobrado; 402 sem saldo, nada é criado).',
    tags: TAGS,
    body: apiContactCreateSchema,
    success: { status: 201, description: 'O contato criado.', schema: contactSchema },
    errors: ['contact_exists', 'address_suppressed', 'not_found', ...LIST_JOIN_ERRORS],
    example: {
      body: {
        email: 'ana@example.com',
        name: 'Ana Souza',
        fields: { cidade: 'Recife' },
        legalBasis: 'consent',
        consentSource: 'checkout da loja virtual',
      },
    },
    handler: ({ key, body, request }) =>
      createContact(db, key.accountId, body, { joinLists: joinListsWith(consentLinks), via: 'api', ip: request.ip }),
  }),
  defineOperation({
    method: 'PUT',
    path: '/contacts',
    operationId: 'upsertContact',
    summary: 'Criar ou atualizar contato pelo e-mail',
    description:
      'Cria o contato (com a base legal da LGPD obrigatória, como em `POST /contacts`), ou atualiza o da conta com este e-mail (a evidência que ele tem fica, se `legalBasis` não vier): nome, situação e consentimento substituídos quando enviados, campos personalizados mesclados, listas adicionadas (com confirmação dupla, pendentes e com e-mail de confirmação). A situação não volta a `subscribed` sem um novo consentimento da pessoa (409). Responde 201 ao criar e 200 ao atualizar.',
    tags: TAGS,
    body: contactCreateSchema,
    success: { status: 200, description: 'O contato atualizado (201 quando criado).', schema: contactSchema },
    example: {
      body: { email: 'bruno@example.com', name: 'Bruno Lima', fields: { plano: 'ouro' }, legalBasis: 'consent' },
    },
    errors: ['address_suppressed', 'consent_required', 'not_found', ...LIST_JOIN_ERRORS],
    handler: async ({ key, body, request, reply }) => {
      const { contact, created } = await upsertContactByEmail(db, key.accountId, body, {
        joinLists: joinListsWith(consentLinks),
        via: 'api',
        ip: request.ip,
      });
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
    notFoundMessage: NOT_FOUND_TEXT.contact,
    success: { status: 200, description: 'O contato e suas listas.', schema: contactDetailSchema },
    handler: ({ key, params }) => findContact(db, key.accountId, params.id),
  }),
  defineOperation({
    method: 'PATCH',
    path: '/contacts/{id}',
    operationId: 'updateContact',
    summary: 'Alterar contato',
    description:
      '`fields` substitui os campos personalizados. A situação `unsubscribed` descadastra de todas as listas. Um contato descadastrado, com devolução ou reclamação não volta a `subscribed` por aqui (409 `consent_required`, `details.status` diz por que saiu): só a própria pessoa volta, inscrevendo-se pelo formulário da lista (com confirmação por e-mail) ou pelo link "Quero voltar a receber" da página de descadastro.',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.contact,
    body: contactUpdateSchema,
    success: { status: 200, description: 'O contato alterado.', schema: contactSchema },
    example: { body: { name: 'Ana S. Souza', fields: { cidade: 'Olinda' } } },
    errors: ['contact_exists', 'address_suppressed', 'consent_required'],
    handler: ({ key, params, body }) => updateContact(db, key.accountId, params.id, body),
  }),
  defineOperation({
    method: 'DELETE',
    path: '/contacts/{id}',
    operationId: 'deleteContact',
    summary: 'Excluir contato',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.contact,
    success: { status: 204, description: 'Excluído.' },
    handler: async ({ key, params }) => {
      if ((await deleteContacts(db, key.accountId, [params.id])) === 0) throw notFound('contact');
    },
  }),
  defineOperation({
    method: 'POST',
    path: '/contacts/{id}/lists',
    operationId: 'addContactToLists',
    summary: 'Adicionar contato a listas',
    tags: TAGS,
    params: idParams,
    notFoundMessage: NOT_FOUND_TEXT.contact,
    body: listIdsBody,
    success: { status: 200, description: 'Quantas inscrições novas foram criadas, e como.', schema: listJoinSchema },
    errors: ['not_found', ...LIST_JOIN_ERRORS],
    example: { body: { listIds: ['00000000-0000-4000-8000-000000000000'] } },
    handler: async ({ key, params, body }) => {
      await findContact(db, key.accountId, params.id);
      const joined = await addContactsToLists(db, consentLinks, key.accountId, body.listIds, [params.id], {
        kind: 'sender',
        via: 'api',
      });
      return { affected: joined.subscribed + joined.pending, ...joined };
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
    notFoundMessage: NOT_FOUND_TEXT.contact,
    success: { status: 204, description: 'Retirado (ou já não estava na lista).' },
    handler: async ({ key, params }) => {
      await findContact(db, key.accountId, params.id);
      await removeContactsFromList(db, key.accountId, params.listId, [params.id]);
    },
  }),
];
