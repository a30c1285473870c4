import { and, eq, inArray } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../../db/database';
import { listMemberships, lists } from './lists.db';

/**
 * The lists module's reads for other modules: a list's identity without its counts (`findList` computes those),
 * and a contact's memberships. `listDirectory` is the read model for joins (the public subscribe page joins the
 * account's sender name in its one statement), a subquery PostgreSQL pulls up.
 */
export const listDirectory = new QueryBuilder()
  .select({
    id: lists.id,
    accountId: lists.accountId,
    name: lists.name,
    description: lists.description,
    optIn: lists.optIn,
  })
  .from(lists)
  .as('list_directory');

export interface ListSummary {
  id: string;
  accountId: string;
  name: string;
  description: string | null;
  optIn: 'single' | 'double';
}

/**
 * Lists by id, without counts; only the account's when `accountId` is given (a double opt-in link knows only the
 * ids its signed request names).
 */
export async function findListSummaries(
  db: DbOrTx,
  listIds: readonly string[],
  accountId?: string,
): Promise<ListSummary[]> {
  if (listIds.length === 0) return [];
  return db
    .select({
      id: lists.id,
      accountId: lists.accountId,
      name: lists.name,
      description: lists.description,
      optIn: lists.optIn,
    })
    .from(lists)
    .where(and(inArray(lists.id, [...listIds]), accountId ? eq(lists.accountId, accountId) : undefined));
}

/**
 * The lists a contact is on (any status), with each list's name and the contact's status and time on it: the
 * contact's page, the preference centre and the LGPD export all read this one membership row set.
 */
export async function findContactMemberships(
  db: DbOrTx,
  contactId: string,
): Promise<Array<{ listId: string; listName: string; status: string; createdAt: Date }>> {
  return db
    .select({
      listId: listMemberships.listId,
      listName: lists.name,
      status: listMemberships.status,
      createdAt: listMemberships.createdAt,
    })
    .from(listMemberships)
    .innerJoin(lists, eq(lists.id, listMemberships.listId))
    .where(eq(listMemberships.contactId, contactId));
}
