import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database';
import { queryRows } from '../../db/database';
import { campaigns } from './campaigns.db';

/**
 * The account's hidden stream campaign (kind transactional, ADR 0018) whose pipeline rows are the account's
 * transactional messages, created on first use: status sent (never claimed by the campaign lanes, never
 * editable), no start date (never on the calendar). One per account (a partial unique index); concurrent first
 * uses all get the same row.
 */
export async function findOrCreateTransactionalStream(db: Db, accountId: string): Promise<string> {
  const [row] = await queryRows<{ id: string }>(
    db,
    sql`with ins as (
          insert into campaigns (uuid, created_by, name, subject, status, kind)
          values (gen_random_uuid(), ${accountId}, 'Mensagens transacionais (API)', '', 'sent', 'transactional')
          on conflict (created_by) where kind = 'transactional' do nothing
          returning id)
        select id from ins
        union all
        select id from campaigns where created_by = ${accountId} and kind = 'transactional'
        limit 1`,
  );
  if (row) return row.id;
  // Created by a concurrent transaction after this statement's snapshot: read it again.
  const [again] = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.createdBy, accountId), eq(campaigns.kind, 'transactional')));
  if (!again) throw new Error('transactional stream could not be created');
  return again.id;
}
