import { Readable } from 'node:stream';
import {
  type ContactBulkResult,
  contactBulkSchema,
  contactCreateSchema,
  contactQuerySchema,
  contactUpdateSchema,
  suppressionAddSchema,
  suppressionEmailSchema,
} from '@carteiro/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/database';
import { AppError } from '../../http/app-error';
import { ERROR_TEXT } from '../../http/error-texts';
import { idParam } from '../../http/id-param';
import { notFound } from '../../http/not-found';
import { parseInput } from '../../http/validate';
import { requireActor } from '../auth/request-actor';
import { removeContactsFromList } from '../lists/memberships';
import { createContact, type JoinLists } from './create-contact';
import { deleteContacts } from './delete-contacts';
import { type EraseMentions, eraseContact } from './erase-contact';
import { exportContactsCsv } from './export-contacts';
import { findContact, findContacts } from './find-contacts';
import { addManualSuppressions, lookupSuppression, removeManualSuppression, suppressionSummary } from './suppression';
import { unsubscribeContacts } from './unsubscribe-contacts';
import { updateContact } from './update-contact';

const exportQuery = contactQuerySchema.omit({ cursor: true, limit: true }).extend({
  delimiter: z.enum([',', ';', 'semicolon', 'comma']).optional(),
});

export interface ContactsRoutesOptions {
  db: Db;
  /** Creating a contact onto lists and the bulk "adicionar à lista": the consent rule (see `JoinLists`). */
  joinLists: JoinLists;
  eraseMentions: EraseMentions;
  /**
   * The LGPD export of one contact of the account (privacy-requests' `exportContactData`, which reads the lists
   * and the consent evidence through their modules): passed in by the composition root, contacts sitting below them.
   */
  exportContactData: (db: Db, accountId: string, contactId: string) => Promise<unknown>;
}

/** Contacts REST API: every query scoped by the actor's account (another account's id answers 404). */
export async function contactsRoutes(app: FastifyInstance, opts: ContactsRoutesOptions): Promise<void> {
  const { db, joinLists, eraseMentions, exportContactData } = opts;

  app.get('/api/contacts', async (request) => {
    const actor = await requireActor(request);
    return findContacts(db, actor.accountId, parseInput(contactQuerySchema, request.query));
  });

  app.post('/api/contacts', async (request, reply) => {
    const actor = await requireActor(request);
    const contact = await createContact(db, actor.accountId, parseInput(contactCreateSchema, request.body), {
      joinLists,
      via: 'painel',
      actor,
      ip: request.ip,
    });
    return reply.status(201).send(contact);
  });

  app.get('/api/contacts/export.csv', async (request, reply) => {
    const actor = await requireActor(request);
    const { delimiter, ...filter } = parseInput(exportQuery, request.query);
    // `;` (Excel pt-BR) unless `,` is asked for.
    const d = delimiter === ',' || delimiter === 'comma' ? ',' : ';';
    const date = new Date().toISOString().slice(0, 10);
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="contatos-${date}.csv"`)
      .header('cache-control', 'no-store');
    return reply.send(Readable.from(exportContactsCsv(db, actor.accountId, filter, { delimiter: d })));
  });

  app.post('/api/contacts/bulk', async (request): Promise<ContactBulkResult> => {
    const actor = await requireActor(request);
    const input = parseInput(contactBulkSchema, request.body);
    const ids = [...new Set(input.ids)];
    if ((input.action === 'add_to_list' || input.action === 'remove_from_list') && !input.listId) {
      throw new AppError('validation_failed', ERROR_TEXT.contacts.chooseList);
    }
    let affected = 0;
    if (input.action === 'add_to_list') {
      const joined = await joinLists(db, actor.accountId, [input.listId as string], ids, {
        kind: 'sender',
        via: 'painel',
        actor,
      });
      return { action: input.action, affected: joined.subscribed + joined.pending, ...joined };
    } else if (input.action === 'remove_from_list') {
      affected = await removeContactsFromList(db, actor.accountId, input.listId as string, ids);
    } else if (input.action === 'unsubscribe') affected = await unsubscribeContacts(db, actor.accountId, ids);
    else affected = await deleteContacts(db, actor.accountId, ids);
    return { action: input.action, affected };
  });

  app.get('/api/contacts/:id', async (request) => {
    const actor = await requireActor(request);
    return findContact(db, actor.accountId, idParam(request.params, 'contact'));
  });

  app.patch('/api/contacts/:id', async (request) => {
    const actor = await requireActor(request);
    return updateContact(
      db,
      actor.accountId,
      idParam(request.params, 'contact'),
      parseInput(contactUpdateSchema, request.body),
    );
  });

  app.delete('/api/contacts/:id', async (request, reply) => {
    const actor = await requireActor(request);
    const deleted = await deleteContacts(db, actor.accountId, [idParam(request.params, 'contact')]);
    if (deleted === 0) throw notFound('contact');
    return reply.status(204).send();
  });

  app.get('/api/contacts/:id/export', async (request, reply) => {
    const actor = await requireActor(request);
    const id = idParam(request.params, 'contact');
    const data = await exportContactData(db, actor.accountId, id);
    reply
      .header('content-disposition', `attachment; filename="contato-${id}.json"`)
      .header('cache-control', 'no-store');
    return data;
  });

  app.post('/api/contacts/:id/erase', async (request) => {
    const actor = await requireActor(request);
    await eraseContact(db, actor.accountId, idParam(request.params, 'contact'), eraseMentions);
    return { erased: true };
  });

  // The account's suppression list. Addresses travel in POST bodies, never in URLs (which end up in logs).
  app.get('/api/suppressions', async (request) => {
    const actor = await requireActor(request);
    return suppressionSummary(db, actor.accountId);
  });

  app.post('/api/suppressions', async (request) => {
    const actor = await requireActor(request);
    return addManualSuppressions(db, actor.accountId, parseInput(suppressionAddSchema, request.body).emails);
  });

  app.post('/api/suppressions/lookup', async (request) => {
    const actor = await requireActor(request);
    return lookupSuppression(db, actor.accountId, parseInput(suppressionEmailSchema, request.body).email);
  });

  app.post('/api/suppressions/remove', async (request) => {
    const actor = await requireActor(request);
    await removeManualSuppression(db, actor.accountId, parseInput(suppressionEmailSchema, request.body).email);
    return { removed: true };
  });
}
